"""Match records in tests: a record without what depends on the clock."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest


def without_timings(record: dict[str, Any], *, hosts: bool = False) -> dict[str, Any]:
    """A copy of ``record`` minus what depends on the clock: ``wall_s`` and the deals' think
    times (``think_us``). With ``hosts``, also each seat's ``host`` (what differs between two
    ways of playing the same match)."""
    out = {key: value for key, value in record.items() if key != "wall_s"}
    out["deals"] = [{k: v for k, v in deal.items() if k != "think_us"}
                    for deal in record.get("deals") or ()]
    if hosts:
        out["seats"] = [{k: v for k, v in s.items() if k != "host"} for s in record["seats"]]
    return out


def record_faults(record: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """Every fault of ``record``, deal by deal in order (docs/records.md); with ``seat``, only
    that seat's."""
    return [f for deal in record["deals"] for f in deal["faults"]
            if seat is None or f["seat"] == seat]


def kill_run_after(command: list[str], records: Path, lines: int, within_s: float) -> None:
    """Start ``command`` (an ``arena run``) in a session of its own and kill -9 the whole
    session once ``records`` holds ``lines`` lines; fail if the run ends first or no such
    records appear within ``within_s`` seconds."""
    proc = subprocess.Popen(command, start_new_session=True)
    try:
        deadline = time.monotonic() + within_s
        while not (records.exists() and records.read_bytes().count(b"\n") >= lines):
            if proc.poll() is not None:
                pytest.fail("the run ended before it could be killed")
            if time.monotonic() > deadline:
                pytest.fail("no records appeared")
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
