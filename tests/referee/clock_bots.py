"""Bots that spend their time in known ways, for the fair-clock tests.

Each thinks on every decision by one means: its own CPU time (busy-waiting
until ``time.thread_time`` has advanced), sleeping, or workers it forks.
``starve`` makes the bot's process wait for a CPU while it thinks: it
moves itself to CPU 0 at the lowest priority (nice 19, for its process and
its session's scheduling group) beside a process that spins there, so the
kernel runs it only in scraps of time.
"""

from __future__ import annotations

import contextlib
import os
import time

from arena_hostile_bots import Legal

from arena.game import Move, View


def _spin(seconds: float) -> None:
    """Busy-wait until this thread has run ``seconds`` of CPU time, however long that takes."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def _starve() -> None:
    os.sched_setaffinity(0, {0})
    os.setpriority(os.PRIO_PROCESS, 0, 19)
    # A process in its own session is its own scheduling group where the kernel groups
    # sessions (autogroup): the nice value that counts is then the group's.
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as f:
        f.write("19")


class CpuThinker(Legal):
    """Thinks ``cpu_ms`` of its own CPU time on each of its first ``moves`` decisions.

    With ``starve`` it waits for the CPU while it does; afterwards it may use
    every CPU again and answers at once.
    """

    def __init__(self, cpu_ms: float = 5, moves: int = 2, starve: bool = False) -> None:
        self.cpu_ms = cpu_ms
        self.moves = moves
        self.starve = starve
        self.cpus = os.sched_getaffinity(0)

    def start_match(self, info: object) -> None:
        if self.starve:
            _starve()

    def play(self, view: View) -> Move | str:
        if self.moves > 0:
            self.moves -= 1
            _spin(self.cpu_ms / 1000)
            if self.moves == 0:
                os.sched_setaffinity(0, self.cpus)
        return super().play(view)


class SlowSleeper(Legal):
    """Sleeps ``sleep_ms`` on every move (uses no CPU); ``starve`` as for :class:`CpuThinker`."""

    def __init__(self, sleep_ms: float = 500, starve: bool = False) -> None:
        self.sleep_ms = sleep_ms
        self.starve = starve

    def start_match(self, info: object) -> None:
        if self.starve:
            _starve()

    def play(self, view: View) -> Move | str:
        time.sleep(self.sleep_ms / 1000)
        return super().play(view)


class WorkerForker(Legal):
    """Forks two workers that each spin ``cpu_ms`` of CPU beside it on CPU 0, on every move.

    Its own thread polls for them meanwhile, so it is always ready to run
    and waits for the CPU its workers hold: the wall time less that wait is
    small, and only the workers' CPU time shows what the move cost.
    """

    def __init__(self, cpu_ms: float = 100) -> None:
        self.cpu_ms = cpu_ms

    def start_match(self, info: object) -> None:
        os.sched_setaffinity(0, {0})

    def play(self, view: View) -> Move | str:
        workers = set()
        for _ in range(2):
            pid = os.fork()
            if pid == 0:
                _spin(self.cpu_ms / 1000)
                os._exit(0)
            workers.add(pid)
        while workers:
            pid, _ = os.waitpid(-1, os.WNOHANG)
            workers.discard(pid)
        return super().play(view)
