"""A/B tests: ``arena ab`` is a thin command over the one engine, the tournament format sprt.

The statistics live in ``arena.ratings`` and read records only; the sets are laid out, played,
resumed and fed to the test by the tournament runner. Fast runs use a planted-strength stand-in
for the referee; a few real runs check the command end to end.
"""

from __future__ import annotations

import json
import re
import shlex
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.cli._seats import seat_specs
from arena.ratings import sprt_from_records
from arena.referee import Seat
from arena.tournament import (
    Schedule,
    TournamentConfig,
    ab_config,
    parse_config,
    run_tournament,
    validate_config,
)
from arena.tournament._formats._sprt import sprt_plan
from arena.tournament._sprt import SprtPlan
from tests.recordtools import without_timings

from .planted_runner import play, play_faulty_baseline


def _config(bots: Sequence[str] = ("strong=greedy", "weak=greedy"), *, host: str = "inline",
            **options: Any) -> dict[str, Any]:
    options = {"elo0": 0, "elo1": 40, "max_sets": 400, **options}
    return ab_config(seat_specs(bots, host), **options)


def _plan(bots: Sequence[str] = ("strong=greedy", "weak=greedy"), **options: Any) -> SprtPlan:
    return sprt_plan(Schedule(validate_config(_config(bots, **options), check_bots=False)))


def test_the_command_builds_a_format_sprt_config() -> None:
    config = validate_config(_config(["strong=greedy", "weak=lowest", "twin=random"],
                                     players=5, seed=7, preset="runs", move_ms=300))
    assert isinstance(config, TournamentConfig)
    assert (config.name, config.seed, config.players, config.rules) == (
        "ab", 7, 5, {"preset": "runs"})
    assert config.format.type == "sprt"
    assert (config.format.challenger, config.format.baseline) == ("strong", "weak")
    assert (config.format.elo1, config.format.max_sets) == (40, 400)
    assert config.limits.move_ms == 300


@pytest.mark.parametrize(("texts", "host", "players"), [
    (["greedy", "g2=greedy"], "process", 2),
    (["mine=cmd:python3 bot.py --depth=3", "cmd:perl bot.pl"], "inline", 2),
    (["greedy", "u=cmd-uecda:./client -h {host}"], "inline", 5),
])
def test_the_referee_gets_the_bots_arena_match_would_seat(
    texts: list[str], host: str, players: int
) -> None:
    # ab reads its bots with arena match's parser, and the config carries them unchanged
    config = validate_config(_config(texts, host=host, players=players), check_bots=False)
    seats = [Seat.from_dict(seat) for seat in seat_specs(texts, host)]
    assert [bot.seat() for bot in config.bots] == seats


def test_the_same_bot_twice_gets_its_second_label_as_in_arena_match() -> None:
    assert _plan(["greedy", "greedy"]).labels == ["greedy", "greedy-2", "greedy-2#2",
                                                   "greedy-2#3"]


def test_a_set_rotates_every_seat_over_one_seed() -> None:
    plan = _plan()
    assert plan.labels == ["strong", "weak", "weak#2", "weak#3"]
    assert plan.reference == ["weak", "weak#2", "weak#3"]
    specs = plan.specs(3)
    assert len(specs) == plan.set_size == 8  # four rotations, of the order and of its mirror
    assert len({spec.seed for spec in specs}) == 1
    assert {spec.set for spec in specs} == {"ab-s3"}
    assert len({spec.match_id for spec in specs}) == 8
    for seat in range(4):
        labels = [spec.seats[seat].label for spec in specs]
        assert sorted(labels) == sorted(2 * plan.labels)  # each bot twice in each seat
    assert plan.specs(4)[0].seed != specs[0].seed


def test_a_set_seats_every_pair_in_both_play_orders() -> None:
    # rotating alone would always put the baseline right after the challenger
    specs = _plan(["strong=greedy", "weak=greedy", "twin=greedy"]).specs(0)
    after = {"weak after strong": 0, "strong after weak": 0}
    for spec in specs:
        labels = spec.labels
        c, b = labels.index("strong"), labels.index("weak")
        if (c + 1) % 4 == b:
            after["weak after strong"] += 1
        if (b + 1) % 4 == c:
            after["strong after weak"] += 1
    assert after["weak after strong"] == after["strong after weak"] > 0


def test_two_players_need_no_mirror() -> None:
    assert _plan(players=2).set_size == 2


def test_stronger_challenger_is_accepted_on_the_sets_it_played(tmp_path: Path) -> None:
    result = run_tournament(_config(players=2), out=tmp_path / "ab", jobs=1, match_fn=play)
    assert result.sprt is not None and result.sprt["decision"] == "H1"
    assert result.sprt["llr"] >= result.sprt["upper"]
    lines = (tmp_path / "ab" / "records.jsonl").read_text().splitlines()
    assert len(lines) == 2 * result.sprt["sets"] == result.played
    replay = sprt_from_records([json.loads(x) for x in lines], "strong", "weak", elo0=0,
                               elo1=40, max_sets=400)
    assert replay.to_dict() == result.sprt


def test_equal_bots_are_not_accepted(tmp_path: Path) -> None:
    result = run_tournament(_config(["twin=greedy", "weak=greedy"], players=3),
                            out=tmp_path / "ab", jobs=1, match_fn=play)
    assert result.sprt is not None and result.sprt["decision"] == "H0"


def test_faults_of_the_played_sets_are_in_the_closing_lines(tmp_path: Path) -> None:
    result = run_tournament(_config(players=2), out=tmp_path / "ab", jobs=1,
                            match_fn=play_faulty_baseline)
    assert result.sprt is not None
    matches = 2 * result.sprt["sets"]
    assert [line.split(":")[0] for line in result.faults] == ["weak"]
    assert result.faults[0].startswith(f"weak: timeout in {matches}/{matches} matches")


