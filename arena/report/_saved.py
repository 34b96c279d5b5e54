"""Saved results of a run: ``standings.json`` and ``standings.csv`` beside the records.

Both are computed from the records alone, like everything the report shows: the standings of
the tournament (score per match) side by side with the ratings (score per deal, its interval,
the OpenSkill rating), one line per bot, best first by the standings.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.ratings import Results, finite, rate_results, read_many
from arena.tournament import Standings

__all__ = ["CSV_COLUMNS", "STANDINGS_CSV", "STANDINGS_JSON", "standings_document", "standings_rows",
           "write_standings"]

STANDINGS_JSON = "standings.json"
STANDINGS_CSV = "standings.csv"
CSV_COLUMNS = (
    "rank", "label", "matches", "match_score", "wins", "win_rate", "points", "mean_points",
    "deal_rank", "deals", "deal_score", "deal_score_low", "deal_score_high", "mu", "sigma",
    "faults", "timeouts",
)


def standings_rows(standings: Sequence[Mapping[str, Any]],
                   ratings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One flat row per bot: its standings line (``score`` renamed ``match_score``) and its
    ratings line (``score`` renamed ``deal_score``), in the standings' order."""
    by_label = {line["label"]: line for line in ratings}
    rows = []
    for line in standings:
        rating = by_label.get(line["label"], {})
        rows.append({
            "rank": line["rank"], "label": line["label"], "matches": line["matches"],
            "match_score": line["score"], "wins": line["wins"], "win_rate": line["win_rate"],
            "points": line["points"], "mean_points": line["mean_points"],
            "deal_rank": rating.get("rank"), "deals": rating.get("deals", 0),
            "deal_score": rating.get("score"), "deal_score_low": rating.get("score_low"),
            "deal_score_high": rating.get("score_high"), "mu": rating.get("mu"),
            "sigma": rating.get("sigma"), "faults": rating.get("faults", 0),
            "timeouts": line.get("timeouts", 0),
        })
    return [{k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()}
            for row in rows]


def standings_document(
    folder: str | os.PathLike[str],
    records: str | os.PathLike[str] | None = None,
    *,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """What ``standings.json`` holds, from the records of ``folder`` (default
    ``folder/records.jsonl``): ``matches``, ``standings`` (one flat row per bot) and
    ``ratings``. The web server's ``/api/standings`` answers the same document."""
    folder = Path(folder)
    path = Path(records) if records is not None else folder / "records.jsonl"
    results = Results()
    standings = Standings([])
    seen: set[str] = set()
    for record in read_many([path], on_skip=lambda message: None):
        if str(record.get("match_id")) in seen:
            continue
        seen.add(str(record.get("match_id")))
        results.add(record)
        standings.add(record)
    board = rate_results(results, resamples=resamples, seed=seed)
    table = standings.to_list()
    ratings = finite(board.to_dict())
    rows = standings_rows(table, ratings["bots"])
    return {"matches": len(seen), "standings": rows, "ratings": ratings}


def write_standings(
    folder: str | os.PathLike[str],
    records: str | os.PathLike[str] | None = None,
    *,
    resamples: int = 1000,
    seed: int = 0,
) -> tuple[Path, Path]:
    """Write ``standings.json`` and ``standings.csv`` in ``folder`` from its records
    (:func:`standings_document`).

    Each file is written beside its final name and renamed over it, so a reader never sees
    half a file. Returns the two paths.
    """
    folder = Path(folder)
    data = standings_document(folder, records, resamples=resamples, seed=seed)
    rows = data["standings"]
    json_path = folder / STANDINGS_JSON
    _replace(json_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    csv_path = folder / STANDINGS_CSV
    _replace(csv_path, out.getvalue())
    return json_path, csv_path


def _replace(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.new")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
