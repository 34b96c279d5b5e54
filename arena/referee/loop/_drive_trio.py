"""The trio driver: plays a :class:`MatchLoop` with any hosts, each call under its deadline.

It starts every seat's bot at once, then asks each pending decision of its
seat's host with the decision's :class:`Deadline` as an argument, made here once
(``Clock.deadline``: the seat's clock ceiling from now, and what it allows; none
for a seat without a clock), and hands the reply to the loop. The hosts enforce
their deadlines; the loop judges the time. Every host is closed, under a
shielded scope, however the match ends.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import trio

from arena.records import get_logger

from .._faults import BotFault
from .._limits import NO_DEADLINE, Deadline

if TYPE_CHECKING:
    from arena.game import Decision

    from ..hosts._host import Host
    from ..sandbox._cputime import Meter
    from ._loop import MatchLoop

__all__ = ["play_trio"]

_log = get_logger("arena.referee")

Reply = tuple[object, float, "BotFault | None", "Meter | None"]
"""What came of asking a seat: its raw answer, the seconds it took, the fault its host
raised, the fair-clock meter of the call."""


async def play_trio(loop: MatchLoop, hosts: Sequence[Host]) -> dict[str, Any]:
    """Play the match of ``loop`` with ``hosts`` (one per seat) and return its record."""
    wall0 = time.perf_counter()
    driver = _TrioDriver(loop, hosts)
    try:
        async with trio.open_nursery() as nursery:
            for seat in range(len(hosts)):
                nursery.start_soon(driver.start, seat)
        while (decision := loop.pending) is not None:
            if loop.settle(decision, *await driver.ask(decision)):
                await driver.end_deal()
    finally:
        with trio.CancelScope(shield=True):
            await driver.close()
    return loop.record(hosts, wall0)


class _TrioDriver:
    def __init__(self, loop: MatchLoop, hosts: Sequence[Host]) -> None:
        self.loop = loop
        self.hosts = hosts
        self.observers = [seat for seat, host in enumerate(hosts) if host.observes]
        """Seats whose host sees every turn (``uecda``); usually none."""
        self.start_s = loop.spec.limits.start_ms / 1000

    def by(self, seat: int, seconds: float) -> Deadline:
        """The deadline of a call to the seat's host that may take ``seconds`` from now."""
        if not self.hosts[seat].timed:
            return NO_DEADLINE
        return Deadline.after(trio.current_time(), seconds)

    async def start(self, seat: int) -> None:
        starts = self.loop.starts
        try:
            await self.hosts[seat].start(self.loop.start_info(seat), self.by(seat, self.start_s))
        except BotFault as fault:
            starts.failed(seat, fault)
        else:
            starts.succeeded(seat)

    async def ask(self, decision: Decision) -> Reply:
        loop, seat = self.loop, decision.seat
        host = self.hosts[seat]
        refusal = loop.refusal(seat)
        if refusal is not None:
            return None, 0.0, refusal, None
        try:
            if host.needs_prepare():  # outside the decision's clock
                await host.prepare(self.by(seat, self.start_s))
        except BotFault as failure:
            return None, 0.0, failure, None
        if self.observers:
            await self.show_others(decision.kind, seat)
        view = loop.match.deal.view(seat)
        time_ms = loop.time_ms(seat)
        t0 = trio.current_time()
        deadline = loop.clock.deadline(seat, t0) if host.timed else NO_DEADLINE
        fault = None
        try:
            if decision.kind == "play":
                answer = await host.play(view, time_ms, deadline)
            else:
                answer = await host.exchange(view, decision.count, time_ms, deadline)
        except BotFault as fault_:
            answer, fault = None, fault_
        return answer, trio.current_time() - t0, fault, host.meter

    async def show_others(self, kind: str, seat: int) -> None:
        """Let the hosts that watch every turn (``uecda``) see that ``seat`` decides now."""
        loop = self.loop
        for other in self.observers:
            if other == seat or not loop.starts.started[other]:
                continue
            try:
                await self.hosts[other].observe(loop.match.view(other), kind, seat,
                                                self.by(other, self.start_s))
            except BotFault as fault:
                _log.info("observe failed", match=loop.spec.match_id, seat=other,
                          bot=loop.spec.labels[other], fault=str(fault)[:300])

    async def end_deal(self) -> None:
        """Tell every started bot how the deal ended: only what its seat may know."""
        loop, hosts = self.loop, self.hosts
        for seat, result in loop.deal_results([host.hears_end_deal for host in hosts]):
            try:
                await hosts[seat].end_deal(result, self.by(seat, loop.clock.allowed(seat)))
            except BotFault as fault:
                loop.end_deal_failed(seat, fault)

    async def close(self) -> None:
        for host in self.hosts:
            try:
                await host.aclose()
            except Exception as exc:  # closing must never lose the record
                _log.warning("closing a bot failed", match=self.loop.spec.match_id,
                             error=repr(exc))
