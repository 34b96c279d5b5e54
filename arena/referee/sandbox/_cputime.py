"""What a bot's process spent of a decision's wall time, as the Linux kernel accounts it.

The referee times a decision by the wall clock. On a machine running more
work than it has cores, that time also holds delays that are not the
bot's: the bot's process was ready to run but waited for a CPU, or the
referee itself waited for a CPU before it read an answer that had already
arrived. The kernel accounts both, per task, in ``/proc`` (read in ``_proctimes``): the CPU
time of a whole process and of its reaped children, and for one task (the process's main
thread) the nanoseconds it ran and the nanoseconds it waited on a run queue, ready but not
running.

A bot cannot fake any of these: they are the kernel's own accounting.
:class:`Meter` reads them when a decision starts (the process host starts it
only once the referee must wait for the answer, counting the time before as
the bot's CPU time: a quick answer reads nothing) and, only if the answer
came late, again when it ended, and says how much of the wall time was the
bot's own (:meth:`Meter.own_time`): the larger of its CPU time and the
wall time less its run-queue wait and the referee's. Anything the meter
cannot see counts against the bot, never for it (see the method). On a
system without ``/proc`` there is no meter and the wall clock decides
alone.
"""

from __future__ import annotations

import contextlib
import io
import os
import threading
import time

from ._proctimes import (
    TaskTimes,
    bot_task,
    children_cpu,
    pread,
    process_clock,
    process_clock_id,
    schedstat_times,
    split_stat,
    stat_fields,
    task_times,
    tree_cpu,
)

__all__ = ["Meter"]


class _Files:
    """The open ``/proc`` files of one bot process, read again and again with ``pread``.

    Opening a file costs more than reading it. A decision's meter starts by
    reading the process's CPU clock (``clock_gettime``: nanoseconds, every
    thread, a fraction of a ``stat`` read) and its ``schedstat``; ``stat``
    is read only for a late answer, for the CPU time of reaped children.
    ``children`` is that figure as last read (and ``tree`` the CPU time of the bot's
    other processes): a meter counts the children's
    time since then, which can only be more than since the decision began.
    """

    __slots__ = ("children", "clock", "pid", "sched", "stat", "tree")

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.clock = process_clock_id(pid)
        self.stat = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
        try:
            self.sched = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY)
            children = children_cpu(split_stat(pread(self.stat)))
            if children is None:
                raise OSError("unreadable stat")
            self.children = children
            self.tree: float | None = None
            """:func:`tree_cpu` and ``children`` as last read together (None: not yet)."""
        except OSError:
            self.close()
            raise

    def close(self) -> None:
        for fd in (self.stat, self.sched):
            with contextlib.suppress(OSError):
                os.close(fd)


_bot_files: dict[int, _Files] = {}
"""By process group leader: the bot's process and its open files."""

_KEEP = 64
"""Bots whose files stay open; more are all closed (their processes have mostly gone)."""


def _files(leader: int) -> _Files | None:
    """The bot's open files for the group ``leader`` leads (found once), or None."""
    files = _bot_files.get(leader)
    if files is None:
        if len(_bot_files) >= _KEEP:
            for stale in _bot_files.values():
                stale.close()
            _bot_files.clear()
        try:
            files = _bot_files[leader] = _Files(bot_task(leader))
        except OSError:
            return None
    return files


def _forget(leader: int) -> None:
    files = _bot_files.pop(leader, None)
    if files is not None:
        files.close()


class _OwnFile(threading.local):
    """The calling thread's ``schedstat``, kept open: one per referee thread (a Dask worker
    plays matches in several), closed when the thread ends, and forgotten in a forked
    child, whose threads are new tasks."""

    file: io.FileIO | None = None


_own = _OwnFile()


def _forget_own() -> None:
    global _own
    _own = _OwnFile()  # the parent's descriptor names the parent's thread: not ours


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_own)


def _own_times() -> TaskTimes | None:
    """The calling thread's (the referee's) :class:`TaskTimes`, from a file kept open."""
    file = _own.file
    if file is None:
        try:
            file = _own.file = io.FileIO("/proc/thread-self/schedstat")
        except OSError:
            return None
    return schedstat_times(pread(file.fileno()))


