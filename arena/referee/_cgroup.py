"""A memory cgroup per bot: ``memory_mb`` bounds all of a bot's processes together.

``RLIMIT_AS`` bounds each process of a bot; a bot that forks N workers may
use N times ``memory_mb``. Where the machine lets arena make cgroups with the
memory controller (as root on most machines and in containers given their own
cgroup), every bot process tree gets one: its first process joins it between
fork and exec (:func:`arena.referee._child_process.limit_setter`), so every
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
from dataclasses import dataclass

__all__ = ["CGROUP_ENV", "Controller", "MemoryCgroup", "controller", "find", "memory_bound",
           "unavailable_reason"]

CGROUP_ENV = "ARENA_CGROUP"
"""``none`` (no memory cgroup), or the folder of a cgroup to make the arena parent in;
unset: found (v2 first, else v1)."""

_PREFIX = "arena-"


@dataclass(frozen=True, slots=True)
class Controller:
    """A writable memory controller: cgroup ``version`` (1 or 2), and ``base``, the folder
    in which this process makes its arena parent."""

    version: int
    base: str

    def parent(self) -> str:
        """This process's arena parent (it may not exist yet)."""
        return os.path.join(self.base, f"{_PREFIX}{os.getpid()}-{_start_time(os.getpid())}")


def _start_time(pid: int) -> str:
    """The start time of process ``pid`` in clock ticks since boot (``/proc/PID/stat``
    field 22), or ``""`` if it has gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return ""
    fields = stat[stat.rfind(b")") + 2 :].split()
    return fields[19].decode() if len(fields) > 19 else ""


def _read(path: str) -> str:
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return ""


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _mounts(mountinfo: str) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    """(root, mount point) of the first cgroup v2 mount and of the first v1 mount with the
    memory controller, from ``/proc/self/mountinfo``'s text."""
    v2 = v1 = None
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        where = (fields[3], fields[4].replace("\\040", " "))
        if tail[0] == "cgroup2" and v2 is None:
            v2 = where
        elif tail[0] == "cgroup" and "memory" in tail[2].split(",") and v1 is None:
            v1 = where
    return v2, v1


def _own(cgroups: str) -> tuple[str | None, str | None]:
    """This process's cgroup v2 path and v1 memory path, from ``/proc/self/cgroup``."""
    v2 = v1 = None
    for line in cgroups.splitlines():
        number, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        if number == "0" and names == "":
            v2 = path
        elif "memory" in names.split(","):
            v1 = path
    return v2, v1


def _folder(mount: tuple[str, str], path: str) -> str | None:
    """The folder of cgroup ``path`` under ``mount`` (its root, its mount point), or None
    when the mount does not show it."""
    root, point = mount
    root = root.rstrip("/")
    if root and path != root and not path.startswith(root + "/"):
        return None
    folder = os.path.normpath(point + "/" + path[len(root):])
    return folder if folder.startswith(point.rstrip("/")) else None


def _v2_base(folder: str, top: bool) -> Controller | str:
    """The controller whose arena parent goes beside the v2 cgroup in ``folder`` (``top``:
    the root of its mount), or why not."""
    if "memory" not in _read(os.path.join(folder, "cgroup.controllers")).split():
        return "cgroup v2: no memory controller for arena's cgroup"
    if "memory" in _read(os.path.join(folder, "cgroup.subtree_control")).split():
        base = folder  # the root, or a cgroup that hands the controller down already
    elif top:  # a container's own tree: its root holds processes, so hands nothing down
        return ("cgroup v2: arena runs in the root of its cgroup tree, which holds processes "
                "and so cannot hand the memory controller down")
    else:
        base = os.path.dirname(folder)
        if "memory" not in _read(os.path.join(base, "cgroup.subtree_control")).split():
            return "cgroup v2: the memory controller is not enabled beside arena's cgroup"
    if not os.access(base, os.W_OK):
        return f"cgroup v2: {base} is not writable"
    return Controller(2, base)


def find(mountinfo: str, cgroups: str, choice: str = "") -> Controller | str:
    """The memory controller that ``/proc/self/mountinfo`` and ``/proc/self/cgroup`` (their
    texts) show, or one line saying why none is usable; ``choice`` is ``ARENA_CGROUP``.

    Only reads the files; :func:`controller` then tries it."""
    if choice.lower() in ("none", "off"):
        return f"{CGROUP_ENV}={choice}"
    if choice:
        path = os.path.abspath(choice)
        if os.path.isfile(os.path.join(path, "memory.max")):
            return Controller(2, path)
        if os.path.isfile(os.path.join(path, "memory.limit_in_bytes")):
            return Controller(1, path)
        return f"{CGROUP_ENV}={choice} is not a memory cgroup"
    (v2_mount, v1_mount), (v2_path, v1_path) = _mounts(mountinfo), _own(cgroups)
    reasons = []
    if v2_mount is not None and v2_path is not None:
        folder = _folder(v2_mount, v2_path)
        found = (_v2_base(folder, folder == os.path.normpath(v2_mount[1])) if folder
                 else "cgroup v2: arena's cgroup is not mounted here")
        if isinstance(found, Controller):
            return found
        reasons.append(found)
    else:
        reasons.append("no cgroup v2")
    if v1_mount is not None and v1_path is not None:
        folder = _folder(v1_mount, v1_path)
        if folder is None or not os.path.isfile(os.path.join(folder, "memory.limit_in_bytes")):
            reasons.append("cgroup v1: arena's memory cgroup is not mounted here")
        elif not os.access(folder, os.W_OK):
            reasons.append(f"cgroup v1: {folder} is not writable")
        else:
            return Controller(1, folder)
    else:
        reasons.append("no cgroup v1 memory controller")
    return "; ".join(reasons)


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
            text = os.pread(self._events, 4096, 0).decode()
        except OSError:
            return self._kills
        for line in text.splitlines():
            name, _, value = line.partition(" ")
            if name == "oom_kill" and value.strip().isdigit():
                return int(value)
        return self._kills

    def fault(self) -> str | None:
        """The one-line detail of a memory fault if the limit killed a process of the bot
        since last asked, else None."""
        if self.closed:
            return None
        kills = self.kills()
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
