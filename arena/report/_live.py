"""Refreshing a run's report while the run goes on, without holding the run up."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from arena.records import get_logger
from arena.tournament import Reporter, Standings

from ._build import write_report

__all__ = ["SHARE", "Rebuilds", "ReportRefresher"]

SHARE = 4.0
"""A rebuild waits this many times the last build's time: a report of a long run takes long
to build (every match's replay), and the run or the server beside it comes first."""

_log = get_logger("arena.report")


class Rebuilds:
    """The one rebuilder of a report while its records grow: when the next build may start,
    and the build itself (called in a thread of the caller's: a run's reporter, the web
    server's trio run).

    One build at a time, the next no sooner than ``interval`` seconds, nor than ``share``
    (:data:`SHARE`) times the last build took, after the last one ended (a large run spends
    at most a fifth of its time building reports); the first at once, or after ``interval``
    with ``wait_first``. ``build`` returns whether it built; a failed build is logged (``what``
    says which) and the old report stays."""

    def __init__(self, build: Callable[[], bool], interval: float, *, what: str,
                 wait_first: bool = False, share: float = SHARE) -> None:
        self._build = build
        self.interval = interval
        self.share = share
        self.what = what
        self.builds = 0
        self._last = time.monotonic() if wait_first else float("-inf")
        self._pause = interval

    def due(self) -> bool:
        """Whether a build may start now."""
        return time.monotonic() - self._last >= self._pause

    def build(self) -> bool:
        """Build once: whether it was built."""
        started = time.monotonic()
        try:
            built = self._build()
        except Exception as exc:  # a rebuild must never stop the run or the server
            _log.warning(f"{self.what} failed", error=str(exc))
            built = False
        finally:
            self._last = time.monotonic()
            self._pause = max(self.interval, self.share * (self._last - started))
        self.builds += built
        return built


class ReportRefresher(Reporter):
    """A :class:`Reporter` that rewrites ``folder/report/`` every ``interval`` seconds.

    The report is built in a background thread from the records written so far (the matches
    themselves run in worker processes), one build at a time, and the next starts no sooner
    than ``interval`` seconds, nor than four times the last build took, after the last one
    ended: a large run spends at most a fifth of its time building reports. It is one of a run's
    reporters (:class:`arena.tournament.Reporters`). A failed build is logged and the run
    goes on.
    """

    def __init__(self, folder: str | Path, *, interval: float = 30.0) -> None:
        self.folder = Path(folder)
        self.rebuilds = Rebuilds(self._build, interval, what="refreshing the report",
                                 wait_first=True)
        self._thread: threading.Thread | None = None

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        if self.rebuilds.due() and not self.busy:
            self._thread = threading.Thread(target=self.rebuilds.build, name="arena-report",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self.wait()

    @property
    def busy(self) -> bool:
        """Whether a build is running now."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self) -> None:
        """Wait for the build in progress, if any."""
        if self._thread is not None:
            self._thread.join()

    @property
    def builds(self) -> int:
        """The reports built so far."""
        return self.rebuilds.builds

    def _build(self) -> bool:
        write_report(self.folder, on_skip=lambda message: None)
        return True
