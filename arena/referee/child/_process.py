"""A bot's child process: spawning under limits, talking over pipes, killing its group.

This is the machinery under the ``process`` and ``command`` hosts. Each
child runs in its own session (so its process group holds it and anything
it forks), under resource limits (and, where the machine gives one, in a
memory cgroup of its own that bounds all its processes together:
:mod:`arena.referee.sandbox._cgroup`), with a clean environment; its own stdout
and stderr go to an unlinked temporary file whose tail is kept for fault
details, so nothing a bot prints can disturb the protocol. Messages go
through a :class:`arena.referee.child._channel.Channel` over the pipes. Nothing
here keeps a deadline: each call takes the caller's as an argument, and a
host whose call ran past it kills the whole process group.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import trio

from .._faults import BotFault
from ..sandbox._cgroup import bot_cgroup, join
from ..sandbox._import_path import import_path
from ..sandbox._proctimes import group_members
from ..sandbox._sandbox import sandbox_fds
from ._channel import Channel, PeerGone, PipeStream

__all__ = ["ChildProcess", "clean_environment", "import_path", "limit_setter"]

TAIL_BYTES = 2000
"""How much of a bot's own output a fault detail quotes."""

OUTPUT_LIMIT_MB = 64
"""A child may write at most this much output (RLIMIT_FSIZE) before the kernel stops it."""

NOFILE_LIMIT = 256
"""Open files a child may hold (RLIMIT_NOFILE)."""

_PR_SET_PDEATHSIG = 1


def clean_environment() -> dict[str, str]:
    """The environment a bot starts with: no secrets, only what running code needs.

    ``PATH`` (so ``cmd:`` bots find their interpreter), a UTF-8 locale,
    ``PYTHONPATH`` set to the referee's import path (so a Python child finds
    the same bots and ``module:Class`` references), a fixed hash seed (so a
    bot's set iteration order, and with it the match, replays from the
    seed) and unbuffered Python output (so the tail survives a kill).
    """
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join(import_path()),
        "PYTHONHASHSEED": "0",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def limit_setter(memory_mb: int | None, cpu_s: int, die_with_parent: bool,
                 cgroup: str | None = None) -> Callable[[], None]:
    """The function run in the child between fork and exec to apply its limits.

    ``cgroup``: the ``cgroup.procs`` file of the bot's memory cgroup, which the child
    joins first (:func:`arena.referee.sandbox._cgroup.join`), so that all it starts is inside.
    """
    libc: Any = None
    if die_with_parent and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            libc = ctypes.CDLL(None, use_errno=True)

    def limit(which: int, soft: int) -> None:
        # Never above the hard limit we inherited (raising it needs privileges), and never
        # fail the spawn over a limit the platform refuses.
        try:
            _, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                soft = min(soft, hard)
            resource.setrlimit(which, (soft, soft if hard == resource.RLIM_INFINITY else hard))
        except (OSError, ValueError):
            pass

    def apply() -> None:
        if cgroup is not None:
            join(cgroup)
        limit(resource.RLIMIT_CORE, 0)
        limit(resource.RLIMIT_NOFILE, NOFILE_LIMIT)
        limit(resource.RLIMIT_CPU, cpu_s)
        limit(resource.RLIMIT_FSIZE, OUTPUT_LIMIT_MB << 20)
        if memory_mb:
            limit(resource.RLIMIT_AS, int(memory_mb) << 20)
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

    return apply


def _output_file() -> int:
    """A file for the child's output (stderr, and stdout when it talks over other pipes):
    unlinked at once, so nothing of it outlives the referee."""
    fd, path = tempfile.mkstemp(prefix="arena-bot-", suffix=".out")
    os.close(fd)
    out = os.open(path, os.O_RDWR | os.O_APPEND)
    os.unlink(path)
    return out


def _popen(argv: list[str], *, stdio: bool, pipes: bool, fds: tuple[int, int, int],
           options: dict[str, Any]) -> subprocess.Popen[bytes]:
    """Start ``argv`` wired as asked: no pipes (its output to the output file), the protocol
    on stdin/stdout, or on the two pipes named by ``--in``/``--out`` (stdout to the file)."""
    to_child_r, from_child_w, out_fd = fds
    if not pipes:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=out_fd, **options)
    if stdio:
        return subprocess.Popen(argv, stdin=to_child_r, stdout=from_child_w, stderr=out_fd,
                                **options)
    argv = [*argv, "--in", str(to_child_r), "--out", str(from_child_w)]
    options = {**options, "pass_fds": (to_child_r, from_child_w, *options["pass_fds"])}
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out_fd, stderr=out_fd,
                            **options)