class Meter:
    """Scheduler accounting of one decision: the bot's process and the referee's own thread.

    Start it once the request is out (:meth:`start`, the time since then its
    ``head``), at the latest before the referee waits for the answer; call
    :meth:`own_time` after the answer, only when the wall time was over
    the deadline (it reads ``/proc`` again, and on that path also looks for
    the bot's other processes).
    """

    __slots__ = ("_children0", "_cpu0", "_head", "_leader", "_pid", "_referee0", "_task0", "cpu",
                 "lag", "waited")

    def __init__(self, leader: int, pid: int, cpu0: float, task0: TaskTimes,
                 referee0: TaskTimes | None, children0: float | None = None,
                 head: float = 0.0) -> None:
        """``cpu0`` is :func:`process_clock` of ``pid``, ``task0`` its :func:`task_times`,
        ``referee0`` the referee thread's, at the decision's start; ``children0`` the CPU
        time of its reaped children as last read (None: not counted); ``head`` seconds
        of the decision had passed when these were read, all counted as the bot's CPU time."""
        self._head = head
        self._leader = leader
        self._pid = pid
        self._children0 = children0
        self._cpu0 = cpu0
        self._task0 = task0
        self._referee0 = referee0
        self.cpu = 0.0
        """CPU seconds the bot spent on the decision (after :meth:`own_time`)."""
        self.waited = 0.0
        """Seconds the bot's main thread waited for a CPU (after :meth:`own_time`)."""
        self.lag = 0.0
        """Seconds the referee's thread waited for a CPU (after :meth:`own_time`)."""

    @classmethod
    def start(cls, leader: int, head: float = 0.0) -> Meter | None:
        """A meter of the bot whose process group ``leader`` leads, or None if unreadable.

        ``head``: seconds since the decision began (the request was written), when
        the meter starts after that: they count as the bot's CPU time, in full."""
        files = _files(leader)
        if files is None:
            return None
        try:
            cpu0: float | None = time.clock_gettime(files.clock)
        except OSError:
            cpu0 = None
        task0 = schedstat_times(pread(files.sched))
        if cpu0 is None or task0 is None:
            _forget(leader)
            return None
        return cls(leader, files.pid, cpu0, task0, _own_times(), files.children, head)

    def own_time(self, elapsed: float) -> float:
        """Seconds of ``elapsed`` (the decision's wall time) that were the bot's own.

        The larger of two figures, each of which a bot cannot shrink:

        - the CPU time of all the bot's processes during the decision (its
          threads and reaped children exactly, every other process descended
          from its launcher since the last late answer, or over its whole
          life at the first: under the sandbox, all of its pid namespace,
          detached workers included; :func:`tree_cpu`);
        - the wall time less the time the bot's main thread waited on a
          run queue and the time the referee's own thread did (it could not
          read an answer that had come while it waited for a CPU), less
          nothing of what its other processes ran meanwhile: waiting for
          one's own workers is not forgiven.

        A bot that sleeps or blocks waits on no run queue, so it is charged
        the wall time; one that spins is charged its CPU time, which on a
        free CPU is the wall time too. Readings that fail (the process has
        gone) leave the wall time charged.
        """
        cpu1 = process_clock(self._pid)
        children = children_cpu(stat_fields(self._pid))
        task1 = task_times(f"/proc/{self._pid}/schedstat")
        if cpu1 is None or children is None or task1 is None:
            return elapsed
        reaped = 0.0
        files = _bot_files.get(self._leader)
        if files is not None and files.pid != self._pid:
            files = None
        if self._children0 is not None:  # since it was last read: never less than since t0
            reaped = max(0.0, children - self._children0)
            if files is not None:
                files.children = children
        # The other processes' time and what the bot reaped, since last read (the other
        # processes' whole lives the first time). Under the sandbox the sum only grows: a
        # process's time moves into its reaper's, both counted here.
        tree = tree_cpu(self._leader, exclude=self._pid) + children
        if files is None or files.tree is None:
            others = tree - children + reaped
        else:
            others = max(0.0, tree - files.tree)
        if files is not None:
            files.tree = tree
        main_ran = task1.ran - self._task0.ran
        self.cpu = max(cpu1 - self._cpu0, main_ran) + self._head + others
        self.waited = max(0.0, task1.waited - self._task0.waited)
        referee1 = _own_times() if self._referee0 is not None else None
        if referee1 is not None and self._referee0 is not None:
            self.lag = max(0.0, referee1.waited - self._referee0.waited)
        # While the bot's other processes ran, a wait for the CPU was the bot's own doing:
        # only the rest of the waiting is forgiven.
        forgiven = max(0.0, self.waited + self.lag - others)
        return min(elapsed, max(self.cpu, elapsed - forgiven))
