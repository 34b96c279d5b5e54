"""A memory cgroup per bot: ``memory_mb`` bounds all of a bot's processes together.

``RLIMIT_AS`` bounds each process of a bot; a bot that forks N workers may
use N times ``memory_mb``. Where the machine lets arena make cgroups with the
memory controller (as root on most machines and in containers given their own
cgroup), every bot process tree gets one: its first process joins it between
fork and exec (:func:`arena.referee.child._process.limit_setter`), so every
process it starts, detached or not, is inside and counted; the kernel kills
one of them when they together reach the limit (all of them on cgroup v2,
``memory.oom.group``), and the host reports the seat's fault
(:meth:`MemoryCgroup.fault`). Swap is bounded to zero where the kernel
accounts it, so the bound is on memory, not on memory plus swap.

Where: cgroup v2 first (``memory.max``), else the v1 memory hierarchy
(``memory.limit_in_bytes``). Under v1, the arena parent is made inside the
cgroup arena runs in (so whatever bounds arena bounds its bots too); under v2,
whose leaf rule forbids controllers below a cgroup that holds processes, it is
made beside it, in the parent cgroup that gives the memory controller to
arena's own (or in the root, when arena runs there: the root's files are only
read). ``ARENA_CGROUP`` names another folder to make it in (one an organiser
delegated), or ``none`` for no cgroup. Nothing of it is written but what arena
made.

Names: ``arena-PID-START`` (the referee process and its start time, so runs
side by side never collide, and a dead one's is known as such) holds
``bot-N``, one per bot process tree. The parent lives while bots do: it is
removed with its last bot, and a stale one (its process gone, its bots
without processes) is removed at the next discovery.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import threading
import time

from ._cgroup_find import _PREFIX, CGROUP_ENV, Controller, _read, _start_time, _write, find

__all__ = ["CGROUP_ENV", "Controller", "MemoryCgroup", "bot_cgroup", "controller", "find",
           "join", "memory_bound", "unavailable_reason"]

_lock = threading.Lock()
"""Held while a parent is made or removed, so a thread's new bot never loses its parent to
another's last."""

_numbers = itertools.count()


def _after_fork() -> None:
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _make_parent(found: Controller) -> str:
    """Make this process's arena parent if it is not there; its folder."""
    parent = found.parent()
    try:
        os.mkdir(parent, 0o755)
    except FileExistsError:
        return parent
    if found.version == 2:
        try:
            _write(os.path.join(parent, "cgroup.subtree_control"), "+memory")
        except OSError:
            with contextlib.suppress(OSError):
                os.rmdir(parent)
            raise
    return parent


def _remove_parent(parent: str) -> None:
    """Remove an arena parent if no bot is left in it (the kernel refuses otherwise)."""
    with contextlib.suppress(OSError):
        os.rmdir(parent)


