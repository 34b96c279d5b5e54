"""The referee: plays one match between seated bots and returns its record.

It asks each seat for its decisions under the seat's clock, judges every
answer with ``arena.game`` (the same rules code the bots use), turns every
failure into a recorded fault applied by ``Match.fault`` (the ``on_fault``
policy), and assembles the match record (docs/records.md). Nothing a bot
does can stop it: hosts turn misbehaviour into :class:`BotFault`, and every
host is closed, under a shielded scope, however the match ends.
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import sys
import time
from collections.abc import Awaitable, Callable, Generator, Sequence
from time import perf_counter
from typing import Any, TypeVar, cast

import trio

import arena
from arena.bot import Bot
from arena.game import Card, Deal, Decision, IllegalMove, Match, Move
from arena.records import SCHEMA, get_logger

from ._cputime import Meter
from ._faults import BotFault
from ._host import Host, InlineHost, OutputRoutes, StartInfo
from ._limits import Clock, Limits
from ._process_host import CommandHost, ProcessHost, ProcessPool
from ._spec import MatchSpec, MatchSpecError, Seat
from ._uecda_host import UecdaHost
from .wire import parse_move

__all__ = ["make_host", "play_match", "run_match"]

_log = get_logger("arena.referee")
_T = TypeVar("_T")


def make_host(
    seat: Seat,
    limits: Limits,
    pool: ProcessPool | None = None,
    private: Sequence[str] = (),
) -> Host:
    """The host that ``seat`` asks for (``inline``, ``process``, ``command`` or ``uecda``).

    Raises :class:`MatchSpecError` for a bot that is not installed or a
    command line that cannot be split. ``pool`` lets ``process`` and
    ``command`` bots keep their processes for later matches; ``private``
    paths are hidden from sandboxed bots.
    """
    try:
        if seat.host == "uecda":
            assert seat.command is not None
            return UecdaHost(seat.command, limits=limits)
        if seat.host == "command":
            assert seat.command is not None
            return CommandHost(seat.command, limits=limits, pool=pool, private=private)
        assert seat.name is not None
        if seat.host == "inline":
            return InlineHost(seat.name, dict(seat.params))
        return ProcessHost(seat.name, dict(seat.params), limits=limits, pool=pool,
                           private=private)
    except (LookupError, ValueError) as exc:
        raise MatchSpecError(str(exc)) from None


def _judge_move(answer: object) -> Move:
    if isinstance(answer, Move):
        return answer
    if not isinstance(answer, str):
        raise BotFault("malformed", f"expected a move as text, got {_short(answer)}")
    try:
        return parse_move(answer)
    except Exception as exc:  # whatever the parser trips on, the text is the bot's
        raise BotFault("malformed", f"not a move: {_short(answer)} ({exc})") from None


def _judge_cards(answer: object) -> list[Card]:
    if not isinstance(answer, list | tuple):
        raise BotFault("malformed", f"expected a list of cards, got {_short(answer)}")
    cards = []
    for item in answer:
        if not isinstance(item, Card | str):
            raise BotFault("malformed", f"not a card: {_short(item)}")
        try:
            cards.append(Card.parse(item))
        except Exception as exc:  # whatever the parser trips on, the text is the bot's
            raise BotFault("malformed", f"not a card: {_short(item)} ({exc})") from None
    return cards


def _short(value: object, limit: int = 200) -> str:
    try:
        text = repr(value)
    except Exception:  # a bot's object whose repr fails is still just a bad answer
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


class _DealOver:
    """What the match loop yields when a deal has ended: every bot is to be told."""


_DEAL_OVER = _DealOver()

Reply = tuple[object, float, BotFault | None]
"""A seat's reply to a decision: its raw answer, the seconds it took, or the fault it earned."""


def _send(steps: Generator[Decision | _DealOver, Reply | None, None],
          value: Reply | None) -> Decision | _DealOver | None:
    """The loop's next step after ``value``, or None when the match is over."""
    try:
        return steps.send(value)
    except StopIteration:
        return None


