"""A league's strengths over its rounds: what an entrant's page plots.

After each round (fewer than :data:`MAX_POINTS` of them, evenly spread, the latest always
among them) the league's leaderboard is fitted again on the records of the rounds up to it,
by :func:`arena.ratings.rate_league`, the fit ``arena ratings`` and ``/api/standings`` rank
a league by: the last point is the leaderboard the run's page shows. An entrant's rounds
are counted from its first, so a newcomer to a long league is followed as closely as the
first entrants; a round's fit is shared by every page and computed once while the records
up to it stay.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

from arena.ratings import RatingsError, Results, rate_league

__all__ = ["MAX_POINTS", "RatingHistory", "chosen"]

MAX_POINTS = 40
"""The most rounds a history fits (each one a fit of every deal up to it)."""


def chosen(count: int, most: int = MAX_POINTS) -> list[int]:
    """Which of ``count`` rounds (by index) a history fits: every ``step``-th, the step the
    least power of two that keeps them to ``most`` (so a point, once fitted, stays among
    them until the step doubles), and the last."""
    step = 1
    while (count + step - 1) // step >= most:
        step *= 2
    return sorted({*range(0, count, step), count - 1}) if count else []


Point = list[float] | None
KEPT_FITS = 8 * MAX_POINTS
"""The rounds' fits kept (the least recently used go first): the points of a few entrants'
pages, each from its own first round."""


class RatingHistory:
    """Each entrant's strength and interval after each chosen round of a league's records
    (:meth:`get`); a round's fit is kept while the records up to it stay as they were, so
    a growing league fits again only its latest round and the points it newly chose."""

    def __init__(self) -> None:
        self._fits: dict[int, tuple[int, dict[str, Point]]] = {}  # round: (records, lines)
        self._lock = threading.Lock()

    def get(self, records: Iterable[Mapping[str, Any]], since: int | None = None
            ) -> dict[str, Any]:
        """``{"rounds": [r, ...], "entrants": {label: [[strength, low, high] or None, ...]}}``
        (None: not yet played then), over the rounds from ``since`` on (an entrant's
        first: a newcomer's points are as dense as the league's first entrants'); blocking,
        so called in a thread."""
        by_round: dict[int, list[Mapping[str, Any]]] = {}
        for record in records:
            number = record.get("round")
            if isinstance(number, int) and not isinstance(number, bool):
                by_round.setdefault(number, []).append(record)
        rounds = sorted(by_round)
        mine = [number for number in rounds if since is None or number >= since]
        keep = {mine[i] for i in chosen(len(mine))}
        results, count, points = Results(), 0, []
        with self._lock:
            for number in rounds:
                results.extend(by_round[number])
                count += len(by_round[number])
                if number in keep:
                    fit = self._fits.pop(number, None)  # kept again as the latest used
                    if fit is None or fit[0] != count:
                        fit = (count, _lines(results))
                    self._fits[number] = fit
                    points.append((number, fit[1]))
            for number in list(self._fits)[: max(0, len(self._fits) - KEPT_FITS)]:
                del self._fits[number]  # the least recently used
        labels = {label: None for _, lines in points for label in lines}
        return {"rounds": [number for number, _ in points],
                "entrants": {label: [lines.get(label) for _, lines in points]
                             for label in labels}}


def _lines(results: Results) -> dict[str, Point]:
    """Each entrant's ``[strength, low, high]`` in the league's leaderboard of ``results``
    (None for one without a deal); {} where they rate as no league."""
    try:
        board = rate_league(results)
    except (RatingsError, ValueError):
        return {}
    if board is None:
        return {}
    return {line.label: [round(line.strength, 4), round(line.low, 4), round(line.high, 4)]
            if line.deals else None for line in board.lines}
