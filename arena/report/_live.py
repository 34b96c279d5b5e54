"""Refreshing a run's report while the run goes on, without holding the run up."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.ratings import SprtStatus
from arena.records import get_logger
from arena.tournament import Reporter, Standings

from ._build import write_report

__all__ = ["ReportRefresher"]

_log = get_logger("arena.report")


class ReportRefresher(Reporter):
    """A :class:`Reporter` that rewrites ``folder/report/`` every ``interval`` seconds.

    The report is built in a background thread from the records written so far (the matches
    themselves run in worker processes), one build at a time, and the next starts no sooner
    than ``interval`` seconds, nor than the last build took, after the last one ended: a
    large run spends at most half its time building reports. Every call is passed on to
    ``inner`` (the live display, or nothing). A failed build is logged and the run goes on.
    """

    def __init__(self, folder: str | Path, inner: Reporter | None = None, *,
                 interval: float = 30.0) -> None:
        self.folder = Path(folder)
        self.inner = inner
        self.interval = interval
        self.builds = 0
        self._last = time.monotonic()  # when the last build ended (or the refresher began)
        self._pause = interval
        self._thread: threading.Thread | None = None

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        if self.inner is not None:
            self.inner.start(total, done, standings, jobs)

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        if self.inner is not None:
            self.inner.match(record, standings)
        if time.monotonic() - self._last >= self._pause and not self.busy:
            self._thread = threading.Thread(target=self._build, name="arena-report",
                                            daemon=True)
            self._thread.start()

    def sprt(self, status: SprtStatus) -> None:
        if self.inner is not None:
            self.inner.sprt(status)

    def stop(self) -> None:
        if self.inner is not None:
            self.inner.stop()
        self.wait()

    @property
    def busy(self) -> bool:
        """Whether a build is running now."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self) -> None:
        """Wait for the build in progress, if any."""
        if self._thread is not None:
            self._thread.join()

    def _build(self) -> None:
        started = time.monotonic()
        try:
            write_report(self.folder, on_skip=lambda message: None)
            self.builds += 1
        except Exception as exc:  # a refresh must never stop the run
            _log.warning("refreshing the report failed", folder=str(self.folder), error=str(exc))
        finally:
            self._last = time.monotonic()
            self._pause = max(self.interval, self._last - started)