class _Referee:
    def __init__(self, spec: MatchSpec, hosts: Sequence[Host] | None,
                 pool: ProcessPool | None, match: Match | None = None) -> None:
        if not isinstance(spec, MatchSpec):
            raise MatchSpecError(f"a match spec must be arena.referee.MatchSpec, got "
                                 f"{type(spec).__name__} (MatchSpec.from_dict reads plain data)")
        self.spec = spec
        self.limits = spec.limits
        if hosts is None:
            hosts = [make_host(seat, spec.limits, pool, spec.private) for seat in spec.seats]
        elif len(hosts) != len(spec.seats):
            raise MatchSpecError(f"{len(hosts)} hosts for {len(spec.seats)} seats")
        self.hosts = list(hosts)
        self.observers = [seat for seat, host in enumerate(self.hosts) if host.observes]
        """Seats whose host sees every turn (``uecda``); usually none."""
        self.labels = spec.labels
        self.players = len(self.hosts)
        self.clock = Clock(self.limits, self.players)
        self.limits_dict = self.limits.to_dict()
        """The limits as the record and every bot's start see them."""
        self.move_s = self.limits.move_ms / 1000
        self.started = [False] * self.players
        self.start_faults: list[BotFault | None] = [None] * self.players
        self.match = match if match is not None else Match(spec.rules, self.players, spec.seed)
        self.deals: list[dict[str, Any]] = []
        self.decisions = 0

    # -- the one match loop ------------------------------------------------------------------

    def loop(self, decide: Callable[[Decision], Reply] | None = None
             ) -> Generator[Decision | _DealOver, Reply | None, None]:
        """The match, decision by decision: the one loop every way of playing a match runs.

        It yields each pending :class:`Decision`; whoever drives it (the
        trio driver :meth:`run`) asks the seat and sends back its
        :data:`Reply`. A driver that can answer synchronously (:meth:`run_inline`,
        when every seat is inline) passes ``decide`` instead, which the loop
        calls for each decision. The loop judges the answer with
        ``arena.game``, turns every failure into a fault applied by
        ``Match.fault``, keeps the think times, and when a deal ends stores
        its record and yields ``_DEAL_OVER`` so the driver tells every bot
        ``match.result_for(seat)``.
        """
        match = self.match
        think: list[float] = []  # think time (s) of each move of the current deal
        decisions = self.decisions
        deal = match.deal
        while (decision := match.pending) is not None:
            decisions += 1
            if decide is None:
                answer, elapsed, fault = yield decision  # type: ignore[misc]  # a Reply
            else:
                answer, elapsed, fault = decide(decision)
            play = decision.kind == "play"
            if fault is None:
                try:
                    if play:
                        move = answer if answer.__class__ is Move else _judge_move(answer)
                        try:
                            match.play(move)
                        except IllegalMove as exc:
                            raise BotFault("illegal", f"{move}: {exc}") from None
                        think.append(elapsed)  # a play adds exactly one move
                        if match.deal is deal and not deal.finished:
                            continue  # the common case: the deal goes on
                    else:
                        cards = _judge_cards(answer)
                        try:
                            match.give(cards)
                        except IllegalMove as exc:
                            given = " ".join(str(c) for c in cards)
                            raise BotFault("illegal", f"exchange [{given}]: {exc}") from None
                except BotFault as fault_:
                    fault = fault_
            if fault is not None:
                _log.info("fault", match=self.spec.match_id, seat=decision.seat,
                          bot=self.labels[decision.seat], deal=deal.number, kind=fault.kind,
                          detail=fault.detail[:300])
                before = len(deal.moves)
                match.fault(fault.kind, fault.detail)
                if play:  # the fault's move (a pass, the lowest single), or none (a forfeit)
                    think.extend([elapsed] * (len(deal.moves) - before))
            if match.deal is not deal or deal.finished:
                self.decisions = decisions
                self.deals.append(self.finish_deal(match.summary(deal.number), deal, think))
                think = []
                deal = match.deal
                yield _DEAL_OVER
                # A seat that failed to start gets a fresh attempt in the next deal.
                self.start_faults[:] = [None] * self.players
        self.decisions = decisions

    def finish_deal(self, summary: dict[str, Any], deal: Deal,
                    think: list[float]) -> dict[str, Any]:
        """The deal's record (docs/records.md): ``Match.summary()`` with the moves as arrays
        of one entry per move, their think times, and labelled faults."""
        moves = deal.moves
        number = summary["deal"]
        # Whole microseconds: exact, and cheaper to write than fractional milliseconds.
        think_us: list[int | None] = [int(seconds * 1e6 + 0.5) for seconds in think]
        if len(think_us) < len(moves):  # moves without a think time (none so far): null
            think_us += [None] * (len(moves) - len(think_us))
        record: dict[str, Any] = {}
        for key, value in summary.items():  # the summary's order, its moves in their place
            if key == "moves":
                record["movers"] = [seat for seat, _ in moves]
                record["moves"] = [move.text for _, move in moves]
                record["think_us"] = think_us
            elif key == "faults":
                record["faults"] = [{**f, "bot": self.labels[f["seat"]], "deal": number}
                                    for f in value]
            else:
                record[key] = value
        return record

    def record(self, wall0: float) -> dict[str, Any]:
        """The match record (docs/records.md)."""
        spec, match = self.spec, self.match
        return {
            "schema": SCHEMA,
            "type": "match",
            **spec.identity(),
            "rules": spec.rules.to_dict(),
            "seats": [
                {"seat": seat, "label": self.labels[seat], "bot": host.meta.bot,
                 "plugin": host.meta.plugin, "version": host.meta.version, "host": host.kind}
                for seat, host in enumerate(self.hosts)
            ],
            "limits": dict(self.limits_dict),
            "deals": self.deals,
            "scores": list(match.scores),
            "ranking": match.ranking(),
            "decisions": self.decisions,
            "wall_s": round(time.perf_counter() - wall0, 4),
            "arena_version": arena.__version__,
        }

    def start_info(self, seat: int) -> StartInfo:
        return StartInfo(seat, self.players, self.spec.rules, self.spec.match_id, self.labels,
                         self.spec.seed, self.limits_dict)

    def start_failed(self, seat: int, fault: BotFault) -> None:
        self.start_faults[seat] = fault
        _log.warning("bot failed to start", match=self.spec.match_id, seat=seat,
                     bot=self.labels[seat], fault=str(fault))

    def pending_start_fault(self, seat: int) -> BotFault | None:
        """A start failure not yet charged: charged once, to the seat's next decision."""
        pending, self.start_faults[seat] = self.start_faults[seat], None
        return pending

    def late(self, seat: int, elapsed: float, meter: Meter | None = None) -> BotFault | None:
        """Charge the decision to the seat's clock (its own time, with a ``meter``: fair
        clocks): the timeout fault if it was too late."""
        clock = self.clock
        allowed = clock.deadline(seat)
        if clock.charge(seat, elapsed, meter) or not self.hosts[seat].timed:
            return None
        own = clock.charged[seat]
        note = f" (its own time {own * 1000:.0f} ms)" if own < elapsed else ""
        return BotFault("timeout", f"answered after {elapsed * 1000:.0f} ms{note}, over the "
                        f"{allowed * 1000:.0f} ms allowed (answer discarded)")

    # -- driving it when every seat is inline: no event loop at all --------------------------

    def all_inline(self) -> bool:
        return all(type(host) is InlineHost for host in self.hosts)

    def run_inline(self, until_deal: int | None = None) -> dict[str, Any]:
        """Play the match synchronously: every seat is an :class:`InlineHost`.

        With ``until_deal``, stop once that deal (0-based) has ended.
        """
        wall0 = time.perf_counter()
        hosts = cast(list[InlineHost], self.hosts)
        with OutputRoutes() as routes:
            self.play_inline(hosts, routes, until_deal)
        return self.record(wall0)

    def play_inline(self, hosts: list[InlineHost], routes: OutputRoutes,
                    until_deal: int | None) -> None:
        # InlineHost.play_now and exchange_now, arranged for a whole match: the output routes
        # are installed once, and each call only points them at the calling bot's tail.
        match = self.match
        for seat in range(self.players):
            self.start_now(seat)
        started, start_faults = self.started, self.start_faults
        tails = [host.output_tail() for host in hosts]
        # A seat whose bot failed to start is asked nothing (its start fault is charged).
        bots = cast(list[Bot], [host.bot for host in hosts])
        clock = perf_counter
        move_s = self.move_s
        stdout, stderr = routes.stdout, routes.stderr

        def decide(decision: Decision) -> Reply:
            seat = decision.seat
            if start_faults[seat] is not None or not started[seat]:  # as in ask()
                fault = self.pending_start_fault(seat)
                if fault is None:
                    self.start_now(seat)
                    bots[seat] = cast(Bot, hosts[seat].bot)
                    fault = self.pending_start_fault(seat)
                if fault is not None:
                    return None, 0.0, fault
            bot = bots[seat]
            view = match.deal.view(seat)
            routes.tail = tails[seat]
            t0 = clock()
            try:
                answer = (bot.play(view) if decision.kind == "play"
                          else bot.exchange(view, decision.count))
                fault = None
            except (Exception, SystemExit) as exc:
                answer, fault = None, hosts[seat].crash("", exc)
            elapsed = clock() - t0
            routes.tail = None
            if sys.stdout is not stdout or sys.stderr is not stderr:
                routes.restore()  # the bot set them itself
            # Within move_ms the clock has nothing to charge (the bank is untouched).
            if elapsed > move_s:
                fault = fault or self.late(seat, elapsed)
            return answer, elapsed, fault

        steps = self.loop(decide)
        for _ in steps:  # a deal is over: tell the bots
            for seat, host in enumerate(hosts):
                if started[seat] and host.hears_end_deal:
                    try:
                        host.end_deal_now(match.result_for(seat))
                    except BotFault as failure:
                        self.end_deal_failed(seat, failure)
            if until_deal is not None and match.deal_number > until_deal:
                steps.close()
                break

    def start_now(self, seat: int) -> None:
        try:
            cast(InlineHost, self.hosts[seat]).start_now(self.start_info(seat))
        except BotFault as fault:
            self.start_failed(seat, fault)
        else:
            self.started[seat] = True

    def end_deal_failed(self, seat: int, fault: BotFault) -> None:
        _log.info("end_deal failed", match=self.spec.match_id, seat=seat,
                  bot=self.labels[seat], fault=str(fault)[:300])

    # -- driving it with trio: any host ------------------------------------------------------

    async def run(self) -> dict[str, Any]:
        wall0 = time.perf_counter()
        try:
            async with trio.open_nursery() as nursery:
                for seat in range(self.players):
                    nursery.start_soon(self.start, seat)
            steps = self.loop()
            step = next(steps, None)
            while step is not None:
                if isinstance(step, Decision):
                    try:
                        answer, elapsed = await self.ask(step.kind, step.seat, step.count)
                        reply: Reply = (answer, elapsed, None)
                    except BotFault as fault:
                        reply = (None, 0.0, fault)
                    step = _send(steps, reply)
                else:
                    await self.end_deal()
                    step = _send(steps, None)
        finally:
            with trio.CancelScope(shield=True):
                await self.close()
        return self.record(wall0)

    async def call(self, seat: int, what: str, allowed: float,
                   call: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """``call(*args)`` of the seat's host under a deadline ``allowed`` seconds from now.

        The referee owns every deadline: hosts take none, and a call still
        running when it passes is cancelled and becomes the host's
        :meth:`~arena.referee.Host.timeout_fault` for ``what``. A person
        (a host that is not :attr:`~arena.referee.Host.timed`) has no deadline.
        """
        host = self.hosts[seat]
        if not (host.timed and host.preemptible):
            return await call(*args)
        with trio.CancelScope(deadline=trio.current_time() + allowed):
            return await call(*args)
        raise host.timeout_fault(what, allowed)

    async def start(self, seat: int) -> None:
        try:
            await self.call(seat, "start", self.limits.start_ms / 1000, self.hosts[seat].start,
                            self.start_info(seat))
        except BotFault as fault:
            self.start_failed(seat, fault)
        else:
            self.started[seat] = True

    async def ask(self, kind: str, seat: int, count: int) -> tuple[object, float]:
        """The seat's raw answer and the seconds it took; faults propagate."""
        host = self.hosts[seat]
        if self.start_faults[seat] is not None or not self.started[seat]:
            pending = self.pending_start_fault(seat)
            if pending is None:
                await self.start(seat)
                pending = self.pending_start_fault(seat)
            if pending is not None:
                raise pending
        if host.needs_prepare():
            await self.call(seat, "start", self.limits.start_ms / 1000, host.prepare)
        if self.observers:
            await self.show_others(kind, seat)
        view = self.match.deal.view(seat)
        # The referee waits up to the clock's ceiling; the clock then judges the answer by the
        # bot's own time (fair clocks). The meter starts after prepare(): it measures the
        # host's current process.
        ceiling = self.clock.ceiling(seat)
        time_ms = round(max(0.0, self.clock.budget(seat) * 1000))  # what the bot is told
        meter = None
        if host.timed and not host.meters:  # a host that meters starts it once the request is out
            meter = self.clock.meter(host.pids())
        late = False
        t0 = trio.current_time()
        call = host.play(view, time_ms) if kind == "play" else host.exchange(view, count, time_ms)
        try:
            if host.timed and host.keeps_deadline:
                # The host waits in the event loop only for a slow bot, and keeps the
                # deadline there: no cancel scope to enter and leave at every decision.
                host.deadline = t0 + ceiling
                try:
                    answer = await call
                except trio.TooSlowError:
                    late = True
                finally:
                    host.deadline = math.inf
            elif host.timed and host.preemptible:
                # A bare cancel scope: trio.move_on_at is the same behind a generator-based
                # context manager, which costs microseconds at every decision.
                with trio.CancelScope(deadline=t0 + ceiling) as scope:
                    answer = await call
                late = scope.cancelled_caught
            else:  # judged after the fact: it cannot be stopped, or is a person
                answer = await call
        finally:
            elapsed = trio.current_time() - t0
            overdue = None
            if elapsed > self.move_s:  # within move_ms the clock has nothing to charge
                if host.meters:
                    meter = host.meter if host.timed else None
                overdue = self.late(seat, elapsed, meter)
        if late:
            raise host.timeout_fault(kind, ceiling)
        if overdue is not None:
            raise overdue
        return answer, elapsed

    async def show_others(self, kind: str, seat: int) -> None:
        """Let the hosts that watch every turn (``uecda``) see that ``seat`` decides now."""
        for other in self.observers:
            if other == seat or not self.started[other]:
                continue
            try:
                await self.call(other, "observe", self.limits.start_ms / 1000,
                                self.hosts[other].observe, self.match.view(other), kind, seat)
            except BotFault as fault:
                _log.info("observe failed", match=self.spec.match_id, seat=other,
                          bot=self.labels[other], fault=str(fault)[:300])

    async def end_deal(self) -> None:
        """Tell every started bot how the deal ended: only what its seat may know."""
        for seat, host in enumerate(self.hosts):
            if not self.started[seat] or not host.hears_end_deal:
                continue
            try:
                await self.call(seat, "end_deal", self.clock.deadline(seat), host.end_deal,
                                self.match.result_for(seat))
            except BotFault as fault:
                self.end_deal_failed(seat, fault)

    async def close(self) -> None:
        for host in self.hosts:
            try:
                await host.aclose()
            except Exception as exc:  # closing must never lose the record
                _log.warning("closing a bot failed", match=self.spec.match_id, error=repr(exc))


async def play_match(
    spec: MatchSpec,
    *,
    hosts: Sequence[Host] | None = None,
    pool: ProcessPool | None = None,
) -> dict[str, Any]:
    """Play the match that ``spec`` describes and return its record (docs/records.md).

    ``hosts`` replaces the hosts built from ``spec.seats``, one per seat
    (tests pass :class:`MemoryHost` objects); ``pool`` lets ``process`` and
    ``command`` bots keep their processes for later matches. Raises
    :class:`MatchSpecError` for a seat that cannot be hosted; a bot's
    misbehaviour is never an exception, only a fault in the record. When
    every seat is inline the match is played without awaiting anything.
    """
    referee = _Referee(spec, hosts, pool)
    if referee.all_inline():
        return referee.run_inline()
    return await referee.run()


_shared_pool: tuple[int, ProcessPool] | None = None


def _pool() -> ProcessPool:
    """This process's pool; a forked worker gets its own, never its parent's processes."""
    global _shared_pool
    if _shared_pool is None or _shared_pool[0] != os.getpid():
        pool = ProcessPool()
        atexit.register(pool.close)
        _shared_pool = (os.getpid(), pool)
    return _shared_pool[1]


def run_match(
    spec: MatchSpec, *, hosts: Sequence[Host] | None = None, reuse_processes: bool = True
) -> dict[str, Any]:
    """Play one match synchronously and return its record.

    Safe to call in any worker process. A match whose seats are all inline
    runs without an event loop; any other runs under its own ``trio.run``.
    With ``reuse_processes`` (the default) bot processes are kept between
    calls in this process and killed when it exits.
    """
    pool = _pool() if reuse_processes else None
    referee = _Referee(spec, hosts, pool)
    if referee.all_inline():
        return referee.run_inline()
    return trio.run(referee.run)


@contextlib.contextmanager
def process_pool() -> Any:
    """A :class:`ProcessPool` that is closed (its processes killed) on exit."""
    pool = ProcessPool()
    try:
        yield pool
    finally:
        pool.close()
