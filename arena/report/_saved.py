"""Saved results of a run: ``standings.json`` and ``standings.csv`` beside the records.

Both are computed from the records alone, like everything the report shows: the standings of
the tournament (score per match) side by side with the ratings (score per deal, its interval,
the OpenSkill rating), one line per bot, best first by the standings. A league's are best
first by the league's own ranking, its Plackett-Luce strengths (``ranking: "league"``), with
each entrant's strength, interval, sets and status beside the rest.

:func:`standings_document` is the one computation of these numbers (with the ratings'
``CONFIDENCE``, ``RESAMPLES`` and ``SEED``) and :func:`standings_text` their one spelling:
``/api/standings`` of a served run answers the bytes ``standings.json`` holds.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.ratings import RESAMPLES, SEED, Results, finite, rate_results, read_many
from arena.records import READ_BYTES, TailReader, parse_record
from arena.tournament import Standings

__all__ = ["CSV_COLUMNS", "LEAGUE_COLUMNS", "STANDINGS_CSV", "STANDINGS_JSON",
           "GrowingStandings", "StandingsTally", "standings_document", "standings_rows",
           "standings_text", "write_standings"]

STANDINGS_JSON = "standings.json"
STANDINGS_CSV = "standings.csv"
CSV_COLUMNS = (
    "rank", "label", "matches", "match_score", "wins", "win_rate", "points", "mean_points",
    "deal_rank", "deals", "deal_score", "deal_score_low", "deal_score_high", "mu", "sigma",
    "faults", "timeouts", "faulted_matches", "flagged",
)
LEAGUE_COLUMNS = (
    "rank", "label", "strength", "strength_low", "strength_high", "sets", "active", "anchor",
    "match_rank", *CSV_COLUMNS[2:],
)
"""A league's columns: ``rank`` is its rank among the active entrants by strength (empty for
a retired one), ``match_rank`` the tournament standings' rank by match score."""


def standings_rows(standings: Sequence[Mapping[str, Any]],
                   ratings: Sequence[Mapping[str, Any]],
                   league: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """One flat row per bot: its standings line (``score`` renamed ``match_score``) and its
    ratings line (``score`` renamed ``deal_score``), in the standings' order; given a
    ``league``'s entrants (``StrengthLine`` dicts, best first), in theirs, with their
    strengths (:data:`LEAGUE_COLUMNS`)."""
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
            "faulted_matches": line.get("faulted_matches", 0),
            "flagged": line.get("flagged", False),
        })
    if league is not None:
        rows = _league_rows(rows, league)
    return [{k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()}
            for row in rows]


