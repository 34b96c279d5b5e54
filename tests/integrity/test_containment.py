"""Hostile entrants, second pass: the sandbox holds when arena runs as root.

No privilege inside (so no mount can be undone), no channel between two seats through
a shared kernel object, a bounded ``/tmp``, and a fresh process for every match. Run
under whichever mechanism this machine gives (``ARENA_SANDBOX`` forces one: CI runs
this suite under bubblewrap and again under ``unshare``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.referee import make_host, play_match
from arena.referee._spec import MatchSpec
from arena.referee.lowlevel import sandbox_argv, sandbox_fds
from arena.referee.sandbox._seccomp import _ARCH, DENY, seccomp_program

from .test_hostile import HERE, MECHANISM, NO_SANDBOX, home, tournament

__all__ = ["home"]  # a fixture, used by name

pytestmark = pytest.mark.skipif(MECHANISM is None, reason=NO_SANDBOX)


def version_of(record: dict[str, Any], label: str) -> str:
    [seat] = [s for s in record["seats"] if s["label"] == label]
    return str(seat["version"])


def test_a_bot_has_no_privilege_and_cannot_undo_a_mount(home: Path) -> None:
    out = home / "rooter"
    _, version = tournament(home, "rooter", "root", str(out))
    assert out.is_dir()  # it exists outside
    assert version == ("root:cap=0,bnd=0,nnp=1,uid=65534,"
                       "umount=EPERM,remount=EPERM,trace=False"), version


def test_two_seats_cannot_pass_a_number_through_a_byte_range_lock(home: Path) -> None:
    shared = str(HERE / "hostile_entrant.py")  # a file both entrants can read
    record, _ = tournament(home, "locks", "locksend", shared, second=("lockrecv", shared))
    sent, received = version_of(record, "entrant"), version_of(record, "second")
    assert sent.startswith("locksend:") and sent.endswith(":EPERM"), sent
    assert received == "lockrecv:EPERM", received


@pytest.mark.skipif(os.name != "posix", reason="byte-range locks are POSIX")
def test_without_the_sandbox_the_lock_channel_works(home: Path) -> None:
    """The channel the sandbox closes is real: unsandboxed, the number gets through."""
    shared = str(HERE / "hostile_entrant.py")
    record, _ = tournament(home, "open-locks", "locksend", shared,
                           second=("lockrecv", shared), sandbox=False)
    sent, received = version_of(record, "entrant"), version_of(record, "second")
    assert sent.endswith(":ok") and received == "lockrecv:" + sent.split(":")[1]


def test_the_private_tmp_holds_at_most_tmp_mb(home: Path) -> None:
    _, version = tournament(home, "filler", "tmpfill", tmp_mb=8)
    written, error = version.removeprefix("tmpfill:").split(":")
    assert int(written) <= 8 and error == "ENOSPC", version


CALLS = r"""
import ctypes, errno, fcntl, os, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
def code(f):
    try:
        f()
        return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
fd = os.open(sys.argv[1], os.O_RDONLY)
lock = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 1, 0)
def raw(result):
    if result < 0:
        raise OSError(ctypes.get_errno(), "")
out = {
    "flock": code(lambda: fcntl.flock(fd, fcntl.LOCK_SH)),
    "ofd": code(lambda: fcntl.fcntl(fd, 37, lock)),
    "lease": code(lambda: fcntl.fcntl(fd, 1024, fcntl.F_RDLCK)),
    "inotify": code(lambda: raw(libc.inotify_init1(0))),
    "keyctl": code(lambda: raw(libc.syscall(250 if os.uname().machine == "x86_64" else 219,
                                            0, -3, 0, 0, 0))),
    "unix": code(lambda: socket.socket(socket.AF_UNIX).close()),
    "unshare": code(lambda: raw(libc.unshare(0x10000000))),
    "pair": code(lambda: [s.close() for s in socket.socketpair()]),
    "thread": code(lambda: __import__("threading").Thread(target=print).start()),
    "fork": code(lambda: (lambda p: os._exit(0) if p == 0 else os.waitpid(p, 0))(os.fork())),
}
print(",".join(f"{k}={v}" for k, v in out.items()))
"""


def test_the_filter_refuses_shared_kernel_objects_and_nothing_a_bot_needs() -> None:
    argv = [*sandbox_argv(program=[sys.executable]), sys.executable, "-c", CALLS, __file__]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          pass_fds=sandbox_fds())
    assert done.returncode == 0, done.stderr
    seen = dict(item.split("=") for item in done.stdout.strip().split(","))
    assert seen == {"flock": "EPERM", "ofd": "EPERM", "lease": "EPERM", "inotify": "EPERM",
                    "keyctl": "EPERM", "unix": "EPERM", "unshare": "EPERM", "pair": "ok",
                    "thread": "ok", "fork": "ok"}, seen


def test_the_filter_is_a_whole_program_for_each_architecture() -> None:
    for machine in ("x86_64", "aarch64"):
        program = seccomp_program(machine)
        assert len(program) % 8 == 0 and len(program) // 8 < 4096
    assert "flock" in DENY and "keyctl" in DENY and "io_uring_setup" in DENY
    assert {"ptrace", "process_vm_readv", "pidfd_getfd", "memfd_create"} <= set(DENY)
    for machine in ("x86_64", "aarch64"):  # each name has its number there
        assert set(DENY) - {"inotify_init"} <= set(_ARCH[machine][1]), machine


def _spec(match_id: str, sandbox: bool, bot: str = "random") -> MatchSpec:
    seats = [{"label": "p", "name": bot, "host": "process"},
             {"label": "q", "name": "greedy"}, {"label": "r", "name": "lowest"}]
    return MatchSpec.from_dict({"match_id": match_id, "seed": 3, "rules": {"rounds": 1},
                                "seats": seats, "limits": {"move_ms": 5000, "start_ms": 20000,
                                                           "sandbox": sandbox}})


def test_a_process_bot_imported_from_under_tmp_starts_in_the_sandbox(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a process bot imports, found on ``sys.path`` under ``/tmp`` (a checkout there,
    as an editable install makes it), is visible inside the sandbox's private ``/tmp``."""
    assert str(tmp_path).startswith("/tmp/")
    tmp_path.chmod(0o755)  # open to the bot's uid (pytest makes it 0700)
    (tmp_path / "tmp_checkout_bot.py").write_text(
        "from arena import Bot\n\n\nclass First(Bot):\n"
        "    def play(self, view):\n        return view.legal_moves()[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir("/")  # started from elsewhere
    spec = _spec("anywhere", True, "tmp_checkout_bot:First")
    hosts = [make_host(seat, spec.limits) for seat in spec.seats]
    record = trio.run(lambda: play_match(spec, hosts=hosts))
    assert not [f for deal in record["deals"] for f in deal["faults"]], record["deals"][0]
