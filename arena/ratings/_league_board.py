"""A league's leaderboard: Plackett-Luce strengths of its field, as the league ranks them.

A league (docs/league.md) ranks by the strengths of :func:`fit_strengths`, centred on its
anchors, over every entrant of its field, retired ones too. Its records carry what that
needs beside the deals: each match record of a league holds the field as it stood when the
match's round was chosen (``league.entrants``: label, active, anchor; docs/records.md), so
the leaderboard is a function of the records alone, and ``arena ratings`` on a league's
records gives the league's own standings. :class:`StrengthBoard` is that leaderboard; the
league's live standings (``LeagueStatus``) are made from the same :func:`strength_board`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ._defaults import CONFIDENCE, RESAMPLES, SEED
from ._results import LeagueEntrant, Results
from ._stages import StageCounts, stage_counts
from ._strength import StrengthFit, fit_strengths


@dataclass(frozen=True)
class StrengthLine:
    """One entrant's line: its strength, interval, sets and status."""

    label: str
    rank: int | None  # 1 = best among the active entrants; None for a retired one
    strength: float  # Plackett-Luce log-strength, centred on the anchors
    low: float  # interval of the strength, from the posterior's draws
    high: float
    sets: int  # duplicate sets played in
    deals: int
    active: bool
    anchor: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form."""
        return asdict(self)


@dataclass(frozen=True)
class StrengthBoard:
    """A league's leaderboard: every entrant, best first by strength."""

    lines: list[StrengthLine]
    confidence: float
    resamples: int
    top: int  # the stopping rule's K (3 without one)
    p_top: float  # P(order of the top ``top`` active entrants), over the posterior's draws
    confident: float | None = None  # the stopping rule's level (None: no such rule)
    round: int | None = None  # the latest round the records hold

    def line(self, label: str) -> StrengthLine:
        """The line of one entrant (KeyError if absent)."""
        for line in self.lines:
            if line.label == label:
                return line
        raise KeyError(f"no entrant labelled {label!r} in this league")

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form."""
        return {"confidence": self.confidence, "resamples": self.resamples, "top": self.top,
                "p_top": self.p_top, "confident": self.confident, "round": self.round,
                "entrants": [line.to_dict() for line in self.lines]}

    def stop_line(self) -> str:
        """The stopping rule's state in one line: ``P(order of top 3) 0.91 (stops at
        0.95)``."""
        text = f"P(order of top {self.top}) {self.p_top:.2f}"
        return text + (f" (stops at {self.confident:g})" if self.confident is not None else "")


def league_counts(results: Results, labels: Sequence[str]) -> StageCounts:
    """Every deal of ``results`` reduced for the fit, bots numbered as in ``labels`` (a
    ``ValueError`` names a seated label that is not among them)."""
    arrays = results.arrays()
    index = {label: i for i, label in enumerate(labels)}
    try:
        remap = np.asarray([index[label] for label in arrays.labels], dtype=np.int64)
    except KeyError as exc:
        raise ValueError(f"a record seats {exc.args[0]!r}, no entrant of this league") from None
    label = remap[arrays.label] if len(arrays.label) else arrays.label
    return stage_counts(len(labels), label, arrays.deal_start, arrays.deal_size,
                        arrays.deal_cluster)


def strength_board(fit: StrengthFit, entrants: Sequence[LeagueEntrant], *, confidence: float,
                   resamples: int, top: int) -> StrengthBoard:
    """The leaderboard of ``fit`` (bots numbered as ``entrants``): best first by strength,
    ranks among the active entrants, intervals at ``confidence``."""
    low, high = fit.interval(confidence)
    active = [i for i, e in enumerate(entrants) if e.active]
    rank = {entrant: r for r, entrant in enumerate(fit.order(active), start=1)}
    lines = [
        StrengthLine(label=e.label, rank=rank.get(i), strength=float(fit.theta[i]),
                     low=float(low[i]), high=float(high[i]), sets=int(fit.sets[i]),
                     deals=int(fit.deals[i]), active=e.active, anchor=e.anchor)
        for i, e in enumerate(entrants)
    ]
    order = fit.order()
    return StrengthBoard(lines=[lines[i] for i in order], confidence=confidence,
                         resamples=resamples, top=top,
                         p_top=fit.p_top_ordered(top, active) if active else 0.0)


def rate_league(results: Results, *, confidence: float = CONFIDENCE,
                resamples: int = RESAMPLES, seed: int = SEED) -> StrengthBoard | None:
    """The league's leaderboard of ``results``, or None when no record carries a league's
    field. Labels seated but not in the latest field (records of another tournament read
    with it) join as entrants outside the matchmaking."""
    field = results.league
    if field is None:
        return None
    entrants = list(field.entrants)
    known = {e.label for e in entrants}
    entrants += [LeagueEntrant(label, False, False) for label in results.arrays().labels
                 if label not in known]
    data = league_counts(results, [e.label for e in entrants])
    anchors = [i for i, e in enumerate(entrants) if e.anchor]
    fit = fit_strengths(data, resamples=resamples, seed=seed, anchors=anchors)
    board = strength_board(fit, entrants, confidence=confidence, resamples=resamples,
                           top=field.top)
    return dataclasses.replace(board, confident=field.confident, round=field.round)