def _ab(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(main, ["ab", *args])
    return outcome.exit_code, outcome.stdout, outcome.stderr


# greedy against passer at tables of two decides in 9 sets (18 matches of about 20 ms)
REAL = ("greedy", "passer", "--players", "2", "--elo1", "100", "--max-sets", "30",
        "--seed", "9")


def _records(path: Path) -> list[dict[str, Any]]:
    """The records of a file without what depends on the clock."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        records.append(without_timings(json.loads(line)))
    return records


def test_arena_ab_plays_what_format_sprt_plays(tmp_path: Path) -> None:
    code, out, err = _ab(*REAL, "--out", str(tmp_path / "ab"))
    assert code == 0, err
    yaml_config = (
        "name: ab\nseed: 9\nplayers: 2\nbots: [greedy, passer]\n"
        "format: {type: sprt, challenger: greedy, baseline: passer, elo1: 100, max_sets: 30}\n"
    )
    run = run_tournament(parse_config(yaml_config), out=tmp_path / "run", jobs=1)
    assert run.sprt is not None and run.sprt["decision"] == "H1"
    verdict = out.splitlines()[0]
    assert verdict.startswith("H1 accepted") and f"{run.sprt['sets']} sets" in verdict
    assert f"LLR {run.sprt['llr']:+.2f} [{run.sprt['lower']:+.2f}, " in verdict
    ab_records = _records(tmp_path / "ab" / "records.jsonl")
    assert len(ab_records) == 2 * run.sprt["sets"]
    assert ab_records == _records(tmp_path / "run" / "records.jsonl")
    copy = parse_config((tmp_path / "ab" / "config.yaml").read_text(), check_bots=False)
    assert copy.format.type == "sprt"


def test_jobs_change_neither_records_nor_verdict(tmp_path: Path) -> None:
    one = _ab(*REAL, "--out", str(tmp_path / "one"), "--quiet")
    two = _ab(*REAL, "--out", str(tmp_path / "two"), "--quiet", "-j", "2")
    assert one[0] == two[0] == 0, two[2]
    assert one[1] == two[1] and one[1].startswith("H1 accepted")
    assert _records(tmp_path / "one" / "records.jsonl") == _records(
        tmp_path / "two" / "records.jsonl")


def test_the_same_command_resumes_in_its_folder(tmp_path: Path) -> None:
    out = tmp_path / "ab"
    code, first, err = _ab(*REAL, "--out", str(out))
    assert code == 0, err
    whole = _records(out / "records.jsonl")
    code, again, err = _ab(*REAL, "--out", str(out))
    assert code == 0, err
    assert again.splitlines()[0] == first.splitlines()[0]
    # nothing played, in whatever time the resumed run's start took (not 0.0 s under load)
    assert re.search(rf"\b0 matches played in \d+\.\d s \(0\.0/s\), {len(whole)} resumed",
                     again), again
    # a run cut off after 5 matches (mid-set) ends with the same records
    path = out / "records.jsonl"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:5]))
    code, resumed, err = _ab(*REAL, "--out", str(out))
    assert code == 0, err
    assert "resuming: 5 of 60 matches already recorded" in err
    assert f"{len(whole) - 5} matches played" in resumed and "5 resumed" in resumed
    assert _records(path) == whole
    code, _, err = _ab(*REAL[:-1], "10", "--out", str(out))
    assert code == 1 and "holds a run of a different tournament (seed changed)" in err


def test_without_out_nothing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.chdir(tmp_path)
    code, out, err = _ab(*REAL, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["status"] == data["sprt"] and data["status"]["decision"] == "H1"
    assert data["out"] is None and data["records"] is None
    assert data["played"] == 2 * data["status"]["sets"]
    assert err == ""  # --json: no progress
    assert list(scratch.iterdir()) == [] and sorted(tmp_path.iterdir()) == [scratch]


@pytest.mark.parametrize(("args", "message"), [
    (["greedy", "no-such-bot"], "Error: BASELINE: unknown bot 'no-such-bot'"),
    (["greedy", "lowest", "--field", "random", "--field", "passer", "--field", "x=random"],
     "Error: --field: 3 bots besides the challenger and the baseline do not fit"),
    (["greedy", "lowest", "--alpha", "0.7"], "Error: --alpha: input should be less than 0.5"),
    (["greedy", "lowest", "--preset", "nope"], "Error: --preset: unknown rules preset 'nope'"),
    (["a=greedy", "a=lowest"], "Error: label 'a' is given to more than one seat"),
])
def test_bad_options_name_the_argument_in_one_line(args: list[str], message: str) -> None:
    code, out, err = _ab(*args)
    assert code == 2 and out == ""
    assert err.startswith(message) and len(err.splitlines()) == 1, err


def test_a_bot_that_never_moves_fails_the_run_with_arena_runs_closing_lines(
    tmp_path: Path,
) -> None:
    dead = "import sys; sys.stdin.readline(); print('{\"type\": \"ready\"}'); sys.exit(3)"
    code, out, err = _ab("greedy", f"dead=cmd:python3 -c {shlex.quote(dead)}", "--players",
                         "2", "--max-sets", "1", "--no-sandbox", "--out", str(tmp_path / "ab"))
    assert code == 1
    assert out.startswith("no decision after the maximum of 1 sets; 1 sets, LLR")
    assert "faults:\n  dead: crash" in out
    assert "error: dead never played a move" in err
