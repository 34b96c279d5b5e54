"""The kernel's accounting of processes and tasks, read from ``/proc`` (Linux).

- ``/proc/PID/stat``: the CPU time of a whole process (every thread) and of its reaped
  children (``utime``, ``stime``, ``cutime``, ``cstime``), in clock ticks; its parent and
  process group;
- ``/proc/PID/schedstat``: for one task, the nanoseconds it ran and the nanoseconds it
  waited on a run queue, ready but not running;
- a process's CPU clock (``clock_gettime``), to the nanosecond.

Per process (:func:`process_clock`, :func:`process_cpu`), per task (:func:`task_times`),
and per tree of processes (:func:`tree_cpu`, :func:`bot_task`). The meter of a decision
(``_cputime``) is built on these readings; nothing here keeps state.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import NamedTuple

__all__ = [
    "CLOCK_TICK",
    "LAUNCHERS",
    "TaskTimes",
    "bot_task",
    "children_cpu",
    "group",
    "group_members",
    "pread",
    "proc_stats",
    "process_alive",
    "process_clock",
    "process_clock_id",
    "process_cpu",
    "read_proc",
    "schedstat_times",
    "split_stat",
    "stat_fields",
    "task_times",
    "tree_cpu",
]

try:
    CLOCK_TICK = 1.0 / os.sysconf("SC_CLK_TCK")
except (AttributeError, ValueError, OSError):  # pragma: no cover - not Linux
    CLOCK_TICK = 0.01
"""Seconds per clock tick, the unit of CPU times in ``/proc/PID/stat``."""


def read_proc(path: str) -> bytes | None:
    """The start of a ``/proc`` file (4096 bytes at most), or None if unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)


def pread(fd: int) -> bytes | None:
    """The start of an open ``/proc`` file, read again from offset 0, or None."""
    try:
        return os.pread(fd, 4096, 0)
    except OSError:
        return None


def split_stat(stat: bytes | None) -> list[bytes] | None:
    """The fields of a ``/proc/PID/stat`` text after the command name, up to ``cstime``."""
    if not stat:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split(maxsplit=15)
    return fields if len(fields) > 15 else None


