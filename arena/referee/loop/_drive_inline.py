"""The inline driver: plays a :class:`MatchLoop` whose every seat is inline, without awaiting.

:class:`InlineHost.play_now` and ``exchange_now``, arranged for a whole
match: the output routes are installed once, and each call only points
them at the calling bot's tail. The loop applies every rule, as for the
trio driver; an inline call cannot be stopped, so its time is judged after.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from time import perf_counter
from typing import TYPE_CHECKING, Any, cast

from .._faults import BotFault
from ..hosts._host import InlineHost, OutputRoutes

if TYPE_CHECKING:
    from arena.bot import Bot

    from ._loop import MatchLoop

__all__ = ["decide", "play_inline"]


def play_inline(loop: MatchLoop, hosts: Sequence[InlineHost],
                until_deal: int | None = None) -> dict[str, Any]:
    """Play the match of ``loop`` synchronously and return its record; with ``until_deal``,
    stop once that deal (0-based) has ended."""
    wall0 = time.perf_counter()
    with OutputRoutes() as routes:
        for seat in range(len(hosts)):
            _start(loop, hosts[seat], seat)
        decide(loop, hosts, routes, until_deal)
    return loop.record(hosts, wall0)


def _start(loop: MatchLoop, host: InlineHost, seat: int) -> None:
    try:
        host.start_now(loop.start_info(seat))
    except BotFault as fault:
        loop.starts.failed(seat, fault)
    else:
        loop.starts.succeeded(seat)


def decide(loop: MatchLoop, hosts: Sequence[InlineHost], routes: OutputRoutes,
           until_deal: int | None) -> None:
    """Ask the bots every decision of the match (until ``until_deal`` has ended).

    The name and the line that calls a bot are those a crash's traceback quotes in the
    record: kept as they were, so that records stay identical."""
    match = loop.match
    tails = [host.output_tail() for host in hosts]
    bots = cast("list[Bot]", [host.bot for host in hosts])  # None only for refused seats
    clock, view_of = perf_counter, match.deal.view  # the deal's, until it ends
    stdout, stderr = routes.stdout, routes.stderr
    settle = loop.settle
    # The bots started before the first decision: a seat's refusal holds for the match.
    refusals = [loop.refusal(seat) for seat in range(len(hosts))]
    while (decision := match.pending) is not None:
        seat = decision.seat
        fault = refusals[seat]
        if fault is not None:
            ended = settle(decision, None, 0.0, fault)
        else:
            bot = bots[seat]
            view = view_of(seat)
            routes.tail = tails[seat]
            t0 = clock()
            try:
                answer = (bot.play(view) if decision.kind == "play"
                          else bot.exchange(view, decision.count))
            except (Exception, SystemExit) as exc:
                answer, fault = None, hosts[seat].crash("", exc)
            elapsed = clock() - t0
            routes.tail = None
            if sys.stdout is not stdout or sys.stderr is not stderr:
                routes.restore()  # the bot set them itself
            ended = settle(decision, answer, elapsed, fault)
        if ended:
            view_of = match.deal.view
            _end_deal(loop, hosts)
            if until_deal is not None and match.deal_number > until_deal:
                return


def _end_deal(loop: MatchLoop, hosts: Sequence[InlineHost]) -> None:
    for seat, result in loop.deal_results([host.hears_end_deal for host in hosts]):
        try:
            hosts[seat].end_deal_now(result)
        except BotFault as fault:
            loop.end_deal_failed(seat, fault)