def _stale(base: str) -> None:
    """Remove the arena parents in ``base`` whose referee has gone, with their bots that have
    no process left (the kernel refuses to remove a cgroup that has processes)."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        pid, _, start = name.removeprefix(_PREFIX).partition("-")
        if not name.startswith(_PREFIX) or not pid.isdigit() or _start_time(int(pid)) == start:
            continue
        parent = os.path.join(base, name)
        with contextlib.suppress(OSError):
            for bot in os.listdir(parent):
                if bot.startswith("bot-"):
                    with contextlib.suppress(OSError):
                        os.rmdir(os.path.join(parent, bot))
        _remove_parent(parent)


@functools.cache
def _probe(choice: str) -> Controller | str:
    """The controller, tried once per process and ``ARENA_CGROUP``: stale parents removed,
    then a parent made and removed again; or why not."""
    found = find(_read("/proc/self/mountinfo"), _read("/proc/self/cgroup"), choice)
    if isinstance(found, str):
        return found
    _stale(found.base)
    try:
        with _lock:
            parent = _make_parent(found)
            _remove_parent(parent)
    except OSError as exc:
        return f"cgroup v{found.version}: cannot make a cgroup in {found.base}: {exc.strerror}"
    return found


def controller() -> Controller | None:
    """The memory controller arena makes bot cgroups with, or None (see
    :func:`unavailable_reason`). Found once per process (``_probe.cache_clear()`` forgets)."""
    found = _probe(os.environ.get(CGROUP_ENV, "").strip())
    return found if isinstance(found, Controller) else None


def bot_cgroup(memory_mb: int | None) -> MemoryCgroup | None:
    """A new bot's memory cgroup bounding all its processes to ``memory_mb`` together, where
    the machine gives one (:func:`controller`); None without a bound or a controller, and
    then only each process is bounded."""
    found = controller() if memory_mb else None
    return MemoryCgroup(found, int(memory_mb or 0)) if found is not None else None


def join(procs: str) -> None:
    """Run in a bot's first process between fork and exec: enter the cgroup whose
    ``cgroup.procs`` is ``procs``, so that all it starts is inside. If it cannot, it says so
    on its stderr (the bot's output tail) and exits with status 126, as the sandbox does."""
    try:
        _write(procs, str(os.getpid()))
    except OSError as exc:
        os.write(2, f"arena: cannot enter the bot's memory cgroup: {exc}\n".encode())
        os._exit(126)


def unavailable_reason() -> str | None:
    """One line saying why bots get no memory cgroup here, or None when they do."""
    found = _probe(os.environ.get(CGROUP_ENV, "").strip())
    return found if isinstance(found, str) else None


def memory_bound(memory_mb: int | None) -> str:
    """What bounds a process or command bot's memory on this machine, as a run's header
    says it once: per bot (a cgroup) or per process."""
    if memory_mb is None:
        return "memory: no bound (memory_mb: null)"
    found = controller()
    if found is not None:
        return (f"memory: {memory_mb} MB per bot, all its processes together (cgroup "
                f"v{found.version}), and {memory_mb} MB of address space per process")
    return (f"memory: {memory_mb} MB of address space per process, not per bot (no memory "
            f"cgroup: {unavailable_reason()})")


class MemoryCgroup:
    """One bot's memory cgroup: made with its limit, joined by the bot's first process
    (:attr:`procs`) before it runs the bot, read for the kills its limit caused
    (:meth:`fault`), emptied and removed when the bot ends (:meth:`close`)."""

    def __init__(self, found: Controller, memory_mb: int) -> None:
        self.version = found.version
        self.memory_mb = memory_mb
        with _lock:
            self._parent = _make_parent(found)
            self.path = os.path.join(self._parent, f"bot-{next(_numbers)}")
            os.mkdir(self.path, 0o755)
        try:
            self._limit(memory_mb << 20)
            self._events = os.open(os.path.join(
                self.path, "memory.events" if self.version == 2 else "memory.oom_control"),
                os.O_RDONLY)
        except OSError:
            self._remove()
            raise
        self.procs = os.path.join(self.path, "cgroup.procs")
        """The file the bot's first process writes its id into to join."""
        self._kills = 0
        self._seen = b""
        """The events file's text as :meth:`fault` last read it."""
        self.closed = False

    def _limit(self, size: int) -> None:
        if self.version == 2:
            _write(os.path.join(self.path, "memory.max"), str(size))
            for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                with contextlib.suppress(FileNotFoundError):  # no swap accounting; old kernel
                    _write(os.path.join(self.path, name), value)
            return
        _write(os.path.join(self.path, "memory.limit_in_bytes"), str(size))
        with contextlib.suppress(FileNotFoundError):  # swap not accounted: nothing to bound
            _write(os.path.join(self.path, "memory.memsw.limit_in_bytes"), str(size))

    def kills(self) -> int:
        """How many of the bot's processes the kernel killed for its limit, so far."""
        try:
            return self._parse(os.pread(self._events, 4096, 0))
        except OSError:
            return self._kills

    def _parse(self, events: bytes) -> int:
        """The ``oom_kill`` count of the events file's text ``events``."""
        for line in events.decode(errors="replace").splitlines():
            name, _, value = line.partition(" ")
            if name == "oom_kill" and value.strip().isdigit():
                return int(value)
        return self._kills

    def fault(self) -> str | None:
        """The one-line detail of a memory fault if the limit killed a process of the bot
        since last asked, else None.

        One ``pread`` of the events file kept open; its text is parsed only when it
        differs from the last read (the hosts ask after every call)."""
        if self.closed:
            return None
        try:
            events = os.pread(self._events, 4096, 0)
        except OSError:
            return None
        if events == self._seen:
            return None
        self._seen = events
        kills = self._parse(events)
        if kills <= self._kills:
            return None
        self._kills = kills
        return (f"out of memory: its processes together reached memory_mb "
                f"({self.memory_mb} MB), and the kernel killed "
                f"{'them' if self.version == 2 else 'one'} (the bot's memory cgroup)")

    def pids(self) -> list[int]:
        """The processes in the cgroup now."""
        return [int(p) for p in _read(self.procs).split() if p.isdigit()]

    def close(self, timeout: float = 2.0) -> None:
        """Kill every process left in the cgroup (a worker that left the bot's process
        group, say), then remove it, and the parent with the last bot. Safe to call again."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            os.close(self._events)
        deadline = time.monotonic() + timeout
        while True:
            pids = self.pids()
            if not pids or time.monotonic() > deadline:
                break
            if self.version == 2 and os.path.exists(os.path.join(self.path, "cgroup.kill")):
                with contextlib.suppress(OSError):
                    _write(os.path.join(self.path, "cgroup.kill"), "1")
            else:  # only processes of the bot are listed: it cannot add any
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
            time.sleep(0.002)
        self._remove(deadline)

    def _remove(self, deadline: float = 0.0) -> None:
        while True:
            try:
                os.rmdir(self.path)
                break
            except FileNotFoundError:
                break
            except OSError:  # a killed process not yet gone from it
                if time.monotonic() > deadline:
                    break
                time.sleep(0.002)
        with _lock:
            _remove_parent(self._parent)
