"""Memory per bot, not per process: a bot whose processes together pass ``memory_mb`` gets
a memory fault where the machine gives arena a memory cgroup, and nothing of it is left.

Each bot forks children that each fill 100 MiB and hold it, with ``memory_mb`` 256: three
together pass it (one by one, each is far under its address-space cap), one does not.
Skipped, with the reason, where no memory controller is writable; under the sandbox
(``ARENA_SANDBOX`` picks bubblewrap or ``unshare``) where this machine can, and without it.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.referee import (
    make_host,
    play_match,
    sandbox_mechanism,
    sandbox_unavailable_reason,
)
from arena.referee.sandbox import _cgroup
from tests.matchspecs import match_spec
from tests.recordtools import record_faults

from .test_hostile import gone

HERE = Path(__file__).parent
CONTROLLER = _cgroup.controller()
pytestmark = pytest.mark.skipif(
    CONTROLLER is None, reason=f"no writable memory cgroup: {_cgroup.unavailable_reason()}")

SANDBOXES = [pytest.param(False, id="plain"), pytest.param(True, id="sandboxed", marks=(
    pytest.mark.skipif(sandbox_mechanism() is None,
                       reason=sandbox_unavailable_reason() or "no sandbox")))]


def bot_cgroups() -> list[str]:
    """The bot cgroups of this process's arena parent (none: the parent is gone too)."""
    assert CONTROLLER is not None
    try:
        return [name for name in os.listdir(CONTROLLER.parent()) if name.startswith("bot-")]
    except FileNotFoundError:
        return []


@pytest.fixture
def no_cgroup_left() -> Iterator[None]:
    # Bots of other tests in this process (a pool a module keeps) may hold cgroups of their
    # own under the same parent: the test's bots must leave none beside them.
    before = set(bot_cgroups())
    yield
    assert set(bot_cgroups()) <= before, "a bot's memory cgroup outlived its match"
    assert CONTROLLER is not None
    assert before or not os.path.exists(CONTROLLER.parent())


def play(seat: dict[str, Any], sandbox: bool, rounds: int = 2) -> dict[str, Any]:
    seats = [seat, {"label": "random-1", "name": "random"}, {"label": "random-2",
                                                              "name": "random"}]
    limits = {"move_ms": 5000, "start_ms": 20000, "memory_mb": 256, "sandbox": sandbox}
    typed = match_spec({"match_id": "memory", "seed": 5, "rules": {"rounds": rounds},
                        "seats": seats, "limits": limits})
    hosts = [make_host(s, typed.limits) for s in typed.seats]
    record = trio.run(lambda: play_match(typed, hosts=hosts))
    assert len(record["deals"]) == rounds  # the match goes on, and ends whole
    assert all(sorted(d["finish_order"]) == [0, 1, 2] for d in record["deals"])
    return record


def command(children: int) -> tuple[dict[str, Any], str]:
    marker = f"arena-mark-{uuid.uuid4().hex}"
    line = f"{sys.executable} {HERE / 'memory_entrant.py'} {marker} {children} 100"
    return {"label": "entrant", "command": line}, marker


def memory_faults(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in record_faults(record) if "out of memory" in f["detail"]]


@pytest.mark.usefixtures("no_cgroup_left")
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_children_together_over_memory_mb_are_a_memory_fault(sandbox: bool) -> None:
    seat, marker = command(children=3)
    record = play(seat, sandbox)
    found = record_faults(record)
    assert found and found == memory_faults(record), found
    assert {(f["seat"], f["kind"]) for f in found} == {(0, "crash")}
    assert "memory_mb (256 MB)" in found[0]["detail"] and "\n" not in found[0]["detail"]
    assert len(found) == 2  # once per deal: a fresh process each time, as after any crash
    assert gone(marker), "a process of the bot survived its match"


@pytest.mark.usefixtures("no_cgroup_left")
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_bot_whose_children_stay_under_memory_mb_is_unaffected(sandbox: bool) -> None:
    seat, marker = command(children=1)
    record = play(seat, sandbox)
    assert record_faults(record) == []
    assert gone(marker)


@pytest.mark.usefixtures("no_cgroup_left")
def test_a_process_bot_is_bounded_the_same_way() -> None:
    seat = {"label": "forker", "name": "tests.integrity.sandbox_bots:MemoryForker",
            "host": "process", "params": {"children": 3, "mb": 100}}
    record = play(seat, sandbox=False, rounds=1)
    assert [f["kind"] for f in memory_faults(record)] == ["crash"], record_faults(record)


def test_without_the_cgroup_only_each_process_is_bounded(monkeypatch: pytest.MonkeyPatch,
                                                         no_cgroup_left: None) -> None:
    """The bound is the cgroup's: with ``ARENA_CGROUP=none`` the same bot plays on."""
    monkeypatch.setenv(_cgroup.CGROUP_ENV, "none")
    seat, marker = command(children=3)
    assert record_faults(play(seat, sandbox=False, rounds=1)) == []
    assert gone(marker)


@pytest.mark.usefixtures("no_cgroup_left")
def test_without_the_sandbox_a_detached_worker_dies_with_its_bot_cgroup() -> None:
    """A worker that left the bot's process group (``setsid``) is still in its cgroup."""
    marker = f"arena-mark-{uuid.uuid4().hex}"
    line = f"{sys.executable} {HERE / 'hostile_entrant.py'} {marker} setsid"
    play({"label": "entrant", "command": line}, sandbox=False, rounds=1)
    assert gone(marker, within=5), "a detached worker outlived its bot"


KILLED = """
import os, signal
from arena.referee.sandbox import _cgroup
cgroup = _cgroup.MemoryCgroup(_cgroup.controller(), 64)
print(cgroup.path, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_an_arena_killed_leaves_a_cgroup_the_next_one_removes() -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-c", KILLED], capture_output=True, text=True,
                          timeout=60)
    left = Path(done.stdout.strip())
    assert done.returncode == -9 and left.name == "bot-0" and left.is_dir(), done
    _cgroup._probe.cache_clear()  # the next start: discovery again
    try:
        assert _cgroup.controller() == CONTROLLER
        assert not left.exists() and not left.parent.exists()
    finally:
        if left.exists():  # never leave one behind, whatever the test found
            left.rmdir()
            left.parent.rmdir()
