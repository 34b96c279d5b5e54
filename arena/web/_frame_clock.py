"""One timer for the spectators' frames (docs/web.md, "How much one server holds").

Each spectator's socket waits for its next frame (``_socket.FRAME_S`` and longer); with a
timer of its own, 200 sockets were 250 timers a second, each a cancelled scope and a
``Cancelled`` raised and caught in trio. :func:`sleep_until` rounds a deadline up to the next
``GRAIN`` and every socket due in one grain waits on one event, which one task of the run sets:
at most ``1 / GRAIN`` timers a second, however many sockets follow.
"""

from __future__ import annotations

import math

import trio

from ._service import run_service

__all__ = ["GRAIN", "sleep_until"]

GRAIN = 0.05
"""The clock's resolution (seconds): a deadline is rounded up to a multiple of it."""


class _Clock:
    """The events of the grains someone waits for, set by one task (:meth:`run`) as their
    time comes."""

    def __init__(self) -> None:
        self.due: dict[int, trio.Event] = {}
        self.sleeping: trio.CancelScope | None = None
        self.wanted = trio.Event()

    def event(self, slot: int) -> trio.Event:
        """The event set once grain ``slot`` has begun."""
        event = self.due.get(slot)
        if event is None:
            event = self.due[slot] = trio.Event()
            if self.sleeping is not None:
                self.sleeping.deadline = min(self.sleeping.deadline, slot * GRAIN)
            self.wanted.set()
        return event

    async def run(self) -> None:
        while True:
            if not self.due:
                await self.wanted.wait()
            self.wanted = trio.Event()
            with trio.CancelScope(deadline=min(self.due) * GRAIN) as self.sleeping:
                await trio.sleep_forever()
            self.sleeping = None
            now = trio.current_time()
            for slot in [s for s in self.due if s * GRAIN <= now]:
                self.due.pop(slot).set()


_CLOCK: trio.lowlevel.RunVar[_Clock] = trio.lowlevel.RunVar("arena.web.frame_clock")


async def sleep_until(deadline: float) -> None:
    """Sleep until ``deadline`` (trio's clock) or up to ``GRAIN`` later, on the run's one
    frame clock; a checkpoint at once for a deadline passed."""
    if deadline <= trio.current_time():
        await trio.lowlevel.checkpoint()
        return
    clock = run_service(_CLOCK, _Clock, "arena.web.frame_clock")
    await clock.event(math.ceil(deadline / GRAIN)).wait()
