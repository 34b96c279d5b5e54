"""Helpers shared by the tournament tests: records without their timings, a Ctrl-C stand-in,
random results for Swiss rounds."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tests.recordtools import without_timings


def load_records(path: Path) -> list[dict[str, Any]]:
    """Every record of a records.jsonl, in file order, timings removed."""
    with path.open(encoding="utf-8") as file:
        return [without_timings(json.loads(line)) for line in file]


class Interrupt:
    """A match function that plays ``limit`` matches with ``play``, then acts like Ctrl-C
    (``play`` takes a match's spec as a dict or a ``MatchSpec``, as the caller hands it)."""

    def __init__(self, limit: int, play: Callable[[Any], dict[str, Any]]) -> None:
        self.limit = limit
        self.play = play
        self.calls = 0

    def __call__(self, spec: Any) -> dict[str, Any]:
        self.calls += 1
        if self.calls > self.limit:
            raise KeyboardInterrupt
        return self.play(spec)


def record_random_results(
    tables: Sequence[Sequence[int]],
    rng: random.Random,
    score: list[int],
    seats: list[list[int]],
    met: list[set[int]],
) -> None:
    """Play each Swiss table with a random finishing order: add points, seats and meetings."""
    for table in tables:
        ranking = list(table)
        rng.shuffle(ranking)
        for place, bot in enumerate(ranking):
            score[bot] += len(table) - 1 - place
        for s, bot in enumerate(table):
            seats[bot][s] += 1
            met[bot].update(b for b in table if b != bot)


def fixed_tables(schedule: Any) -> list[Any]:
    """The tables of a round robin or gauntlet schedule (its one batch), in seat order."""
    from arena.tournament._formats._gauntlet import Gauntlet
    from arena.tournament._formats._round_robin import RoundRobin

    fmt = schedule.format
    assert isinstance(fmt, RoundRobin | Gauntlet)
    return list(fmt.tables(schedule))