class ChildProcess:
    """One child process speaking the bot protocol, with its limits and output tail.

    ``stdio=False`` (the ``process`` host) hands the child two dedicated
    pipes whose descriptor numbers are appended to ``argv`` as ``--in N
    --out M``, and sends its stdout and stderr to the tail file. ``stdio=True``
    (the ``command`` host) makes the program's stdin and stdout the protocol
    and captures only its stderr. ``pipes=False`` (the ``uecda`` host, whose
    program talks over a socket) gives the program no protocol pipes: stdin
    from /dev/null, stdout discarded, stderr to the tail file.

    The object does not belong to any trio run, so a pool can hand a healthy
    process to the next match even when every match runs under its own
    ``trio.run``.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        stdio: bool,
        memory_mb: int | None,
        cpu_s: int,
        cwd: str | None = None,
        sandbox: Sequence[str] | None = None,
        pipes: bool = True,
        memory_cgroup: bool = True,
    ) -> None:
        self.cgroup = bot_cgroup(memory_mb if memory_cgroup else None)
        """Its process tree's memory cgroup (:func:`arena.referee.sandbox._cgroup.bot_cgroup`)."""
        self._out_fd = _output_file()
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        fds = (to_child_r, to_child_w, from_child_r, from_child_w, self._out_fd)
        main_thread = threading.current_thread() is threading.main_thread()
        options: dict[str, Any] = {
            "env": clean_environment(),
            "cwd": cwd,
            "start_new_session": True,
            "preexec_fn": limit_setter(memory_mb, cpu_s, die_with_parent=main_thread,
                                       cgroup=self.cgroup.procs if self.cgroup else None),
            "close_fds": True,
            "pass_fds": sandbox_fds() if sandbox else (),  # the sandbox's user namespace
        }
        try:
            self._popen = _popen([*(sandbox or ()), *argv], stdio=stdio, pipes=pipes,
                                 fds=(to_child_r, from_child_w, self._out_fd), options=options)
        except BaseException:
            for fd_ in fds:
                os.close(fd_)
            if self.cgroup is not None:
                self.cgroup.close()
            raise
        os.close(to_child_r)
        os.close(from_child_w)
        self._owner = os.getpid()
        self.pid: int = self._popen.pid
        """The child's process id, which is also its process group id."""
        self._to_child = to_child_w
        self._from_child = from_child_r
        self._pipes = PipeStream(to_child_w, from_child_r)
        self.channel = Channel(self._pipes)
        """The protocol over the child's pipes (requests in, answers out)."""
        self._next_id = 0
        self.returncode: int | None = None
        self.closed = False
        self.uses = 0
        """Matches this process has served (for pools that retire old processes)."""
        self.sandboxed = bool(sandbox)
        """Whether it runs in the sandbox (a pool never reuses such a process)."""
        self._last_tail = ""

    # -- talking ---------------------------------------------------------------------------

    @property
    def trace(self) -> Callable[[str, bytes], None] | None:
        """Hears every protocol line: ``(">", line)`` sent, ``("<", line)`` received."""
        return self.channel.trace

    @trace.setter
    def trace(self, trace: Callable[[str, bytes], None] | None) -> None:
        self.channel.trace = trace

    @property
    def before_wait(self) -> Callable[[], object] | None:
        """Called each time a read must wait for the child in the event loop
        (:attr:`PipeStream.before_wait`)."""
        return self._pipes.before_wait

    @before_wait.setter
    def before_wait(self, hook: Callable[[], object] | None) -> None:
        self._pipes.before_wait = hook

    def new_id(self) -> int:
        """A fresh request id."""
        self._next_id += 1
        return self._next_id

    async def send(self, message: dict[str, Any], deadline: float = math.inf) -> None:
        """Write one message; a child that stops reading raises ``trio.TooSlowError`` at
        ``deadline`` (a ``trio.current_time()``), one that is gone is a ``crash`` fault."""
        try:
            await self.channel.send(message, deadline)
        except PeerGone as gone:
            raise await self._death(gone.what) from None

    async def receive(self, deadline: float = math.inf) -> dict[str, Any]:
        """Read one message, or raise the fault that explains why not; ``trio.TooSlowError``
        at ``deadline``."""
        try:
            return await self.channel.receive(deadline)
        except PeerGone as gone:
            raise await self._death(gone.what) from None

    # -- life and death --------------------------------------------------------------------

    def gone(self) -> bool:
        """Whether the child has exited (reaping it), asked cheaply: the status is looked
        for only once its output pipe has hung up, which its exit does first."""
        if self.returncode is None and not self._pipes.hung_up():
            return False
        return self.poll() is not None

    def poll(self) -> int | None:
        """The exit status if the child has exited (reaping it), else ``None``."""
        if self.returncode is None:
            self.returncode = self._popen.poll()
        return self.returncode

    async def _death(self, what: str) -> BotFault:
        """The crash fault for a child that stopped talking: waits briefly for its exit code."""
        with trio.move_on_after(0.5):
            while self.poll() is None:
                await trio.sleep(0.002)
        return self.death_fault(what)

    def death_fault(self, what: str) -> BotFault:
        """The crash fault for a child that ``what`` (``"exited without answering"``): a
        memory fault if its memory cgroup's limit killed it."""
        return self.memory_fault() or BotFault("crash", f"process {what} ({self.status()})"
                                               + self.tail_note())

    def memory_fault(self) -> BotFault | None:
        """A ``crash`` fault saying the bot ran out of memory, if the limit of its memory
        cgroup killed one of its processes since last asked; else None (and always None
        without a cgroup). One read of a small file: the hosts ask after every call."""
        detail = self.cgroup.fault() if self.cgroup is not None else None
        return BotFault("crash", detail) if detail else None

    def status(self) -> str:
        """How the child ended, as fault details say it, or ``still running``."""
        code = self.poll()
        if code is None:
            return "still running"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return f"killed by signal {name}"
        return f"exit code {code}"

    def tail(self, size: int = TAIL_BYTES) -> str:
        """The last ``size`` bytes the child wrote to its stdout and stderr (kept when it is
        killed, so a fault found after the kill can still quote it)."""
        if self.closed:
            return self._last_tail[-size:]
        try:
            end = os.fstat(self._out_fd).st_size
            data = os.pread(self._out_fd, size, max(0, end - size))
        except OSError:
            return ""
        return data.decode(errors="replace")

    def tail_note(self) -> str:
        """``; output tail: ...`` for a fault detail, or nothing if the child wrote nothing."""
        tail = self.tail().strip()
        return f"; output tail: {tail}" if tail else ""

    def clear_output(self) -> None:
        """Forget the output so far (a reused process starts each match with an empty tail)."""
        with contextlib.suppress(OSError):
            os.ftruncate(self._out_fd, 0)

    def kill(self) -> None:
        """Kill the child's whole process group at once, reap it and release its pipes.

        The group is killed before the leader is reaped, so the group id cannot
        have been reused by then. Safe to call more than once.
        """
        if self.closed or os.getpid() != self._owner:
            return
        self._last_tail = self.tail()
        self.closed = True
        self._pipes.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError, subprocess.TimeoutExpired):
            self.returncode = self._popen.wait(timeout=5)
        self._wait_group_gone()
        if self.cgroup is not None:  # what left the process group dies here
            self.cgroup.close()
        for fd in (self._to_child, self._from_child, self._out_fd):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _wait_group_gone(self, timeout: float = 2.0) -> None:
        """Wait until nothing of the process group is left alive (a forked child may lag).

        One ``killpg(pgid, 0)`` answers the usual case; if something of the
        group still exists, /proc tells live processes from zombies waiting
        to be reaped, and stragglers are killed again.
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                os.killpg(self.pid, 0)
            except (ProcessLookupError, PermissionError):
                return
            if not group_members(self.pid) or time.monotonic() > deadline:
                return
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            time.sleep(0.002)

    async def quit(self, message: dict[str, Any] | None = None, wait: float = 0.2) -> None:
        """Ask the child to leave (``message``), give it ``wait`` seconds, then kill its group."""
        if self.closed:
            return
        if message is not None and self.poll() is None:
            with trio.move_on_after(wait):
                with contextlib.suppress(BotFault):
                    await self.send(message)
                while self.poll() is None:
                    await trio.sleep(0.002)
        self.kill()
