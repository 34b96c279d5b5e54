"""The scripted host for tests: a bot as a function in memory (:mod:`arena.referee.testing`)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio

from .._faults import BotFault, timeout_fault
from .._limits import Deadline
from .._loading import BotRef
from ._host import Host, StartInfo, _crash_detail

if TYPE_CHECKING:
    from arena.game import View

__all__ = ["MemoryHost"]

Handler = Callable[[dict[str, Any]], "object | Awaitable[object]"]


class MemoryHost(Host):
    """A scripted bot living in memory, for testing the referee without processes.

    ``handler(request)`` gets a request shaped like the protocol's
    (``{"type": "play", "view": View, "time_ms": t}``, ``{"type": "exchange",
    "view": View, "count": n, "time_ms": t}``, ``{"type": "start", ...}``,
    ``{"type": "end_deal", ...}``) and returns the answer, or awaits first:
    a handler that sleeps past the call's deadline is stopped there (a
    ``timeout`` fault), under trio's autojump clock in no real time. A
    handler that raises is a ``crash``; one that raises :class:`BotFault`
    gives that fault.
    """

    kind = "memory"

    def __init__(self, handler: Handler, name: str = "memory") -> None:
        self._handler = handler
        self._meta = BotRef(name, name, "memory", "")
        self.requests: list[dict[str, Any]] = []
        """Every request the referee made, in order."""

    @property
    def meta(self) -> BotRef:
        return self._meta

    async def _ask(self, request: dict[str, Any], deadline: Deadline) -> object:
        self.requests.append(request)
        try:
            with trio.fail_at(deadline.at):
                answer = self._handler(request)
                if inspect.isawaitable(answer):
                    answer = await answer
        except (Exception, SystemExit) as exc:
            raise _memory_fault(exc, deadline.allowed_s) from None
        return answer

    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        await self._ask({"type": "start", "seat": info.seat, "info": info}, deadline)

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        return await self._ask({"type": "play", "view": view, "time_ms": time_ms}, deadline)

    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        return await self._ask({"type": "exchange", "view": view, "count": count,
                                "time_ms": time_ms}, deadline)

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:
        await self._ask({"type": "end_deal", "result": result}, deadline)


def _memory_fault(exc: BaseException, allowed: float) -> BotFault:
    """The one mapping of what a memory host's handler raised to the seat's fault."""
    if isinstance(exc, BotFault):
        return exc
    if isinstance(exc, trio.TooSlowError):
        return timeout_fault(allowed)
    return BotFault("crash", _crash_detail(exc))
