"""Hosts written to be stopped at any await: each call's deadline becomes a cancel scope."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import trio

from .._faults import BotFault, timeout_fault
from .._limits import Deadline, Limits, start_meter
from ._host import Host, StartInfo

if TYPE_CHECKING:
    from arena.game import View

    from ..sandbox._cputime import Meter

__all__ = ["ScopedHost"]

_T = TypeVar("_T")


class ScopedHost(Host):
    """A host whose calls stay consistent when cancelled at any await (the ``uecda`` host).

    It implements ``_start``, ``_play``, ``_exchange``, ``_end_deal`` and
    ``_observe`` without deadlines, and :meth:`timeout_fault`; each
    :class:`Host` call runs the one under a cancel scope at its deadline
    and, when that scope stopped it, raises the host's timeout fault. The
    fair-clock meter of a decision is started as the call begins, for the
    host's newest process (:meth:`Host.pids`).
    """

    _limits: Limits
    _meter: Meter | None = None

    @property
    def meter(self) -> Meter | None:
        return self._meter

    def timeout_fault(self, call: str, allowed: float) -> BotFault:
        """The fault of a ``call`` stopped at its deadline, which allowed ``allowed``
        seconds (:func:`timeout_fault`'s wording)."""
        return timeout_fault(allowed)

    async def _within(self, call: str, deadline: Deadline, work: Awaitable[_T]) -> _T:
        with trio.CancelScope(deadline=deadline.at):
            return await work
        raise self.timeout_fault(call, deadline.allowed_s)

    def _start_meter(self) -> None:
        pids = self.pids()
        self._meter = start_meter(self._limits, pids[-1], 0.0) if pids else None

    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        await self._within("start", deadline, self._start(info))

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        self._start_meter()
        return await self._within("play", deadline, self._play(view, time_ms))

    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        self._start_meter()
        return await self._within("exchange", deadline, self._exchange(view, count, time_ms))

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:
        await self._within("end_deal", deadline, self._end_deal(result))

    async def observe(self, view: View, kind: str, seat: int, deadline: Deadline) -> None:
        await self._within("observe", deadline, self._observe(view, kind, seat))

    async def _start(self, info: StartInfo) -> None:
        raise NotImplementedError

    async def _play(self, view: View, time_ms: int) -> object:
        raise NotImplementedError

    async def _exchange(self, view: View, count: int, time_ms: int) -> object:
        raise NotImplementedError

    async def _end_deal(self, result: dict[str, Any]) -> None:
        """Nothing, unless the host hears the end of a deal."""

    async def _observe(self, view: View, kind: str, seat: int) -> None:
        """Nothing, unless the host :attr:`~Host.observes`."""
