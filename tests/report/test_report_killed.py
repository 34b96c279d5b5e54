"""A report killed while its workers replay takes its workers with it: none is left running
(replaying the batches queued, writing their files, then waiting for more for ever)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from arena.report import BATCH

from .helpers import copied_run

pytestmark = pytest.mark.skipif(sys.platform != "linux",
                                reason="the report's workers are forked on Linux only")

GONE_S = 60.0
"""A generous bound for a worker to be gone once its parent was killed (they see it in
half a second)."""

# Every match replayed by two forked workers, as arena report replays on a 2-core machine.
REPORT = ("import sys\nfrom arena.report import write_report\n"
          "write_report(sys.argv[1], jobs=2, replays=None, resamples=0)\n")


def _workers(parent: psutil.Process, deadline: float) -> list[psutil.Process]:
    """The workers ``parent`` forked, once it has both."""
    while time.monotonic() < deadline:
        if parent.status() == psutil.STATUS_ZOMBIE:
            pytest.fail("the report ended before its workers were seen")
        children = parent.children()
        if len(children) >= 2:
            return children
        time.sleep(0.05)
    pytest.fail("the report's workers did not start")


def _running(process: psutil.Process) -> bool:
    """The process runs still (a zombie is gone: it waits only to be reaped)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_killed_report_leaves_no_worker(run_folder: Path, tmp_path: Path) -> None:
    lines = len((run_folder / "records.jsonl").read_bytes().splitlines())
    copies = (BATCH * 40) // lines + 1  # some forty batches: long enough to be killed in
    folder = tmp_path / "run"
    copied_run(run_folder, folder, copies)
    proc = subprocess.Popen([sys.executable, "-c", REPORT, str(folder)])
    workers: list[psutil.Process] = []
    try:
        workers = _workers(psutil.Process(proc.pid), time.monotonic() + 300)
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=60) == -signal.SIGKILL
        deadline = time.monotonic() + GONE_S
        while (alive := [w for w in workers if _running(w)]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert alive == [], f"{len(alive)} of the killed report's workers still run"
    finally:
        proc.kill()
        for worker in workers:  # a failure leaves none behind either
            with contextlib.suppress(psutil.NoSuchProcess):
                worker.kill()