def stat_fields(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name, or None if unreadable."""
    return split_stat(read_proc(f"/proc/{pid}/stat"))


def _cpu(fields: list[bytes] | None, children: bool = True) -> float | None:
    if fields is None:
        return None
    # fields[0] is field 3 (state); utime, stime, cutime, cstime are fields 14-17
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks * CLOCK_TICK


def children_cpu(fields: list[bytes] | None) -> float | None:
    """CPU seconds of a process's reaped children (``cutime`` + ``cstime``)."""
    if fields is None:
        return None
    return (int(fields[13]) + int(fields[14])) * CLOCK_TICK


def process_clock(pid: int) -> float | None:
    """CPU seconds of process ``pid``, all its threads, to the nanosecond (its CPU clock), or
    None if it has gone. Reaped children are not in it: see :func:`process_cpu`."""
    try:
        return time.clock_gettime(process_clock_id(pid))
    except OSError:
        return None


def process_cpu(pid: int, children: bool = True) -> float | None:
    """CPU seconds of process ``pid``, all its threads (and its reaped children), or None.

    Clock-tick resolution (usually 10 ms): the kernel rounds its exact
    figure down to whole ticks.
    """
    return _cpu(stat_fields(pid), children)


class TaskTimes(NamedTuple):
    """One task's scheduler accounting: seconds it ran and seconds it waited for a CPU.

    A named tuple: a meter makes two at every decision, and a tuple is made faster than a
    frozen dataclass."""

    ran: float
    waited: float


def schedstat_times(data: bytes | None) -> TaskTimes | None:
    parts = data.split() if data else ()
    if len(parts) < 2:
        return None
    return TaskTimes(int(parts[0]) / 1e9, int(parts[1]) / 1e9)


def task_times(path: str) -> TaskTimes | None:
    """A task's :class:`TaskTimes` from its ``schedstat`` file, or None if unreadable."""
    return schedstat_times(read_proc(path))


def proc_stats() -> Iterator[tuple[int, bytes]]:
    """Every process's id and ``/proc/PID/stat`` text (those that went meanwhile left out)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if entry.isdigit() and (stat := read_proc(f"/proc/{entry}/stat")):
            yield int(entry), stat


def group(pgid: int) -> dict[int, tuple[int, bytes]]:
    """The live processes of process group ``pgid``: by process id, its parent's and its
    command name."""
    members = {}
    for pid, stat in proc_stats():
        close = stat.rfind(b")")
        fields = stat[close + 2 :].split(maxsplit=3)
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            members[pid] = (int(fields[1]), stat[stat.find(b"(") + 1 : close])
    return members


def tree_cpu(leader: int, exclude: int) -> float:
    """CPU seconds over their whole lives of every process descended from ``leader`` but
    ``exclude``, with what each has reaped (``cutime`` + ``cstime``).

    Under the sandbox that is every process of the bot's pid namespace, wherever it
    went: a worker that called ``setsid`` is still below the namespace's first
    process, and one that exited is either a zombie (its times still in ``/proc``)
    or in the times its reaper reaped. Found only when the answer is late: counting
    whole lives can only charge the bot more than it spent.
    """
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for pid, stat in proc_stats():
        fields = split_stat(stat)
        if fields is None:
            continue
        children.setdefault(int(fields[1]), []).append(pid)
        times[pid] = _cpu(fields) or 0.0
    total, todo = 0.0, list(children.get(leader, ()))
    if leader != exclude:
        total += times.get(leader, 0.0)
    while todo:
        pid = todo.pop()
        if pid != exclude:
            total += times.get(pid, 0.0)
        todo += children.get(pid, ())
    return total


LAUNCHERS = frozenset({b"bwrap", b"unshare", b"arena-jail"})
"""Programs that start a sandboxed bot and wait for it: the bot is their only descendant."""

def process_clock_id(pid: int) -> int:
    """The clock id of process ``pid``'s CPU time, all its threads (Linux's
    ``MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)``, as ``clock_getcpuclockid`` gives)."""
    return ((~pid) << 3) | 2


def bot_task(leader: int) -> int:
    """The process that runs the bot in the process group led by ``leader``.

    The leader itself, unless it is a sandbox launcher (``bwrap``,
    ``unshare``): then the process its chain of only children leads to
    (live processes of the group). Followed through the kernel's list of each
    launcher's children, a few small reads; where the kernel keeps none, found
    in a scan of every process (:func:`group`).
    """
    task = leader
    while True:
        found = _member(task, leader)
        if found is None or found not in LAUNCHERS:
            return task
        listed = read_proc(f"/proc/{task}/task/{task}/children")  # a launcher has one thread
        if listed is None:
            return _bot_task_scanned(leader)
        children = [pid for pid in map(int, listed.split()) if _member(pid, leader) is not None]
        if len(children) != 1:
            return task
        task = children[0]


def _member(pid: int, pgid: int) -> bytes | None:
    """The command name of ``pid`` if it is a live process of group ``pgid``, else None."""
    stat = read_proc(f"/proc/{pid}/stat")
    if not stat:
        return None
    close = stat.rfind(b")")
    fields = stat[close + 2 :].split(maxsplit=3)
    if len(fields) < 3 or int(fields[2]) != pgid or fields[0] in (b"Z", b"X"):
        return None
    return stat[stat.find(b"(") + 1 : close]


def _bot_task_scanned(leader: int) -> int:
    """:func:`bot_task` from a scan of every process."""
    members = group(leader)
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in members.items():
        children.setdefault(parent, []).append(pid)
    task = leader
    while task in members and members[task][1] in LAUNCHERS and len(children.get(task, ())) == 1:
        task = children[task][0]
    return task


def process_alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its parent counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    state = stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3]
    return state not in (b"Z", b"X")


def group_members(pgid: int) -> list[int]:
    """Live processes in process group ``pgid`` (read from /proc)."""
    return list(group(pgid))
