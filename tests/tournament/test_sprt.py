"""Format sprt: an A/B test run as a tournament, decided by the sequential test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.ratings import sprt_from_records
from arena.tournament import (
    LocalExecutor,
    Schedule,
    SerialExecutor,
    TournamentError,
    load_config,
    referee_match,
    run_tournament,
    validate_config,
)
from arena.tournament._formats._sprt import sprt_plan
from arena.tournament._sprt import SprtFeed
from tests.recordtools import kill_run_after

from .helpers import Interrupt, load_records

ROOT = Path(__file__).resolve().parents[2]


def _config(name: str = "ab", **fmt: Any) -> dict[str, Any]:
    """greedy (clearly stronger) against lowest under Daifugo rules, tables of 3."""
    return {
        "name": name,
        "seed": 3,
        "rules": {"preset": "daifugo", "rounds": 2},
        "players": 3,
        "format": {"type": "sprt", "challenger": "greedy", "baseline": "lowest", "elo1": 50,
                   "max_sets": 60, **fmt},
        "bots": [{"name": "greedy"}, {"name": "lowest"}],
    }


def _replayed(records: list[dict[str, Any]], config: dict[str, Any]) -> dict[str, Any]:
    """The test replayed from the records by the ratings API (what `arena ab --from` does)."""
    fmt = config["format"]
    status = sprt_from_records(
        records, fmt["challenger"], fmt.get("baseline"), elo0=fmt.get("elo0", 0.0),
        elo1=fmt.get("elo1", 20.0), max_sets=fmt["max_sets"],
    )
    return status.to_dict()


def test_a_clearly_stronger_challenger_is_accepted(tmp_path: Path) -> None:
    config = _config()
    result = run_tournament(config, out=tmp_path / "ab", jobs=1)
    assert result.sprt is not None
    assert result.sprt["decision"] == "H1"
    assert result.sprt["llr"] >= result.sprt["upper"]
    assert result.sprt["elo_low"] <= result.sprt["elo"] <= result.sprt["elo_high"]
    assert result.sprt["elo"] > 50
    sets = result.sprt["sets"]
    assert 1 <= sets < 60  # stopped early
    records = load_records(tmp_path / "ab" / "records.jsonl")
    # The records are exactly the sets the decision rests on: 6 matches each (3 rotations,
    # mirrored), in set order, with the baseline's copy in the third seat.
    assert len(records) == result.total == result.played == 6 * sets and result.complete
    assert [r["set"] for r in records] == [f"ab-s{i}" for i in range(sets) for _ in range(6)]
    assert [r["match_id"] for r in records[:6]] == [
        "ab-s0-r0", "ab-s0-r1", "ab-s0-r2", "ab-s0-m0", "ab-s0-m1", "ab-s0-m2"]
    assert sorted(s["label"] for s in records[0]["seats"]) == ["greedy", "lowest", "lowest#2"]
    assert _replayed(records, config) == result.sprt


def test_a_weaker_challenger_is_rejected_and_the_field_form_works(tmp_path: Path) -> None:
    config = _config(challenger="passer", baseline=None)  # passes whenever it may
    config["bots"].append({"name": "passer"})
    result = run_tournament(config, out=tmp_path / "h0", jobs=1)
    assert result.sprt is not None and result.sprt["decision"] == "H0"
    records = load_records(tmp_path / "h0" / "records.jsonl")
    assert {s["label"] for s in records[0]["seats"]} == {"greedy", "lowest", "passer"}
    assert _replayed(records, config) == result.sprt


def test_max_sets_ends_without_a_decision(tmp_path: Path) -> None:
    config = _config(max_sets=2)
    config["bots"][1] = {"name": "greedy", "label": "lowest"}  # equal bots: no quick decision
    result = run_tournament(config, out=tmp_path / "max", jobs=1)
    assert result.sprt is not None
    assert result.sprt["decision"] == "inconclusive" and result.sprt["sets"] == 2
    assert result.total == result.played == 12


def test_records_and_decision_do_not_depend_on_jobs(tmp_path: Path) -> None:
    config = _config()
    one = run_tournament(config, out=tmp_path / "one", jobs=1)
    # A small window keeps later sets in flight when the test decides: they are dropped.
    with LocalExecutor(2, referee_match, window=5) as pool:
        two = run_tournament(config, out=tmp_path / "two", executor=pool)
    assert one.sprt == two.sprt
    assert one.standings == two.standings
    assert load_records(tmp_path / "one" / "records.jsonl") == load_records(
        tmp_path / "two" / "records.jsonl"
    )




def test_an_interrupted_test_resumes_to_the_same_records_and_decision(tmp_path: Path) -> None:
    config = _config()
    whole = run_tournament(config, out=tmp_path / "whole", jobs=1)
    cut = tmp_path / "cut"
    for limit in (4, 6, 9):  # mid-set, at a set's end, mid-set again
        with pytest.raises(KeyboardInterrupt):
            stop = SerialExecutor(Interrupt(limit, referee_match))
            run_tournament(config, out=cut, executor=stop)
    resumed = run_tournament(config, out=cut, jobs=1)
    assert resumed.resumed == 19 and resumed.played == whole.total - 19
    assert resumed.sprt == whole.sprt
    assert load_records(cut / "records.jsonl") == load_records(
        tmp_path / "whole" / "records.jsonl"
    )
    again = run_tournament(config, out=cut, jobs=1)  # decided: plays nothing
    assert again.played == 0 and again.sprt == whole.sprt and again.complete


def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    config = tmp_path / "kill.yaml"
    config.write_text(
        "name: kill\nseed: 4\nrules: {preset: runs, rounds: 3}\nplayers: 3\n"
        "format: {type: sprt, challenger: random, baseline: random-2, max_sets: 12}\n"
        "bots: [{name: random}, {name: random, label: random-2}, {name: lowest}]\n",
        encoding="utf-8",
    )
    out = tmp_path / "killed"
    command = [sys.executable, "-c", "from arena.cli import main; main()", "run", str(config),
               "--out", str(out), "--jobs", "2", "--quiet"]
    kill_run_after(command, out / "records.jsonl", 8, within_s=60)
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    whole = run_tournament(config, out=tmp_path / "whole", jobs=1)
    assert load_records(out / "records.jsonl") == load_records(tmp_path / "whole" / "records.jsonl")
    assert whole.sprt is not None and whole.total == 6 * whole.sprt["sets"]


def test_resume_refuses_records_of_another_test(tmp_path: Path) -> None:
    config = _config()
    out = tmp_path / "ab"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, out=out, executor=SerialExecutor(Interrupt(3, referee_match)))
    path = out / "records.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[0].replace("ab-s0-r0", "ab-s7-q1")]) + "\n")
    with pytest.raises(TournamentError, match=r"match 'ab-s7-q1' is not one this test schedules"):
        run_tournament(config, out=out, jobs=1)


def test_the_feed_takes_sets_in_order_whatever_order_records_come(tmp_path: Path) -> None:
    config = validate_config(_config(max_sets=3))
    plan = sprt_plan(Schedule(config))
    records = [referee_match(spec) for i in range(3) for spec in plan.specs(i)]
    in_order, shuffled = SprtFeed(plan), SprtFeed(plan)
    statuses = [s for r in records for s in in_order.add(r)]
    late_first = records[6:] + records[:6]  # set 1 and 2 arrive before set 0
    shuffled_statuses = [s for r in late_first for s in shuffled.add(r)]
    assert [s.sets for s in statuses] == [1, 2, 3]
    assert shuffled_statuses == statuses  # fed 0, 1, 2 once set 0 completes
    bad = dict(records[0], seed=records[0]["seed"] + 1)
    with pytest.raises(ValueError, match="other seats or another seed"):
        SprtFeed(plan).add(bad)


def test_cli_shows_the_result_and_validate_describes_the_test(tmp_path: Path) -> None:
    runner = CliRunner()
    path = ROOT / "configs" / "sprt.yaml"
    checked = runner.invoke(main, ["validate", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "greedy against lowest (lowest, lowest#2, lowest#3)" in checked.output
    assert "at most 200 sets (1600 matches)" in checked.output
    ran = runner.invoke(main, ["run", str(path), "--out", str(tmp_path / "cli"), "-j", "1"])
    assert ran.exit_code == 0, ran.output
    assert "SPRT result: H1 accepted: challenger is stronger (elo >= 50)" in ran.output
    assert "LLR +" in ran.output and "elo +" in ran.output
    as_json = runner.invoke(main, ["run", str(path), "--out", str(tmp_path / "cli"), "--json"])
    assert '"decision": "H1"' in as_json.output


def test_shipped_sprt_config_is_small() -> None:
    config = load_config(ROOT / "configs" / "sprt.yaml")
    assert sprt_plan(Schedule(config)).set_size == 8


def _broken_in_set_2(spec: Any) -> dict[str, Any]:
    if spec.match_id == "ab-s2-m1":
        raise RuntimeError("referee bug")
    return referee_match(spec)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_record_stops_the_test_undecided_at_its_set(tmp_path: Path, jobs: int) -> None:
    # The one error policy: the error is recorded in its place and the run goes on; the
    # test cannot score a set with a hole, so it stops there, its status that of set 1.
    config = _config(elo1=500, max_sets=10)  # far from deciding in 3 sets
    out = tmp_path / "ab"
    with LocalExecutor(jobs, _broken_in_set_2) as executor:
        result = run_tournament(config, out=out, executor=executor)
    assert [e["match_id"] for e in result.errors] == ["ab-s2-m1"]
    assert result.sprt is not None and result.sprt["decision"] == "continue"
    assert result.sprt["sets"] == 2 and not result.complete
    records = load_records(out / "records.jsonl")
    # set 2 whole (its other matches were in flight or next), nothing of later sets
    assert [r["match_id"] for r in records[12:]] == [
        "ab-s2-r0", "ab-s2-r1", "ab-s2-r2", "ab-s2-m0", "ab-s2-m1", "ab-s2-m2"]
    assert records[16]["type"] == "error"
    again = run_tournament(config, out=out, jobs=1)
    assert again.played == 0 and again.sprt == result.sprt
    assert [e["match_id"] for e in again.errors] == ["ab-s2-m1"]
