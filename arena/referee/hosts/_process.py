"""The ``process`` and ``command`` hosts: a bot in a child process, behind the protocol."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._faults import BotFault
from .._limits import Deadline, Limits, start_meter
from .._loading import BotRef, command_words, resolve
from ..child._process import ChildProcess
from ..child._protocol import answer_value
from ..child._talk import call_fault, ready_options, start_message
from ..child._wire import DeltaEncoder, FullEncoder
from ..sandbox._sandbox import SandboxUnavailable, sandbox_argv
from ._host import Host, StartInfo

if TYPE_CHECKING:
    from arena.game import View

    from ..sandbox._cputime import Meter

__all__ = ["CommandHost", "ProcessHost", "ProcessPool"]


class ProcessPool:
    """Idle, healthy bot processes kept for the next match of the same bot.

    Starting a Python process and importing a bot costs far more than a
    match's worth of moves for fast bots, so a tournament worker keeps them.
    Only processes that ended their match without a fault come back; each
    serves at most ``max_uses`` matches. A sandboxed process never comes back:
    each match of a competition gets a fresh one, so a bot cannot carry what it
    saw in one match (the deals of a duplicate set) into the next.
    :meth:`close` kills every idle one.
    """

    def __init__(self, max_uses: int = 200) -> None:
        self.max_uses = max_uses
        self._idle: dict[tuple[Any, ...], list[ChildProcess]] = {}
        self._owner = os.getpid()

    def acquire(self, key: tuple[Any, ...]) -> ChildProcess | None:
        """An idle live process for ``key``, or ``None``."""
        idle = self._idle.get(key, [])
        while idle:
            proc = idle.pop()
            if proc.poll() is None:
                return proc
            proc.kill()
        return None

    def release(self, key: tuple[Any, ...], proc: ChildProcess) -> None:
        """Keep ``proc`` for a later match, or kill it if it is spent or dead."""
        proc.uses += 1
        if (proc.closed or proc.sandboxed or proc.poll() is not None
                or proc.uses >= self.max_uses):
            proc.kill()
            return
        self._idle.setdefault(key, []).append(proc)

    def pids(self) -> list[int]:
        """Process ids of the idle processes."""
        return [p.pid for procs in self._idle.values() for p in procs]

    def close(self) -> None:
        """Kill every idle process (and its process group).

        Does nothing in a forked copy of the owning process: those bots are not its own.
        """
        if os.getpid() != self._owner:
            return
        for procs in self._idle.values():
            for proc in procs:
                proc.kill()
        self._idle.clear()


class _ChildHost(Host):
    """Shared logic of the two child-process hosts: restart, requests, faults."""

    def __init__(self, limits: Limits | None, pool: ProcessPool | None,
                 private: Sequence[str] = ()) -> None:
        self._limits = limits or Limits()
        self._private = tuple(private)
        self._pool = pool
        self._proc: ChildProcess | None = None
        self._info: StartInfo | None = None
        self._pids: list[int] = []
        self._faulted = False
        self._views: FullEncoder | DeltaEncoder = FullEncoder()
        self.trace: Callable[[str, bytes], None] | None = None
        """Given to each process this host runs: hears every protocol line (``--trace``)."""
        self._legal_moves = False
        self._end_deal = True
        self._meter: Meter | None = None
        self._sent: float | None = None
        """When the current decision's request went out (``perf_counter``), until its
        meter starts or its answer comes (see :meth:`_waiting`)."""

    # subclasses provide these
    def _argv(self) -> list[str]:
        raise NotImplementedError

    def _stdio(self) -> bool:
        raise NotImplementedError

    def _pool_key(self) -> tuple[Any, ...]:
        return (type(self).__name__, tuple(self._argv()), self._limits.memory_mb,
                self._limits.cpu_s, self._limits.sandbox, self._private)

    def _on_ready(self, message: dict[str, Any]) -> None:
        """Hook: what the bot said about itself when it started."""

    def pids(self) -> list[int]:
        return list(self._pids)

    @property
    def views(self) -> str:
        """The view encoding the bot asked for when it started: ``"full"`` or ``"delta"``."""
        return "delta" if isinstance(self._views, DeltaEncoder) else "full"

    @property
    def process(self) -> ChildProcess | None:
        """The live child process, if any."""
        return self._proc

    @property
    def meter(self) -> Meter | None:
        return self._meter

    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        self._info = info
        await self._launch(deadline)

    async def _launch(self, deadline: Deadline) -> None:
        """Start the bot's process (or take one from the pool) and its match by
        ``deadline``."""
        assert self._info is not None, "start() first"
        proc = self._pool.acquire(self._pool_key()) if self._pool is not None else None
        if proc is None:
            proc = self._spawn()
        else:
            proc.clear_output()
        proc.trace = self.trace
        proc.before_wait = self._waiting if self._limits.lag_ms else None
        self._proc = proc
        self._pids.append(proc.pid)
        try:
            ready = await self._ask(proc, start_message(self._info, proc.new_id()), deadline)
            views, self._legal_moves, self._end_deal = ready_options(ready)
        except BotFault as fault:
            self._drop()  # even a bot that said its start failed: it is not ready
            raise BotFault(fault.kind, "start failed: " + fault.detail) from None
        # A fresh encoder per process start: the bot remembers nothing from before.
        self._views = DeltaEncoder() if views == "delta" else FullEncoder()
        self._on_ready(ready)

    def _spawn(self) -> ChildProcess:
        argv = self._argv()
        try:
            return ChildProcess(
                argv, stdio=self._stdio(), memory_mb=self._limits.memory_mb,
                cpu_s=self._limits.cpu_s,
                sandbox=sandbox_argv(self._private, program=argv,
                                     tmp_mb=self._limits.tmp_mb or self._limits.memory_mb)
                if self._limits.sandbox else None)
        except (SandboxUnavailable, OSError, subprocess.SubprocessError) as exc:
            raise BotFault("crash", f"cannot start {argv[0]!r}: {exc}") from None

    def _drop(self) -> None:
        """Kill the current process; the next request starts a fresh one."""
        if self._proc is not None:
            self._proc.kill()
            self._proc = None
        self._faulted = True

    async def _ask(self, proc: ChildProcess, message: dict[str, Any], deadline: Deadline,
                   decision: bool = False) -> Any:
        """A request and the payload of its answer by ``deadline``; whatever goes wrong is a
        fault (:func:`call_fault`, quoting what the deadline allowed).

        A call after which the limit of the bot's memory cgroup had killed one of its
        processes is a memory fault (:meth:`ChildProcess.memory_fault`), answered or not:
        an answer is checked here, anything else in :func:`call_fault`.
        The process is dropped unless the bot only said its code failed
        (a ``reported`` fault): after a dead process, bytes out of step, or
        a call stopped in the middle, the next request needs a fresh one.
        For a ``decision``, the fair-clock :attr:`meter` starts the first time the
        referee waits for the answer in the event loop (:meth:`_waiting`): an answer that
        comes at once, or within the channel's wait in the kernel
        (:data:`arena.referee.child._channel.WAIT_S`), reads no accounting at all.
        """
        doing = "send"
        in_step = False
        try:
            sent = time.perf_counter()
            await proc.send(message, deadline.at)
            doing = "receive"
            self._sent = sent if decision else None
            answer = await proc.receive(deadline.at)
            over = proc.memory_fault()  # an answer, but a process of the bot was killed
            if over is not None:
                raise over
            in_step = True
            return answer_value(answer, message["type"], message["id"])
        except Exception as exc:
            fault = call_fault(exc, proc, message["type"], doing, deadline.allowed_s)
            in_step = fault.reported
            self._faulted = True  # kept for the rest of the match, never for another
            raise fault from None
        finally:  # an answer out of step, a call stopped in the middle: a fresh process next
            self._sent = None
            if not in_step:
                self._drop()

    def _waiting(self) -> None:
        """The referee is about to wait for a decision's answer in the event loop: start the
        decision's meter, once, counting the time since its request went out as the bot's
        CPU time in full (the ``head`` of :meth:`Meter.start`)."""
        sent, proc = self._sent, self._proc
        if sent is not None and proc is not None:
            self._sent = None
            self._meter = start_meter(self._limits, proc.pid, time.perf_counter() - sent)

    def needs_prepare(self) -> bool:
        return self._proc is None or self._proc.gone()

    async def prepare(self, deadline: Deadline) -> None:
        if self.needs_prepare():
            if self._proc is not None:
                self._drop()
            await self._launch(deadline)

    async def _request(
        self, kind: str, view: View, time_ms: int, deadline: Deadline, count: int | None = None
    ) -> object:
        self._meter = None
        if self._proc is None:  # the referee's prepare() failed, or a caller skipped it
            await self._launch(deadline)
        proc = self._proc
        assert proc is not None
        request_id = proc.new_id()
        message: dict[str, Any] = {"type": kind, "id": request_id, "time_ms": time_ms}
        if count is not None:
            message["count"] = count
        views = self._views
        message[views.field] = views.encode(view)
        if self._legal_moves and kind == "play":
            message["legal"] = [move.text for move in view.legal_moves()]
        return await self._ask(proc, message, deadline, decision=True)

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        return await self._request("play", view, time_ms, deadline)

    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        return await self._request("exchange", view, time_ms, deadline, count)

    @property
    def hears_end_deal(self) -> bool:
        """False for a bot that answered ``ready`` with ``"end_deal": false``."""
        return self._end_deal

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:
        proc = self._proc
        if not self._end_deal or proc is None or proc.poll() is not None:
            return
        sent = False
        try:
            await proc.send({"type": "end_deal", "result": result}, deadline.at)
            sent = True
        except Exception as exc:
            raise call_fault(exc, proc, "end_deal", "send", deadline.allowed_s) from None
        finally:  # gone, or stopped mid-line: out of step either way
            if not sent:
                self._drop()

    async def aclose(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.before_wait = None  # a pooled process keeps no hold on this host
        if self._pool is not None and not self._faulted and proc.poll() is None:
            self._pool.release(self._pool_key(), proc)
        else:
            await proc.quit({"type": "quit"})


class ProcessHost(_ChildHost):
    """Runs a Python bot (registered name or ``module:Class``) in its own child process.

    The child speaks the bot protocol over two dedicated pipes; the bot's
    own stdout and stderr are captured, and their tail is quoted in fault
    details. The child runs in its own session under resource limits and a
    clean environment; on a timeout, a crash or an answer out of step its
    whole process group is killed at once and a fresh process serves the
    seat's next decision. Give a :class:`ProcessPool` to reuse processes
    across matches.
    """

    kind = "process"

    def __init__(
        self,
        ref: str,
        params: dict[str, Any] | None = None,
        *,
        limits: Limits | None = None,
        pool: ProcessPool | None = None,
        python: str | None = None,
        private: Sequence[str] = (),
    ) -> None:
        super().__init__(limits, pool, private)
        self._ref = resolve(ref)
        self._params = dict(params or {})
        self._python = python or sys.executable

    @property
    def meta(self) -> BotRef:
        return self._ref

    def _argv(self) -> list[str]:
        params = json.dumps(self._params, sort_keys=True)
        return [self._python, "-m", "arena.referee.child", "--bot", self._ref.ref,
                "--params", params]

    def _stdio(self) -> bool:
        return False


class CommandHost(_ChildHost):
    """Runs any executable as a bot: its stdin and stdout are the protocol.

    The command line is split like a shell would (``shlex``) but no shell
    runs it. The program's stderr is captured for fault details. Limits,
    process group and clean environment are as for :class:`ProcessHost`;
    note that ``memory_mb`` caps address space, which some runtimes
    (the JVM, V8) reserve generously: raise it or set it to null for them.
    """

    kind = "command"

    def __init__(
        self,
        command: str,
        *,
        limits: Limits | None = None,
        pool: ProcessPool | None = None,
        cwd: str | None = None,
        private: Sequence[str] = (),
    ) -> None:
        super().__init__(limits, pool, private)
        self._command = command_words(command)
        name = os.path.basename(self._command[-1] if len(self._command) > 1 else self._command[0])
        self._meta = BotRef(command, name, "command", "")

    @property
    def meta(self) -> BotRef:
        return self._meta

    def _on_ready(self, message: dict[str, Any]) -> None:
        name, version = message.get("name"), message.get("version")
        self._meta = BotRef(
            self._meta.ref,
            name if isinstance(name, str) and name else self._meta.bot,
            "command",
            version if isinstance(version, str) else str(version or ""),
        )

    def _argv(self) -> list[str]:
        return list(self._command)

    def _stdio(self) -> bool:
        return True
