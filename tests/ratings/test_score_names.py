"""The standings' score (per match) and the ratings' score (per deal) are named apart."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.cli._run import standings_table
from arena.ratings import simulate_records


def _headers(table: object) -> list[str]:
    return [str(column.header) for column in table.columns]  # type: ignore[attr-defined]


def test_standings_say_match_score_and_ratings_say_deal_score(tmp_path: Path) -> None:
    rows = [{"rank": 1, "label": "a", "matches": 2, "score": 0.5, "wins": 1, "win_rate": 0.5,
             "mean_points": 1.0}]
    standings = _headers(standings_table(rows))
    assert "match score" in standings and "score" not in standings

    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in
                            simulate_records({"a": 0.5, "b": 0.0, "c": -0.2, "d": -0.5}, sets=3,
                                                             deals=1, seed=1)))
    result = CliRunner().invoke(main, ["ratings", str(path), "--resamples", "20"])
    assert result.exit_code == 0
    header = next(line for line in result.stdout.splitlines() if " bot " in line)
    assert "deal score" in header and "match score" not in header
