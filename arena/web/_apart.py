"""The served standings computed in a child process, off the runner's.

``arena run --serve`` runs its server in the runner's process, and a thread of it that
computes the standings (every new record read, the ratings fitted, in Python) holds the
process's one interpreter lock: the runner, which decides the next matches, waits meanwhile,
and a long run's fit takes seconds. :class:`ApartStandings` computes the same document
(:class:`arena.report.GrowingStandings`, each record read once) in a child process of its own
at a lower priority, started at its first use and kept while the server serves: the server's
thread waits for the answer without the lock.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from arena.records import get_logger
from arena.report import GrowingStandings
from arena.tournament import worker_init

__all__ = ["ApartStandings"]

NICE = 10
"""The child's priority below the server's (as the served report's builds)."""

_log = get_logger("arena.web")

_GROWING: GrowingStandings | None = None
"""The child's standings of the records file (set by :func:`_start`)."""


def _start(path: str) -> None:
    """The child's set-up: Ctrl-C left to the server, gone with it, a lower priority."""
    global _GROWING
    worker_init()
    os.nice(NICE)
    _GROWING = GrowingStandings(path)


def _document() -> dict[str, Any]:
    assert _GROWING is not None
    return _GROWING.document()


class ApartStandings:
    """``GrowingStandings(path).document()`` answered by a child process (blocking: call it in
    a thread). The first document (of the first record, for a late subscriber: at once) is
    computed in this process; the child starts with the second, so that a run nobody
    watches starts none. Should the child fail to start or die, the documents are computed
    in this process from then on (logged once): the same documents, the lock held again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pool: ProcessPoolExecutor | None = None
        self._here: GrowingStandings | None = None  # the first document's; a failed child's
        self._state = "first"  # then "apart" (the child's), or "here" once it failed
        self._lock = threading.Lock()

    def document(self) -> dict[str, Any]:
        """The standings document of the records so far."""
        with self._lock:
            if self._state == "first":
                self._state = "apart"
                return GrowingStandings(self.path).document()
            if self._state == "apart":
                try:
                    if self._pool is None:
                        self._pool = ProcessPoolExecutor(
                            1, mp_context=multiprocessing.get_context("spawn"),
                            initializer=_start, initargs=(str(self.path),))
                    future = self._pool.submit(_document)
                except OSError as exc:  # no child process to be had
                    self._fail(exc)
                else:
                    try:
                        return future.result()
                    except BrokenProcessPool as exc:  # the child died (or its set-up failed)
                        self._fail(exc)
            if self._here is None:
                self._here = GrowingStandings(self.path)
            return self._here.document()

    def close(self) -> None:
        """End the child (a document it computes now is not waited for)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _fail(self, exc: BaseException) -> None:
        _log.warning("the standings' child process failed: they are computed in the "
                     "server's process", error=str(exc)[:300])
        self.close()
        self._state = "here"
