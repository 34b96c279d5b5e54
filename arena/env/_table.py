"""One match played one decision at a time, for the environments: the seat to move, its
observation and legal-action mask, actions judged as the referee judges answers, and the
points each finished deal gives.

The PettingZoo, Gymnasium and OpenSpiel environments all drive their match through a
:class:`Table`, so they agree on what an action does, on faults and on rewards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from arena.game import (
    AnswerError,
    Card,
    IllegalMove,
    Match,
    Move,
    Rules,
    View,
    give_cards,
    lowest_cards,
    play_move,
)
from arena.seeds import SEED_LIMIT, derive, secret_seed

from ._encoding import Encoding, Observation, PlayedCards, encoding

__all__ = ["Table", "default_exchange", "match_rules", "series_seed"]


def default_exchange(view: View, count: int) -> list[Card]:
    """The ``count`` lowest cards, as :meth:`arena.Bot.exchange` gives by default."""
    return lowest_cards(view.hand, count)


def _any_seat_default(seat: int, view: View, count: int) -> list[Card]:
    return default_exchange(view, count)


def match_rules(preset: str, options: dict[str, object]) -> Rules:
    """The rules of ``preset`` with ``options``, a ``ValueError`` naming a bad one."""
    return Rules.preset(preset, **options)


def series_seed(seed: int | None, resets: int, base: int) -> tuple[int, int]:
    """``(match seed, base)`` of an environment's reset: ``reset(seed=s)`` plays the match
    seeded ``s`` (the match ``arena match --seed s`` plays) and makes ``s`` the base; the
    ``k``-th reset after it without a seed plays ``derive(s, "match", k)``. An environment
    never seeded starts from a secret base."""
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not (
                0 <= seed < SEED_LIMIT):
            raise ValueError(f"a seed is an integer in 0 .. 2**63 - 1, not {seed!r}")
        return int(seed), int(seed)
    if base < 0:
        base = secret_seed()
    return derive(base, "match", resets), base


class Table:
    """A match between ``players`` seats, advanced by actions.

    Every exchange return is settled by ``exchange(seat, view, count)`` as soon as it is
    pending, so the match waits only for moves. :attr:`points` holds, per seat, the points of
    the deals finished by the last action (all 0 when none finished, and then
    :attr:`deal_ended` is false).
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Table:
        # ``copy.deepcopy`` (OpenSpiel's clone of a state) makes a blank table and fills in
        # its state: a compiled class allows that only through a __new__ of its own.
        return object.__new__(cls)

    def __init__(self, rules: Rules, players: int, seed: int,
                 exchange: Callable[[int, View, int], list[Card]] | None = None) -> None:
        self.encoding: Encoding = encoding(rules, players)
        self.rules = rules
        self.players = players
        self.match = Match(rules, players, seed)
        self._exchange = exchange or _any_seat_default
        self._played = PlayedCards(players)
        self._deals = 0
        self.points = [0] * players
        self.deal_ended = False
        self.faults: list[tuple[int, str, str]] = []
        self._settle()

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.match.finished

    @property
    def to_move(self) -> int | None:
        """The seat whose move the match waits for (``None`` once it is over)."""
        if self.match.finished:
            return None
        return self.match.deal.to_move

    def observe(self, seat: int) -> Observation:
        """What ``seat`` sees now, encoded."""
        return self.encoding.observe(self.match.view(seat), self._played)

    def observe_with_mask(self, seat: int) -> tuple[Observation, Observation]:
        """``(observe(seat), action_mask(seat))``, made together."""
        match = self.match
        deal = match.deal
        moves = deal.legal_moves() if seat == self.to_move else ()
        return self.encoding.observe_with_mask(match.view(seat), moves, self._played,
                                               deal.moves)

    def action_mask(self, seat: int) -> Observation:
        """The legal-action mask of ``seat``: its legal moves if it is to move, else none."""
        if seat != self.to_move:
            return np.zeros(self.encoding.action_size, dtype=np.int8)
        return self.encoding.action_mask(self.match.deal.legal_moves())

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move, in increasing order."""
        if self.match.finished:
            return []
        index = self.encoding.index
        return sorted(index(move) for move in self.match.deal.legal_moves())

    def step(self, action: object) -> int:
        """Play ``action`` (an int; a numpy integer too) for the seat to move; return the seat
        that moved.

        An action that is no action is a ``malformed`` fault and an illegal one an
        ``illegal`` fault, applied as the rules' ``on_fault`` says (the referee's judgement);
        :attr:`faults` lists them.
        """
        actions = self.encoding.actions
        # Typed object: compiled code would refuse a numpy integer at the call. Anything but
        # an int in range goes through Encoding.move, which judges it.
        if not (type(action) is int and 0 <= action < len(actions)):
            try:
                move = self.encoding.move(action)
            except ValueError as error:
                return self.fault("malformed", str(error))
            return self.play(move)
        # The path of every step, in short: the same as play() with a Move in hand.
        match = self.match
        seat = self._begin()
        try:
            match.play(actions[action])
        except IllegalMove as error:
            return self.fault("illegal", f"{actions[action]}: {error}")
        if match.deal_number != self._deals:  # a deal ended: points, maybe an exchange
            self._settle()
        return seat

    def play(self, answer: Move | str) -> int:
        """Play a bot's answer (a move or its text) for the seat to move, judged as
        :meth:`step` judges an action; return the seat that moved."""
        seat = self._begin()
        try:  # the referee's judge (arena.game), its words
            play_move(self.match, answer)
        except AnswerError as error:
            return self.fault(error.kind, str(error))
        self._settle()
        return seat

    def fault(self, kind: str, detail: str) -> int:
        """The seat to move failed (a fault of ``kind``); return that seat."""
        seat = self._begin()
        self._fault(seat, kind, detail)
        self._settle()
        return seat

    def _begin(self) -> int:
        match = self.match
        seat = None if match.finished else match.deal.to_move
        if seat is None:
            raise ValueError("the match is over: reset the environment")
        if self.deal_ended:
            self.points = [0] * self.players
            self.deal_ended = False
        return seat

    def _fault(self, seat: int, kind: str, detail: str) -> None:
        self.faults.append((seat, kind, detail))
        self.match.fault(kind, detail)

    def _settle(self) -> None:
        match = self.match
        while not match.finished:
            decision = match.pending
            assert decision is not None
            if decision.kind != "exchange":
                break
            try:
                cards = self._exchange(decision.seat, match.view(decision.seat),
                                       decision.count)
            except Exception as error:  # an opponent bot's code failed
                self._fault(decision.seat, "crash", f"exchange: {type(error).__name__}: {error}")
                continue
            try:  # the referee's judge (arena.game), its words
                give_cards(match, cards)
            except AnswerError as error:
                self._fault(decision.seat, error.kind, str(error))
        while self._deals < match.deal_number:
            for seat, points in enumerate(match.summary(self._deals)["points"]):
                self.points[seat] += points
            self._deals += 1
            self.deal_ended = True
