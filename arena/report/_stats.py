"""The report's per-bot figures: think times, moves and faults, and the course of the run."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from arena.ratings import Results
from arena.records import FaultLog, deal_times

__all__ = ["BotStats", "ThinkTimes", "bot_summary", "count_moves", "course"]

COURSE_POINTS = 60
"""The points of the run the course is drawn at."""


class ThinkTimes:
    """Median and 95th percentile of many think times in bounded memory.

    Times are counted in logarithmic bins 1% wide from 1 microsecond up, so a quantile is
    exact to within 1% whatever the number of moves (bin 0 holds everything below 1 us).
    """

    _RATIO = math.log(1.01)
    _BINS = 2200  # up to ~50 minutes

    def __init__(self) -> None:
        self.counts = np.zeros(self._BINS, dtype=np.int64)
        self.pending: list[float] = []

    def add(self, ms: float) -> None:
        self.pending.append(ms)
        if len(self.pending) >= 65536:
            self._flush()

    def extend(self, times: list[float]) -> None:
        """:meth:`add` each of ``times``."""
        self.pending.extend(times)
        if len(self.pending) >= 65536:
            self._flush()

    def _flush(self) -> None:
        if not self.pending:
            return
        values = np.asarray(self.pending, dtype=np.float64)
        self.pending = []
        bins = np.zeros(values.shape, dtype=np.int64)
        positive = values >= 0.001
        bins[positive] = 1 + np.floor(np.log(values[positive] / 0.001) / self._RATIO)
        np.clip(bins, 0, self._BINS - 1, out=bins)
        self.counts += np.bincount(bins, minlength=self._BINS)

    def quantile(self, q: float) -> float | None:
        self._flush()
        total = int(self.counts.sum())
        if not total:
            return None
        k = int(np.searchsorted(np.cumsum(self.counts), q * total, side="left"))
        if k == 0:
            return 0.0
        # the middle of the bin, on the log scale
        return float(0.001 * math.exp((k - 0.5) * self._RATIO))


class BotStats:
    """One bot's moves, think times, faults and versions over the report's records."""

    def __init__(self) -> None:
        self.times = ThinkTimes()
        self.moves = 0
        self.faults: dict[str, int] = {}
        self.identity: set[tuple[str, str, str]] = set()


def count_moves(record: Mapping[str, Any], stats: dict[str, BotStats]) -> None:
    seats = record["seats"]
    lines = []
    for seat in seats:
        line = stats.get(seat["label"])
        if line is None:
            line = stats[seat["label"]] = BotStats()
        line.identity.add((str(seat.get("bot")), str(seat.get("plugin")),
                           str(seat.get("version"))))
        lines.append(line)
    for deal in record.get("deals") or ():
        try:
            movers, times = deal_times(deal)
        except ValueError:  # its replay entry says what is wrong
            movers, times = [], []
        by_seat: list[list[float | None]] = [[] for _ in lines]
        for seat, ms in zip(movers, times, strict=True):
            by_seat[seat].append(ms)
        for line, seat_times in zip(lines, by_seat, strict=True):
            line.moves += len(seat_times)
            line.times.extend([ms for ms in seat_times if ms is not None])
        for fault in deal.get("faults") or ():
            faults = lines[fault["seat"]].faults
            faults[fault["kind"]] = faults.get(fault["kind"], 0) + 1


def bot_summary(label: str, stats: BotStats, faults: FaultLog) -> dict[str, Any]:
    log = faults.bots.get(label)
    line = log.line() if log is not None else None
    return {
        # A bot that never made a move of its own (it could not start, say): its place is
        # no measure of its play, and the report says so with its first fault.
        "never_played": log is not None and log.silent,
        "first_fault": line.removeprefix(f"{label}: ") if line else None,
        "moves": stats.moves,
        "faults": sum(stats.faults.values()),
        "fault_kinds": dict(sorted(stats.faults.items())),
        "time_losses": stats.faults.get("timeout", 0),
        "think_median_ms": stats.times.quantile(0.5),
        "think_p95_ms": stats.times.quantile(0.95),
        "versions": [{"bot": b, "plugin": p, "version": v} for b, p, v in sorted(stats.identity)],
    }


def course(results: Results) -> dict[str, Any]:
    """Each bot's mean deal score so far at evenly spaced points of the run (match-id order)."""
    data = results.arrays()
    deals = len(data.deal_size)
    bots = len(data.labels)
    if not deals:
        return {"deals": [], "series": {}}
    steps = range(1, 1 + COURSE_POINTS)
    points = sorted({max(1, round(deals * k / COURSE_POINTS)) for k in steps})
    starts = np.append(data.deal_start, len(data.label))
    totals = np.zeros(bots)
    counts = np.zeros(bots)
    series: list[list[float | None]] = [[] for _ in range(bots)]
    previous = 0
    for point in points:
        rows = slice(int(starts[previous]), int(starts[point]))
        totals += np.bincount(data.label[rows], weights=data.score[rows], minlength=bots)
        counts += np.bincount(data.label[rows], minlength=bots)
        previous = point
        for i in range(bots):
            series[i].append(round(float(totals[i] / counts[i]), 4) if counts[i] else None)
    return {"deals": points, "series": dict(zip(data.labels, series, strict=True))}
