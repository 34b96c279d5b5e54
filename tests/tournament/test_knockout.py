"""Format knockout: an elimination at tables of duplicate sets (docs/tournaments.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.tournament import (
    ConfigError,
    SerialExecutor,
    dry_run_match,
    run_tournament,
    validate_config,
)
from arena.tournament._formats._knockout import rounds, seat, table_order

from .helpers import Interrupt, load_records

BOTS = ["greedy", "lowest", "highest", "random", "passer"]


def _config(n: int, k: int, advance: int = 1, **extra: Any) -> dict[str, Any]:
    return {"name": "ko", "seed": 3, "players": k, "rules": {"rounds": 1},
            "format": {"type": "knockout", "advance": advance},
            "bots": [{"name": BOTS[i % 5], "label": f"b{i}"} for i in range(n)], **extra}


def _problems(config: dict[str, Any]) -> str:
    with pytest.raises(ConfigError) as caught:
        validate_config(config, check_bots=False)
    return str(caught.value)


def test_a_config_says_what_it_cannot_do() -> None:
    assert "format.advance: must be below 'players' (3)" in _problems(_config(7, 3, advance=3))
    assert "format knockout always plays duplicate sets" in _problems(
        _config(7, 3, duplicate=False))
    assert "'repeat' does not apply" in _problems(_config(7, 3, repeat=2))
    teamed = _config(7, 3)
    teamed["bots"][0]["team"] = "x"
    assert "bots[0].team: format knockout seats entrants by their seeds alone" in _problems(
        teamed)
    assert "4 seats per table but only 3 bots" in _problems(_config(3, 4))


def test_rounds_go_on_while_a_table_can_be_filled() -> None:
    assert rounds(16, 4, 1) == [(4, 0), (1, 0)]  # 16 -> 4 -> 1 winner
    assert rounds(16, 4, 2) == [(4, 0), (2, 0), (1, 0)]  # 16 -> 8 -> 4 -> 2 winners
    assert rounds(7, 3, 1) == [(2, 1), (1, 0)]  # a bye: 7 -> 3 -> 1
    assert rounds(2, 3, 1) == []


def test_byes_go_to_the_best_seeds_and_tables_are_dealt_in_a_snake() -> None:
    byes, tables = seat(list(range(11)), 4)
    assert byes == [0, 1, 2]
    assert tables == [(3, 6, 7, 10), (4, 5, 8, 9)]


def _record(set_id: str, labels: list[str], ranking: list[int], scores: list[int]
            ) -> dict[str, Any]:
    return {"type": "match", "match_id": f"{set_id}-{ranking}", "set": set_id,
            "seats": [{"label": label} for label in labels], "ranking": ranking,
            "scores": scores, "deals": []}


def test_a_tie_goes_to_the_better_seed() -> None:
    labels = ["a", "b", "c"]
    # b and c each win one match of the set, with the same points: b is the better seed.
    records = [_record("s", ["a", "b", "c"], [1, 2, 0], [0, 2, 1]),
               _record("s", ["c", "a", "b"], [0, 2, 1], [2, 0, 1])]
    assert table_order((2, 1, 0), records, labels) == [1, 2, 0]
    # an error record counts for no one: the seeds decide
    assert table_order((2, 0, 1), [{"type": "error", "match_id": "x"}], labels) == [0, 1, 2]


def test_a_knockout_runs_end_to_end_with_a_bye(tmp_path: Path) -> None:
    """Seven entrants at tables of three: round 0 seats six at two tables (the best seed
    sits out), round 1 seats the bye and the two table winners; one winner."""
    path = tmp_path / "ko.yaml"
    path.write_text(json.dumps(_config(7, 3)))
    checked = CliRunner().invoke(main, ["validate", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "best 1 of each table go on, 2 rounds (tables: 2, 1), 9 matches" in checked.output
    out = tmp_path / "out"
    ran = CliRunner().invoke(main, ["run", str(path), "--out", str(out), "--jobs", "1",
                                    "--json"])
    assert ran.exit_code == 0, ran.output
    result = json.loads(ran.output[ran.output.index("{"):])
    records = load_records(out / "records.jsonl")
    assert len(records) == 9 == result["total"] and result["complete"]
    by_round = Counter(r["round"] for r in records)
    assert by_round == {0: 6, 1: 3}
    first = {s["label"] for r in records if r["round"] == 0 for s in r["seats"]}
    assert "b0" not in first and len(first) == 6  # the bye
    final = {s["label"] for r in records if r["round"] == 1 for s in r["seats"]}
    assert "b0" in final and len(final) == 3
    outcome = result["knockout"]
    assert outcome["finished"] and outcome["rounds"] == 2
    assert len(outcome["winners"]) == 1 and outcome["winners"][0] in final
    assert outcome["order"][0] == outcome["winners"][0]
    assert set(outcome["out"]) == {f"b{i}" for i in range(7)} - set(outcome["winners"])
    assert all(outcome["out"][label] == 1 for label in final - set(outcome["winners"]))
    for r in records:  # every table is a duplicate set of one seed
        same = [o for o in records if o["set"] == r["set"]]
        assert len(same) == 3 and {o["seed"] for o in same} == {r["seed"]}


def test_an_interrupted_knockout_resumes_to_the_same_records(tmp_path: Path) -> None:
    config = _config(13, 3, advance=2)  # 13 -> 9 (a bye) -> 6 -> 4 -> 3 (a bye) -> 2
    whole = run_tournament(config, out=tmp_path / "whole", executor=SerialExecutor(dry_run_match))
    assert whole.complete and whole.outcome is not None and whole.outcome["finished"]
    for limit in (5, 13, 4):  # 5, 18, 22 recorded: in round 0, round 1 and round 2
        with pytest.raises(KeyboardInterrupt):
            run_tournament(config, out=tmp_path / "cut",
                           executor=SerialExecutor(Interrupt(limit, dry_run_match)))
    resumed = run_tournament(config, out=tmp_path / "cut", executor=SerialExecutor(dry_run_match))
    assert resumed.resumed == 22 and resumed.played == whole.total - 22
    assert (tmp_path / "cut" / "records.jsonl").read_bytes() == (
        tmp_path / "whole" / "records.jsonl").read_bytes()
    assert resumed.outcome == whole.outcome and resumed.standings == whole.standings
