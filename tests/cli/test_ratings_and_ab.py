"""The ``arena ratings`` and ``arena ab`` commands."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.ratings import simulate_records
from tests.ratings.helpers import record


def _planted_file(path: Path) -> Path:
    strengths = {"ace": 0.8, "king": 0.3, "queen": -0.2, "jack": -0.8}
    with path.open("w") as handle:
        for r in simulate_records(strengths, sets=40, deals=2, seed=2):
            handle.write(json.dumps(r) + "\n")
    return path


def test_ratings_prints_leaderboard_and_head_to_head(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["ratings", str(_planted_file(tmp_path / "r.jsonl"))])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "160 matches, 320 deals" in lines[0] and "40 duplicate sets" in lines[0]
    body = [line.split() for line in lines[1:] if line.strip()[:1].isdigit()]
    assert [row[1] for row in body] == ["ace", "king", "queen", "jack"]
    assert "head to head" in result.output


def test_ratings_json_is_plain_data(tmp_path: Path) -> None:
    path = _planted_file(tmp_path / "r.jsonl")
    result = CliRunner().invoke(main, ["ratings", str(path), "--json", "--resamples", "200"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [b["label"] for b in data["bots"]] == ["ace", "king", "queen", "jack"]
    assert data["resamples"] == 200
    assert {p["a"] for p in data["head_to_head"]["pairs"]} <= {"ace", "king", "queen"}


def test_ratings_bad_record_is_one_warning_and_nothing_left_is_one_line_error(
        tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    bad = record("m1", ["a", "b"], [[0, 0]])
    path.write_text(json.dumps(bad) + "\n")
    result = CliRunner().invoke(main, ["ratings", str(path)])
    assert result.exit_code == 2
    warning, error = result.output.splitlines()
    assert warning == (f"warning: {path}:1: not a record (deal 0: 'finish_order' must hold "
                       "each of the 2 seats once); skipped")
    assert error.startswith("Error: no finished deals")


def test_ratings_missing_file_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["ratings", str(tmp_path / "none.jsonl")])
    assert result.exit_code == 2 and "no such records file" in result.output


def test_ab_runs_real_matches_until_a_decision(tmp_path: Path) -> None:
    out = tmp_path / "ab"
    args = ["ab", "greedy", "passer", "--players", "2", "--elo1", "100", "--max-sets", "30",
            "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("H1 accepted")
    assert "at most 60 matches on " in result.stderr  # arena run's progress
    assert "SPRT  set 2  LLR" in result.stderr
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert records and all(r["set"].startswith("ab-s") for r in records)
    rated = CliRunner().invoke(main, ["ratings", str(out), "--json"])
    assert json.loads(rated.output)["bots"][0]["label"] == "greedy"


def test_ab_unknown_bot_is_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["ab", "greedy", "no-such-bot"])
    assert result.exit_code == 2 and "BASELINE: unknown bot 'no-such-bot'" in result.stderr


def test_many_bots_get_a_pair_list_instead_of_a_matrix(tmp_path: Path) -> None:
    strengths = {f"b{i:02d}": i / 10 for i in range(13)}
    path = tmp_path / "r.jsonl"
    with path.open("w") as handle:
        for r in simulate_records(strengths, sets=30, seed=3):
            handle.write(json.dumps(r) + "\n")
    result = CliRunner().invoke(main, ["ratings", str(path), "--resamples", "100"])
    assert result.exit_code == 0, result.output
    assert "head to head (pairs that shared a table)" in result.output
    assert "opponent" in result.output


def test_ab_from_records_replays_without_playing(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with path.open("w") as handle:
        for r in simulate_records({"new": 0.8, "old": 0.0, "x": 0.0}, sets=150, players=3,
                                  deals=2, seed=6):
            handle.write(json.dumps(r) + "\n")
    result = CliRunner().invoke(main, ["ab", "new", "old", "--from", str(path), "--elo1", "40"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("H1 accepted")
    field = CliRunner().invoke(main, ["ab", "x", "*", "--from", str(path), "--json"])
    assert json.loads(field.output)["status"]["decision"] == "H0"
    missing = CliRunner().invoke(main, ["ab", "new", "nobody", "--from", str(path)])
    assert missing.exit_code == 2 and "where 'new' met 'nobody'" in missing.output
