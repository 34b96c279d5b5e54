"""A league's own leaderboard everywhere: ``arena ratings --json`` ranks its ``bots`` by the
league's strengths, ``standings.json`` and ``standings.csv`` are in the league's order with
the strengths, and the report carries the league's board beside the mean deal scores."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.ratings import RESAMPLES, finite, rate_files
from arena.report import write_report
from arena.report._saved import LEAGUE_COLUMNS
from tests.league_run import run_league

from .helpers import js_value


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The finished league's output folder (standings written by ``arena run``)."""
    return run_league(tmp_path_factory.mktemp("league"))


def _json_ratings(out: Path) -> dict[str, Any]:
    run = CliRunner().invoke(main, ["ratings", str(out), "--json"])
    assert run.exit_code == 0, run.output
    data: dict[str, Any] = json.loads(run.output)
    return data


def test_ratings_json_ranks_the_bots_as_the_league_does(league: Path) -> None:
    data = _json_ratings(league)
    assert data["ranking"] == "league"
    bots = data["bots"]
    assert bots == data["league"]["entrants"]
    strengths = [line["strength"] for line in bots]
    assert strengths == sorted(strengths, reverse=True)
    active = [line for line in bots if line["active"]]
    assert [line["rank"] for line in active] == list(range(1, len(active) + 1))
    marks = {line["label"]: (line["active"], line["anchor"]) for line in bots}
    assert marks["lowest"] == (False, False) and marks["highest"] == (False, False)
    assert marks["greedy"] == (True, True) and marks["highest@2"] == (True, False)
    assert all(line["rank"] is None for line in bots if not line["active"])
    # the mean deal scores stay, named as what they are, best first by deal score
    scores = data["deal_scores"]
    assert [line["score"] for line in scores] == sorted((line["score"] for line in scores),
                                                        reverse=True)
    assert {line["label"] for line in scores} == {line["label"] for line in bots}
    assert data["league"]["confident"] == 0.6 and data["league"]["top"] == 2
    assert data["league"]["round"] >= 1 and 0 <= data["league"]["p_top"] <= 1


def test_a_plain_run_keeps_its_deal_score_ranking(tmp_path: Path) -> None:
    from arena.ratings import simulate_records

    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in simulate_records(
        {"a": 0.5, "b": 0.0, "c": -0.2, "d": -0.5}, sets=3, deals=1, seed=1)))
    data = _json_ratings(path)
    assert data["ranking"] == "deal_score" and data["league"] is None
    assert data["bots"] == data["deal_scores"]


def test_the_saved_standings_are_the_leagues(league: Path) -> None:
    document = json.loads((league / "standings.json").read_text(encoding="utf-8"))
    assert document["ranking"] == "league"
    # arena ratings' numbers, with the same resamples and seed
    assert document["ratings"] == json.loads(json.dumps(finite(rate_files(league).to_dict())))
    assert document["ratings"]["resamples"] == RESAMPLES
    rows = document["standings"]
    entrants = document["ratings"]["league"]["entrants"]
    assert [row["label"] for row in rows] == [line["label"] for line in entrants]
    for row, line in zip(rows, entrants, strict=True):
        assert row["rank"] == line["rank"]
        assert row["strength"] == pytest.approx(line["strength"], abs=1e-6)
        assert (row["strength_low"], row["strength_high"]) == pytest.approx(
            (line["low"], line["high"]), abs=1e-6)
        assert (row["sets"], row["active"], row["anchor"]) == (
            line["sets"], line["active"], line["anchor"])
        assert row["match_rank"] is not None and row["matches"] > 0
    with (league / "standings.csv").open(encoding="utf-8", newline="") as file:
        reader = csv.DictReader(file)
        assert tuple(reader.fieldnames or ()) == LEAGUE_COLUMNS
        table = list(reader)
    assert [row["label"] for row in table] == [row["label"] for row in rows]
    assert next(row for row in table if row["label"] == "lowest")["rank"] == ""


def test_the_report_carries_the_leagues_board(league: Path) -> None:
    write_report(league, on_skip=lambda message: None)
    summary = js_value(league / "report" / "data" / "summary.js", "ARENA_SUMMARY")
    board = summary["leaderboard"]
    assert board == json.loads(json.dumps(finite(rate_files(league).to_dict())))
    assert board["ranking"] == "league" and board["bots"] == board["league"]["entrants"]


def _league_rows(output: str) -> list[str]:
    """The rows of the league table in a command's output (between its title and the line
    of the stopping rule)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "Plackett-Luce strengths" in line)
    rows = []
    for line in lines[start + 1:]:
        if "P(order of top" in line:
            break
        rows.append(" ".join(line.split()))
    return [row for row in rows if any(c.isdigit() for c in row) and "rank" not in row]


def test_the_end_of_the_run_prints_the_numbers_of_arena_ratings(league: Path) -> None:
    run = CliRunner().invoke(main, ["run", str(league.parent / "league.yaml"), "--out",
                                    str(league), "-j", "1"], env={"COLUMNS": "200"})
    assert run.exit_code == 0, run.output
    rated = CliRunner().invoke(main, ["ratings", str(league)], env={"COLUMNS": "200"})
    assert rated.exit_code == 0, rated.output
    printed = _league_rows(run.output)
    assert len(printed) == 6 and printed == _league_rows(rated.output)
