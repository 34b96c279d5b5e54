"""Tournament standings computed from match records alone.

A match ranks its m players (``record["ranking"]``). A player's **score**
for the match is the share of its table's other players it finished ahead
of: 1 for first, 0 for last, (m-1-place)/(m-1) in between, so tables of
different sizes (Swiss short tables) count alike. Standings order bots by:

1. mean score per match (byes are not matches, so they neither help nor hurt);
2. share of matches won (first place);
3. mean game points per match (the rules' ``points``);
4. label, alphabetically, so the order is total and reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from arena.records import FaultLog

_UNIT = 420  # divisible by 1..7: a table of m seats scores in whole multiples of 1/(m-1)


@dataclass
class Standing:
    """One bot's line in the standings."""

    label: str
    matches: int = 0
    units: int = 0
    """Sum over matches of the share of table-mates beaten, in 1/420ths (exact for tables
    of 2 to 8, so the sum does not depend on the order records arrive in)."""
    wins: int = 0
    points: int = 0
    """Sum of game points."""
    byes: int = 0
    faults: int = 0
    """Faults of the bot (any kind) over its matches."""
    timeouts: int = 0
    """Its faults of kind ``timeout``: time losses (also counted in :attr:`faults`)."""

    @property
    def score(self) -> float:
        """Sum over matches of the share of table-mates beaten."""
        return self.units / _UNIT

    @property
    def mean_score(self) -> float:
        """Score per match (0 before any match)."""
        return self.units / _UNIT / self.matches if self.matches else 0.0

    @property
    def win_rate(self) -> float:
        """Share of matches won."""
        return self.wins / self.matches if self.matches else 0.0

    @property
    def mean_points(self) -> float:
        """Game points per match."""
        return self.points / self.matches if self.matches else 0.0

    def sort_key(self) -> tuple[Fraction, Fraction, Fraction, str]:
        """The documented order: mean score, win rate, mean points (all descending), label."""
        matches = max(self.matches, 1)
        return (
            -Fraction(self.units, matches),
            -Fraction(self.wins, matches),
            -Fraction(self.points, matches),
            self.label,
        )


class Standings:
    """Running standings, updated one record at a time (memory grows with bots, not matches)."""

    def __init__(self, labels: Sequence[str]) -> None:
        self._rows = {label: Standing(label) for label in labels}
        self.faults = FaultLog(labels)
        """Each bot's faults and moves, for the run's closing fault summary."""

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one match record (records of another ``type``, such as errors, count nothing)."""
        if record.get("type", "match") != "match":
            return
        self.faults.add(record)
        seats = record["seats"]
        ranking = record["ranking"]
        scores = record.get("scores") or [0] * len(seats)
        m = len(seats)
        faulted: dict[Any, list[int]] = {}  # seat: [faults, timeouts], read in one pass
        for deal in record.get("deals") or []:
            for fault in deal.get("faults") or []:
                counts = faulted.setdefault(fault["seat"], [0, 0])
                counts[0] += 1
                counts[1] += fault.get("kind") == "timeout"
        for place, seat in enumerate(ranking):
            label = seats[seat]["label"]
            row = self._rows.get(label)
            if row is None:
                row = self._rows[label] = Standing(label)
            row.matches += 1
            row.units += (m - 1 - place) * _UNIT // (m - 1) if m > 1 else 0
            row.wins += place == 0
            row.points += int(scores[seat])
            if faulted:
                faults, timeouts = faulted.get(seat, (0, 0))
                row.faults += faults
                row.timeouts += timeouts

    def add_bye(self, label: str) -> None:
        """Count a Swiss bye (no match, no score)."""
        self._rows[label].byes += 1

    def extend(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Count many records."""
        for record in records:
            self.add(record)

    def rows(self) -> list[Standing]:
        """Every bot, best first."""
        return sorted(self._rows.values(), key=Standing.sort_key)

    def order(self) -> list[str]:
        """Labels, best first."""
        return [row.label for row in self.rows()]

    def to_list(self) -> list[dict[str, Any]]:
        """The standings as plain data (rank from 1), for JSON output and the Python API;
        ``faulted_matches``: the matches in which the bot faulted, ``flagged``: faults in
        most of its matches (``arena.records.BotFaults.flagged``)."""
        bots = self.faults.bots
        return [
            {
                "rank": rank,
                "label": row.label,
                "matches": row.matches,
                "score": round(row.mean_score, 6),
                "wins": row.wins,
                "win_rate": round(row.win_rate, 6),
                "points": row.points,
                "mean_points": round(row.mean_points, 6),
                "byes": row.byes,
                "faults": row.faults,
                "timeouts": row.timeouts,
                "faulted_matches": bots[row.label].faulted if row.label in bots else 0,
                "flagged": row.label in bots and bots[row.label].flagged,
            }
            for rank, row in enumerate(self.rows(), start=1)
        ]
