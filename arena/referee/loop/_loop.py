"""The match, decision by decision, with no I/O: the one loop every driver runs.

:class:`MatchLoop` is sans-I/O in the way of hypercorn's protocols: it never
awaits and never calls a bot. A driver (the trio driver for any host, the
inline driver for a table of inline bots) takes :attr:`MatchLoop.pending`,
asks the seat however it asks, and hands back what came of it with
:meth:`MatchLoop.settle`: the raw answer, the seconds it took, the fault
the host raised, the fair-clock meter. The loop applies every rule: a seat
whose bot did not start is charged its start fault instead of being asked
(:meth:`MatchLoop.refusal`), the seat's clock judges the time, ``arena.game``
judges the answer, every failure becomes ``Match.fault`` (the ``on_fault``
policy), and a deal that ends is recorded (:class:`RecordBuilder`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena.game import (
    AnswerError,
    Decision,
    IllegalMove,
    Match,
    Move,
    give_cards,
    play_move,
    restore_docstrings,
)
from arena.records import MAX_DETAIL, clip, get_logger

from .._faults import BotFault, timeout_fault
from .._limits import Clock
from ..child._wire import parse_move
from ..hosts._host import StartInfo
from ._record import RecordBuilder
from ._starts import Starts
from ._watch import PublicFeed

if TYPE_CHECKING:
    from .._spec import MatchSpec
    from ..hosts._host import Host
    from ..sandbox._cputime import Meter
    from ._watch import Watch

__all__ = ["MatchLoop"]

_log = get_logger("arena.referee")


class MatchLoop:
    """One match's rules and state, fed the seats' replies by a driver.

    ``timed[seat]`` says whether the seat plays under the clock (``Host.timed``); ``watch``
    receives the match's public events as they happen (:mod:`._watch`).
    """

    def __init__(self, spec: MatchSpec, timed: Sequence[bool], match: Match | None = None,
                 watch: Watch | None = None) -> None:
        players = len(timed)
        self.spec = spec
        self.match = match if match is not None else Match(spec.rules, players, spec.seed)
        self.clock = Clock(spec.limits, players)
        self.timed = list(timed)
        self.starts = Starts(spec, players)
        self.records = RecordBuilder(spec)
        self.move_s = self.clock.move_s
        """Within this the clock has nothing to charge (the bank is untouched)."""
        self.decisions = 0
        self._think: list[float] = []  # think time (s) of each move of the current deal
        self._deal = self.match.deal
        self._feed: PublicFeed | None = None
        if watch is not None:  # an unwatched match pays one test a decision for it
            self._feed = PublicFeed(spec, self.match, watch)

    @property
    def pending(self) -> Decision | None:
        """The decision to ask for now, or None when the match is over."""
        return self.match.pending

    def refusal(self, seat: int) -> BotFault | None:
        """The fault charged instead of asking ``seat`` (its bot did not start), or None."""
        return self.starts.fault(seat)

    def time_ms(self, seat: int) -> int:
        """What the seat's bot is told it has for this decision."""
        return round(max(0.0, self.clock.budget(seat) * 1000))

    def settle(self, decision: Decision, answer: object, elapsed: float,
               fault: BotFault | None, meter: Meter | None = None) -> bool:
        """Apply the seat's reply to ``decision``: its raw ``answer``, the ``elapsed``
        seconds, the ``fault`` its host raised (it wins over the clock's), the fair-clock
        ``meter``; then, in a watched match, the public events of what it changed. True
        when this ended a deal: the driver then tells the bots (:meth:`deal_results`)."""
        ended = self._apply(decision, answer, elapsed, fault, meter)
        feed = self._feed
        if feed is not None:
            if decision.kind == "exchange":
                feed.returned(decision.seat, decision.count)
            feed.after()
        return ended

    def _apply(self, decision: Decision, answer: object, elapsed: float,
               fault: BotFault | None, meter: Meter | None) -> bool:
        """:meth:`settle` without the public events."""
        self.decisions += 1
        if elapsed > self.move_s:  # within move_ms the clock has nothing to charge
            overdue = self.late(decision.seat, elapsed, meter)
            fault = fault or overdue
        match, deal = self.match, self._deal
        play = decision.kind == "play"
        if fault is None:
            try:  # the one judge of an answer (arena.game), the engine's reasons
                if play:
                    if answer.__class__ is Move:  # play_move's common case, without its call
                        try:
                            match.play(answer)  # a Move: checked above
                        except IllegalMove:  # unchanged: play_move says why, in its words
                            play_move(match, answer, parse_move)
                    else:
                        play_move(match, answer, parse_move)
                    self._think.append(elapsed)  # a play adds exactly one move
                    if match.deal is deal and not deal.finished:
                        return False  # the common case: the deal goes on
                else:
                    give_cards(match, answer)
            except AnswerError as exc:
                fault = BotFault(exc.kind, str(exc))
        if fault is not None:
            self._fault(decision, fault, elapsed if play else None)
        if match.deal is deal and not deal.finished:
            return False
        self.records.add_deal(match.summary(deal.number), deal, self._think)
        self._think = []
        self._deal = match.deal
        return True

    def _fault(self, decision: Decision, fault: BotFault, elapsed: float | None) -> None:
        """Apply the fault policy; a play's fault move (a pass, the lowest single) gets the
        decision's think time, a forfeit none."""
        deal = self._deal
        _log.info("fault", match=self.spec.match_id, seat=decision.seat,
                  bot=self.spec.labels[decision.seat], deal=deal.number, kind=fault.kind,
                  detail=fault.detail[:300])
        if self._feed is not None:
            self._feed.fault(decision.seat, fault.kind, decision.kind)
        before = len(deal.moves)
        self.match.fault(fault.kind, clip(fault.detail, MAX_DETAIL))  # as the record keeps it
        if elapsed is not None:
            self._think.extend([elapsed] * (len(deal.moves) - before))

    def late(self, seat: int, elapsed: float, meter: Meter | None = None) -> BotFault | None:
        """Charge the decision to the seat's clock (its own time, with a ``meter``: fair
        clocks): the timeout fault if it was too late. A seat without a clock is never."""
        clock, timed = self.clock, self.timed[seat]
        allowed = clock.allowed(seat)  # before the charge spends the bank
        if clock.charge(seat, elapsed, meter if timed else None) or not timed:
            return None
        return timeout_fault(allowed, elapsed, clock.charged[seat])

    def deal_results(self, hears: Sequence[bool]) -> list[tuple[int, dict[str, Any]]]:
        """``(seat, match.result_for(seat))`` for each started seat whose host wants the
        end of a deal (``hears[seat]``): only what its seat may know."""
        started = self.starts.started
        return [(seat, self.match.result_for(seat)) for seat in range(len(hears))
                if started[seat] and hears[seat]]

    def start_info(self, seat: int) -> StartInfo:
        """What the seat's host needs to start its bot."""
        spec = self.spec
        return StartInfo(seat, len(self.timed), spec.rules, spec.match_id, spec.labels,
                         spec.seed, self.records.limits)

    def record(self, hosts: Sequence[Host], wall0: float) -> dict[str, Any]:
        """The match record (docs/records.md), ``wall0`` being when the match began
        (``time.perf_counter()``)."""
        return self.records.record(self.match, hosts, self.decisions, wall0)

    def end_deal_failed(self, seat: int, fault: BotFault) -> None:
        """A bot that failed to hear the end of a deal: logged, never charged."""
        _log.info("end_deal failed", match=self.spec.match_id, seat=seat,
                  bot=self.spec.labels[seat], fault=str(fault)[:300])


restore_docstrings({"MatchLoop": MatchLoop})  # compiled, the class has lost its docstring
