"""Head-to-head counts: for each pair of bots, who finished ahead when they shared a table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ._results import Arrays, Results


@dataclass(frozen=True)
class Pair:
    """One pair's record over the deals both played at the same table."""

    a: str
    b: str
    a_ahead: int  # deals where a finished ahead of b
    b_ahead: int
    shared: int  # deals at the same table (a_ahead + b_ahead)

    @property
    def a_rate(self) -> float:
        """Share of shared deals where ``a`` finished ahead (NaN if they never met)."""
        return self.a_ahead / self.shared if self.shared else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form."""
        return {
            "a": self.a,
            "b": self.b,
            "a_ahead": self.a_ahead,
            "b_ahead": self.b_ahead,
            "shared": self.shared,
            "a_rate": None if not self.shared else self.a_rate,
        }


@dataclass(frozen=True)
class HeadToHead:
    """Pairwise finishing counts; ``ahead[i][j]`` = deals where ``labels[i]`` beat ``labels[j]``."""

    labels: list[str]
    ahead: list[list[int]]

    def pair(self, a: str, b: str) -> Pair:
        """The record of ``a`` against ``b`` (KeyError for an unknown label)."""
        i = self.labels.index(a) if a in self.labels else _missing(a)
        j = self.labels.index(b) if b in self.labels else _missing(b)
        x, y = self.ahead[i][j], self.ahead[j][i]
        return Pair(a, b, x, y, x + y)

    def pairs(self) -> list[Pair]:
        """Every pair that shared a table at least once, in label order."""
        out = []
        for i, a in enumerate(self.labels):
            for j in range(i + 1, len(self.labels)):
                x, y = self.ahead[i][j], self.ahead[j][i]
                if x + y:
                    out.append(Pair(a, self.labels[j], x, y, x + y))
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form: the labels, the matrix and the pair list."""
        return {
            "labels": list(self.labels),
            "ahead": [list(row) for row in self.ahead],
            "pairs": [p.to_dict() for p in self.pairs()],
        }


def _missing(label: str) -> int:
    raise KeyError(f"no bot labelled {label!r} in these records")


def head_to_head_arrays(data: Arrays, keep: list[int] | None = None) -> HeadToHead:
    """Count, for every deal and every pair of places i < j, the bot at i ahead of the bot at j.

    Vectorised per table size: a million 4-seat deals are six bincounts.
    """
    bots = len(data.labels)
    matrix: npt.NDArray[np.int64] = np.zeros(bots * bots, dtype=np.int64)
    for size in np.unique(data.deal_size).tolist():
        starts = data.deal_start[data.deal_size == size]
        for i in range(size):
            upper = data.label[starts + i]
            for j in range(i + 1, size):
                lower = data.label[starts + j]
                matrix += np.bincount(upper * bots + lower, minlength=bots * bots)
    square = matrix.reshape(bots, bots)
    np.fill_diagonal(square, 0)  # two seats with one label: not a pairing
    order = keep if keep is not None else list(range(bots))
    return HeadToHead(
        labels=[data.labels[i] for i in order],
        ahead=[[int(square[i, j]) for j in order] for i in order],
    )


def head_to_head(records: Iterable[Mapping[str, Any]]) -> HeadToHead:
    """Head-to-head table of the given match records (dicts as read from a records file)."""
    results = Results()
    results.extend(records)
    data = results.arrays()
    labels = sorted(range(len(data.labels)), key=data.labels.__getitem__)
    return head_to_head_arrays(data, labels)
