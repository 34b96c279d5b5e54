"""Hostile entrants, third pass: the sandbox's first process is arena's keeper, under the
filter and out of the bot's reach, and every process of a bot dies with its match, with
or without a memory cgroup.

Under bubblewrap the pid namespace's first process was bubblewrap's own, outside the
seccomp filter and traceable by the bot (same uid): through it, two seats passed a hand
by file locks, and a bot made it leave the referee's reach. Under ``unshare`` the bot was
that process itself, and left with ``setsid`` where no memory cgroup killed it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.referee.lowlevel import sandbox_argv, sandbox_fds

from .test_hostile import MECHANISM, NO_SANDBOX, home, tournament

__all__ = ["home"]  # a fixture, used by name

pytestmark = pytest.mark.skipif(MECHANISM is None, reason=NO_SANDBOX)

PROBE = r"""
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def code(f):
    try:
        f()
        return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
def raw(result):
    if result < 0:
        raise OSError(ctypes.get_errno(), "")
status = dict(line.split(":", 1) for line in open("/proc/1/status") if ":" in line)
out = {
    "me": "pid1" if os.getpid() == 1 else "child",
    "keeper": open("/proc/1/comm").read().strip(),
    "keeper_seccomp": status["Seccomp"].strip(),
    "ptrace": code(lambda: raw(libc.ptrace(16, 1, None, None))),
    "mem": code(lambda: os.close(os.open("/proc/1/mem", os.O_RDONLY))),
    "vsock": code(lambda: socket.socket(40, socket.SOCK_STREAM).close()),
    "netlink": code(lambda: socket.socket(16, socket.SOCK_RAW, 0).close()),
    "packet": code(lambda: socket.socket(17, socket.SOCK_RAW, 0).close()),
    "memfd": code(lambda: os.close(os.memfd_create("x"))),
    "inet": code(lambda: socket.socket().close()),
}
print(",".join(f"{k}={v}" for k, v in out.items()))
"""


def test_the_first_process_is_the_keeper_under_the_filter_and_out_of_reach() -> None:
    argv = [*sandbox_argv(program=[sys.executable]), sys.executable, "-c", PROBE]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          pass_fds=sandbox_fds())
    assert done.returncode == 0, done.stderr
    seen = dict(item.split("=") for item in done.stdout.strip().split(","))
    assert seen == {"me": "child", "keeper": "arena-jail", "keeper_seccomp": "2",
                    "ptrace": "EPERM", "mem": seen["mem"], "vsock": "EPERM",
                    "netlink": "EPERM", "packet": "EPERM", "memfd": "EPERM",
                    "inet": "ok"}, seen
    assert seen["mem"] in ("EACCES", "EPERM"), seen


def test_the_keeper_ends_with_the_bot_and_says_how_it_ended() -> None:
    argv = [*sandbox_argv(program=[sys.executable]), sys.executable, "-c",
            "import os, sys; os.kill(os.getpid(), 9) if sys.argv[1] == 'k' else sys.exit(5)"]
    assert subprocess.run([*argv, "e"], timeout=60, pass_fds=sandbox_fds()).returncode == 5
    assert subprocess.run([*argv, "k"], timeout=60, pass_fds=sandbox_fds()).returncode == 137


@pytest.fixture
def reaper() -> Iterator[None]:
    """Kills what a failing test left behind (an entrant that outlived its match)."""
    yield
    for entry in os.listdir("/proc"):
        with contextlib.suppress(OSError, ValueError):
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                line = file.read()
            if b"arena-mark-" in line and b"outlive" in line:
                os.kill(int(entry), signal.SIGKILL)


@pytest.mark.parametrize("cgroup", ["none", ""])
def test_a_bot_that_leaves_its_group_and_its_parent_dies_with_its_match(
        home: Path, monkeypatch: pytest.MonkeyPatch, reaper: None, cgroup: str) -> None:
    """``ARENA_CGROUP=none``: no memory cgroup kills what is left; the pid namespace does."""
    monkeypatch.setenv("ARENA_CGROUP", cgroup)
    _, version = tournament(home, "outliver", "outlive")  # checks nothing survives
    assert version == "outlive:started:ptrace=EPERM", version
