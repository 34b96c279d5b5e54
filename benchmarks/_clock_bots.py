"""The bots of benchmarks/clock_fairness.py: each thinks half its move time, in one way.

Loaded by the process host in its child processes as ``_clock_bots:Class``
(the benchmark's folder is on the import path they inherit).
"""

from __future__ import annotations

import time

from arena import Bot
from arena.game import Move, View


class _Legal(Bot):
    stochastic = True

    def play(self, view: View) -> Move | str:
        return self.rng.choice(view.legal_moves())


class Computer(_Legal):
    """Thinks by computing: busy-waits until it has run ``think_ms`` of CPU time."""

    def __init__(self, think_ms: float = 25) -> None:
        self.think = think_ms / 1000

    def play(self, view: View) -> Move | str:
        until = time.thread_time() + self.think
        while time.thread_time() < until:
            pass
        return super().play(view)


class Waiter(_Legal):
    """Thinks by waiting: sleeps ``think_ms`` (on a lookup, a lock, another process)."""

    def __init__(self, think_ms: float = 25) -> None:
        self.think = think_ms / 1000

    def play(self, view: View) -> Move | str:
        time.sleep(self.think)
        return super().play(view)
