"""A Dask scheduler process killed in the middle of a run: one line, the records kept, resume.

``distributed.utils_test.cluster`` runs the scheduler and the workers in processes of their
own and checks that none is left behind. It ends every child process of the test process
when it starts, so it lives in this module, apart from the other Dask tests' cluster.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from distributed.utils_test import cluster

from arena.tournament import DaskExecutor, Reporter, Standings, TournamentError, run_tournament

from .helpers import load_records

pytestmark = pytest.mark.timeout(120)


class KillScheduler(Reporter):
    """Kills the scheduler's process (SIGKILL) once ``count`` records are written."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.seen = 0

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        self.seen += 1
        if self.seen == self.count:
            (scheduler,) = [p for p in multiprocessing.active_children()
                            if "Scheduler" in p.name]
            assert scheduler.pid is not None
            os.kill(scheduler.pid, signal.SIGKILL)


def test_a_killed_scheduler_ends_the_run_with_one_line_and_it_resumes(
    small_config: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dask"
    with cluster(nworkers=1) as (scheduler, _):
        executor = DaskExecutor(scheduler["address"], batch=1, window=2, connect_timeout_s=2)
        with executor, pytest.raises(TournamentError) as info:
            run_tournament(small_config, out=out, executor=executor, reporter=KillScheduler(3))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"lost the Dask scheduler at {scheduler['address']}: ")
    assert message.endswith("run again to resume")
    kept = len(load_records(out / "records.jsonl"))
    assert kept >= 3
    resumed = run_tournament(small_config, out=out, jobs=1)
    assert resumed.resumed == kept
    serial = tmp_path / "serial"
    run_tournament(small_config, out=serial, jobs=1)
    assert load_records(out / "records.jsonl") == load_records(serial / "records.jsonl")
