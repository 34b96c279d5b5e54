"""Process bots for the containment tests (``tests.integrity.sandbox_bots:Name``)."""

from __future__ import annotations

import contextlib
import os
import select
import time

from arena import Bot
from arena.game import Move, View


class FailsOnce(Bot):
    """Raises on its first decision (an ``error`` answer: the process lives on), then
    plays its first legal move."""

    def __init__(self) -> None:
        self.failed = False

    def play(self, view: View) -> Move | str:
        if not self.failed:
            self.failed = True
            raise RuntimeError("failing once, on purpose")
        return view.legal_moves()[0]


class DetachedBurner(Bot):
    """On every decision, starts ``workers`` detached workers (``setsid``, then orphaned)
    that each burn ``cpu_ms`` of CPU on CPU 0 and exit before the answer.

    Its own process waits for them on the same CPU at the lowest priority, runnable all
    along, so the wall time less its wait for a CPU is small: only the workers' CPU
    time shows what the decision cost.
    """

    def __init__(self, cpu_ms: float = 300, workers: int = 2) -> None:
        self.cpu_ms = cpu_ms
        self.workers = workers

    def start_match(self, info: object) -> None:
        os.sched_setaffinity(0, {0})

    def _burn(self, done: int) -> None:
        os.setsid()
        if os.fork() != 0:
            os._exit(0)  # the worker's child is orphaned: nobody in the bot's group reaps it
        until = time.thread_time() + self.cpu_ms / 1000
        while time.thread_time() < until:
            pass
        os.close(done)
        os._exit(0)

    def play(self, view: View) -> Move | str:
        readers = []
        for _ in range(self.workers):
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                self._burn(w)
            os.close(w)
            os.waitpid(pid, 0)
            readers.append(r)
        # the lowest priority now that the workers, at the normal one, are off
        os.setpriority(os.PRIO_PROCESS, 0, 19)
        with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as f:
            f.write("19")
        while readers:  # runnable all along: poll without sleeping
            ready, _, _ = select.select(readers, [], [], 0)
            for r in ready:
                os.close(r)
                readers.remove(r)
        return view.legal_moves()[0]


class MemoryForker(Bot):
    """At its first decision forks ``children`` processes that each fill and hold ``mb``
    MiB (``tests/integrity/memory_entrant.py``), then plays its first legal move."""

    def __init__(self, children: int = 3, mb: int = 100) -> None:
        self.children = children
        self.mb = mb
        self.forked = False

    def play(self, view: View) -> Move | str:
        if not self.forked:
            from tests.integrity.memory_entrant import fill

            self.forked = True
            fill(self.children, self.mb)
        return view.legal_moves()[0]