def _league_rows(rows: Sequence[Mapping[str, Any]],
                 league: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The standings' rows in the league's order, each with its entrant's line; an entrant
    of the field with no match yet has a row of zeros."""
    by_label = {row["label"]: row for row in rows}
    out = []
    for entrant in league:
        row = by_label.get(entrant["label"]) or {
            "rank": None, "label": entrant["label"], "matches": 0, "match_score": None,
            "wins": 0, "win_rate": None, "points": 0, "mean_points": None, "deal_rank": None,
            "deals": 0, "deal_score": None, "deal_score_low": None, "deal_score_high": None,
            "mu": None, "sigma": None, "faults": 0, "timeouts": 0, "faulted_matches": 0,
            "flagged": False}
        joined = {**row, "match_rank": row["rank"], "rank": entrant["rank"],
                  "strength": entrant["strength"], "strength_low": entrant["low"],
                  "strength_high": entrant["high"], "sets": entrant["sets"],
                  "active": entrant["active"], "anchor": entrant["anchor"]}
        out.append({key: joined[key] for key in LEAGUE_COLUMNS})
    return out


def standings_document(
    folder: str | os.PathLike[str],
    records: str | os.PathLike[str] | None = None,
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> dict[str, Any]:
    """What ``standings.json`` holds, from the records of ``folder`` (default
    ``folder/records.jsonl``): ``matches``, ``ranking`` (``"league"`` or ``"match_score"``:
    the order of ``standings``), ``standings`` (one flat row per bot) and ``ratings``
    (``Leaderboard.to_dict()``). The web server's ``/api/standings`` answers the same
    document (:class:`GrowingStandings`, which reads each record once)."""
    folder = Path(folder)
    path = Path(records) if records is not None else folder / "records.jsonl"
    tally = StandingsTally()
    for record in read_many([path], on_skip=lambda message: None):
        tally.add(record)
    return tally.document(resamples, seed)


class StandingsTally:
    """The records counted so far (each match once): the standings and the ratings' results,
    and :meth:`document`, the standings document of them. :func:`standings_document` counts a
    records file's; ``arena run`` counts each record as its run reads it back on resuming or
    writes it (``run_tournament(tally=...)``), so that the run's end need not read its records
    back."""

    def __init__(self) -> None:
        self.results = Results()
        self.standings = Standings([])
        self.seen: set[str] = set()

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one record (of a match already counted: nothing)."""
        if str(record.get("match_id")) in self.seen:
            return
        self.seen.add(str(record.get("match_id")))
        self.results.add(record)
        self.standings.add(record)

    def document(self, resamples: int = RESAMPLES, seed: int = SEED) -> dict[str, Any]:
        """The standings document (:func:`standings_document`) of the records counted."""
        board = rate_results(self.results, resamples=resamples, seed=seed)
        table = self.standings.to_list()
        ratings = finite(board.to_dict())
        league = ratings["league"]
        rows = standings_rows(table, ratings["deal_scores"],
                              league["entrants"] if league is not None else None)
        return {"matches": len(self.seen),
                "ranking": "league" if league is not None else "match_score",
                "standings": rows, "ratings": ratings}


class GrowingStandings:
    """:func:`standings_document` of a run's records file as it grows (a served run's): each
    :meth:`document` reads only the lines added since the last (whole lines: one being
    written waits), each record once, and fits the ratings again; a file replaced or cut is
    read again from its start. The document is the one :func:`standings_document` gives of
    the same lines."""

    def __init__(self, path: str | os.PathLike[str], *, resamples: int = RESAMPLES,
                 seed: int = SEED) -> None:
        self.tail = TailReader(path)
        self.resamples = resamples
        self.seed = seed
        self._tally = StandingsTally()

    def document(self) -> dict[str, Any]:
        """The standings document of the records so far (of none before the first)."""
        if self.tail.restarted():
            self._tally = StandingsTally()
        # READ_BYTES at a time: the lines of a million matches read at once were 7.5 GB,
        # and as much again split
        while lines := self.tail.lines(READ_BYTES):
            for line in lines:
                if not line.strip():
                    continue
                record = parse_record(line)
                if not isinstance(record, str):
                    self._tally.add(record)
        return self._tally.document(self.resamples, self.seed)


def standings_text(document: Mapping[str, Any]) -> str:
    """``standings.json``'s text of a :func:`standings_document`."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_standings(
    folder: str | os.PathLike[str],
    records: str | os.PathLike[str] | None = None,
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    tally: StandingsTally | None = None,
) -> tuple[Path, Path]:
    """Write ``standings.json`` and ``standings.csv`` in ``folder`` from its records
    (:func:`standings_document`), or from the ``tally`` of them when given (its records are
    not read again).

    Each file is written beside its final name and renamed over it, so a reader never sees
    half a file. Returns the two paths.
    """
    folder = Path(folder)
    data = (tally.document(resamples, seed) if tally is not None
            else standings_document(folder, records, resamples=resamples, seed=seed))
    rows = data["standings"]
    json_path = folder / STANDINGS_JSON
    _replace(json_path, standings_text(data))
    out = io.StringIO()
    columns = LEAGUE_COLUMNS if data["ranking"] == "league" else CSV_COLUMNS
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    csv_path = folder / STANDINGS_CSV
    _replace(csv_path, out.getvalue())
    return json_path, csv_path


def _replace(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.new")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
