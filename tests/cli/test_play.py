"""``arena play``: a person plays a whole match by typing moves on stdin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from arena.cli import main
from arena.game import Match, Rules
from arena.records import deal_moves
from tests.recordtools import record_faults


def _play(tmp_path: Path, typed: str, *args: str) -> tuple[Any, list[dict[str, Any]]]:
    records = tmp_path / "play.jsonl"
    result = CliRunner().invoke(
        main, ["play", "--preset", "runs", "--seed", "4", "--records", str(records), *args,
               "--bots", "greedy", "lowest", "random"], input=typed)
    lines = records.read_text().splitlines() if records.exists() else []
    return result, [json.loads(line) for line in lines]


def _replay(record: dict[str, Any]) -> Match:
    """The match the record describes, replayed through the rules engine."""
    match = Match(Rules.from_dict(record["rules"]), len(record["seats"]), record["seed"])
    for deal in record["deals"]:
        for entry in deal["exchanges"]:
            if entry["kind"] == "return":
                match.give(entry["cards"])
        for move in deal["moves"]:
            match.play(move)
    return match


def test_a_person_plays_a_whole_match_by_numbers_and_it_is_recorded(tmp_path: Path) -> None:
    # "1" is always a legal move (the first listed); "1 2" answers an exchange of two and
    # is refused as a move, so the person is asked again.
    result, records = _play(tmp_path, "1\n1 2\n" * 400)
    assert result.exit_code == 0, result.output
    (record,) = records
    assert len(record["deals"]) == 5
    assert record["seats"][0]["host"] == "human" and record["seats"][0]["label"] == "you"
    assert not record_faults(record)
    mine = [m for d in record["deals"] for m in deal_moves(d) if m.seat == 0]
    assert len(mine) > 20
    gave = [e for d in record["deals"] for e in d["exchanges"]
            if e["kind"] == "return" and e["from"] == 0]
    assert gave and "give back" in result.output  # the person chose what to give back
    replayed = _replay(record)
    assert replayed.finished and list(replayed.scores) == record["scores"]
    out = result.output
    assert "your hand: " in out and "pile: empty (you lead)" in out and "1) " in out
    assert "not a move: '1 2'" in out or "does not hold" in out
    assert "final standings:" in out and f"recorded in {tmp_path / 'play.jsonl'}" in out


def test_illegal_and_unreadable_moves_are_explained_and_asked_again(tmp_path: Path) -> None:
    # Seed 4 deals seat 0 no 2 of spades: "2S" is a card it does not hold.
    result, records = _play(tmp_path, "2S\n99\nseven of cups\n" + "1\n1 2\n" * 400,
                            "--rounds", "1")
    assert result.exit_code == 0, result.output
    assert "2S: seat 0 does not hold 2S" in result.output
    assert "no move 99: choose 1 to" in result.output
    assert "not a move: 'seven of cups'" in result.output
    assert not record_faults(records[0])


def test_when_the_input_ends_the_match_still_ends_and_is_recorded(tmp_path: Path) -> None:
    result, records = _play(tmp_path, "1\n", "--rounds", "2")
    assert result.exit_code == 0, result.output
    (record,) = records
    assert len(record["deals"]) == 2
    faults = record_faults(record)
    assert faults and all(f["seat"] == 0 and f["kind"] == "crash" for f in faults)
    assert "input ended" in faults[0]["detail"]


def test_bad_options_are_one_line_errors(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--seat", "5", "greedy"])
    assert result.exit_code == 2 and "--seat 5: a table of 2 has seats 0 to 1" in result.output
    result = CliRunner().invoke(main, ["play", "no-such-bot"])
    assert result.exit_code == 2 and "no-such-bot" in result.output
    assert "Traceback" not in result.output
