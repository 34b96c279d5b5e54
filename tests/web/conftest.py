"""Runs to serve: a small finished tournament, and a server on 127.0.0.1 in a subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install -e '.[web]')")
pytest.importorskip("httpx_ws", reason="httpx-ws is not installed (pip install -e '.[test]')")

from arena.tournament import run_tournament

CONFIG: dict[str, Any] = {
    "name": "webtest",
    "seed": 20261202,
    "bots": [{"name": "greedy"}, {"name": "lowest"}, {"name": "highest"}, {"name": "random"}],
    "players": 4,
    "format": {"type": "round_robin"},
    "duplicate": True,
    "rules": {"rounds": 2},
    "limits": {"move_ms": 2000},
}


@pytest.fixture(scope="session")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run: one table of four built-in bots, a duplicate set of 4 matches."""
    folder = tmp_path_factory.mktemp("served")
    run_tournament(CONFIG, out=folder, jobs=1)
    return folder


def start_server(*args: str) -> tuple[subprocess.Popen[str], str]:
    """``arena ARGS`` in a subprocess, and the URL it printed."""
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "arena"), *args], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        found = re.search(r"on (http://\S+?)/? ", line)
        if found:
            return process, found.group(1)
    process.kill()
    out, _ = process.communicate()
    raise AssertionError(f"arena {' '.join(args)} printed no URL: {out[-2000:]}")


def stop(process: subprocess.Popen[str]) -> None:
    """End a server started by :func:`start_server`: politely, then for sure."""
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def served(finished_run: Path) -> Iterator[str]:
    """The URL of ``arena serve`` of the finished run, on a free port of 127.0.0.1."""
    process, url = start_server("serve", str(finished_run), "--port", "0")
    try:
        yield url
    finally:
        stop(process)
