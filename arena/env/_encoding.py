"""The observation and the action space of a seat, as fixed-length arrays (docs/learning.md).

This module imports only :mod:`arena.game` (and numpy): the environments, the policy bot and
any learning code share one encoding, so an agent trained in an environment sees in a
tournament exactly what it saw in training.

An :class:`Encoding` is built once per rules and table size. Its *actions* are every move the
rules allow, whatever the hand (every set, run and joker declaration, and the pass, which is
always action 0), found by asking the rules for the moves of a hand holding the whole deck; an
action is an index into that table. Its *observation* is a vector of 0/1 flags (``int8``)
holding what :class:`arena.game.View` shows the seat, seats counted from the observer (0 is the
observer, 1 the next to play after it, ...), so an agent is the same in every seat.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, Final, TypeAlias

import numpy as np
import numpy.typing as npt

from arena.game import (
    PRESIDENT,
    SCUM,
    VICE_PRESIDENT,
    VICE_SCUM,
    Card,
    Move,
    Rules,
    View,
    cards_of,
)

from ._bits import compose as _compose
from ._segments import NATURALS, Segment
from ._segments import segments as _segments

__all__ = ["Encoding", "PlayedCards", "Segment", "decode_action", "encode_move", "encoding"]

_NATURALS: Final = NATURALS  # a static of this module, where compiled
_ROLES: Final = {PRESIDENT: 0, VICE_PRESIDENT: 1, VICE_SCUM: 2, SCUM: 3}
_FULL_MASK: Final = (1 << _NATURALS) - 1
_FULL_SMASK: Final = sum(1 << (suit * 16 + rank) for suit in range(4) for rank in range(13))
_KIND_ORDER: Final = {"pass": 0, "set": 1, "run": 2}

Observation: TypeAlias = npt.NDArray[np.int8]


def _actions(rules: Rules) -> tuple[Move, ...]:
    # Every move the rules allow, whatever the hand: the moves of a hand holding the whole
    # deck, the pass first, then the sets, then the runs (each in the order of their cards).
    every = rules.moves(_FULL_MASK, _FULL_SMASK, rules.jokers, None, False)
    return tuple(sorted({m.key: m for m in (*every, Move.PASS)}.values(),
                        key=lambda m: (_KIND_ORDER[m.kind], m.key)))


class PlayedCards:
    """What the plays of the current deal tell, kept up to date cheaply: the cards each seat
    has played, the seat of the last play (the pile's owner), and the fields no play changes
    (roles, the exchange) once play has begun.

    An environment keeps one and hands it to :meth:`Encoding.observe` at every step: it reads
    only the plays made since its last call, instead of the deal's whole history. It notices
    a new deal (or a view of another deal) by itself and starts over.
    """

    __slots__ = ("fixed", "jokers", "last", "masks", "owner", "seen")

    def __new__(cls, *args: Any, **kwargs: Any) -> PlayedCards:
        # A blank instance for copies and pickles of an environment's state (a compiled
        # class's default __new__ runs __init__).
        return object.__new__(cls)

    def __init__(self, players: int) -> None:
        self.masks = [0] * players
        self.jokers = [0] * players
        # Per seat: the pieces of its roles, gave and received fields, once read in this
        # deal's play.
        self.fixed: list[list[object] | None] = [None] * players
        self.owner = -1
        self.seen = 0
        # The last play read, the very object of the plays' list (see update).
        self.last: object = None

    def update(self, plays: Sequence[tuple[int, Move]]) -> None:
        """Take in ``plays`` (a view's :attr:`~arena.game.View.plays`)."""
        seen = self.seen
        total = len(plays)
        # The plays read as objects: compiled code would unbox a (seat, move) tuple read as
        # such and box a new one, which "is" never matches.
        items: Sequence[object] = plays
        if total < seen or not total or (seen and items[seen - 1] is not self.last):
            players = len(self.masks)
            self.masks = [0] * players
            self.jokers = [0] * players
            self.fixed = [None] * players
            self.owner = -1
            seen = 0
        masks, jokers = self.masks, self.jokers
        for i in range(seen, total):  # by index: a slice would copy the new plays first
            seat, move = plays[i]
            if move.size:
                masks[seat] |= move.mask
                jokers[seat] += move.jokers
                self.owner = seat
        self.seen = total
        self.last = items[total - 1] if total else None


class Encoding:
    """The observation and action encoding of one rules variant at one table size.

    Build it with :func:`encoding` (cached). Attributes:

    - ``actions``: every move the rules allow, the action ``i`` being ``actions[i]``; the pass
      is action 0, then the sets, then the runs (each in the order of their cards).
    - ``observation_size``: the length of an observation; ``segments`` names its fields.
    """

    def __init__(self, rules: Rules, players: int) -> None:
        if not isinstance(players, int) or not 2 <= players <= 8:
            raise ValueError(f"a table has 2 to 8 players, not {players!r}")
        rules.check_table(players)
        self.rules = rules
        self.players = players
        self.actions: tuple[Move, ...] = _actions(rules)
        # The action of each move by its serial (None: not an action), a list read at every
        # step's mask, where a dict by key would box the key (objects: they go into the
        # mask's offsets unboxed). Every action is interned by now, so a move made later is
        # none of them.
        by_serial: list[object] = [None] * (max(m.serial for m in self.actions) + 1)
        for i, m in enumerate(self.actions):
            by_serial[m.serial] = i
        self._by_serial = by_serial
        jokers = rules.jokers
        self._jokers = jokers
        self._cards = _NATURALS + jokers
        # Most cards a hand can hold: a dealt hand, plus the cards received in an exchange
        # while they are not given back yet.
        self._most = math.ceil(self._cards / players) + max(rules.exchange, default=0)
        p = players
        segments = self.segments = _segments(players, jokers, self._most)
        self.observation_size = segments[-1].offset + segments[-1].length
        self._rules_seen = rules
        at = {s.name: s.offset for s in segments}
        self._at = at
        # The pile's pieces hold its kind and cards, and its jokers' cards and its jokers.
        assert at["pile_cards"] == at["pile_kind"] + 2
        assert at["pile_jokers"] == at["pile_joker_cards"] + _NATURALS
        # The fields from pile_owner to revolution lie one after the other (21 flags at 4
        # seats): _pieces builds them as one small integer counted from pile_owner's offset.
        base = at["pile_owner"]
        self._r_to_move = at["to_move"] - base
        self._r_passed = at["passed"] - base
        self._r_sat_out = at["sat_out"] - base
        self._r_lock = at["lock"] - base
        self._r_revolution = at["revolution"] - base
        # _rotate[seat][mask]: a mask of absolute seats as seats counted from `seat`.
        self._rotate = [[((m >> s) | (m << (p - s))) & ((1 << p) - 1) for m in range(1 << p)]
                        for s in range(p)]
        self._roles_bits: dict[tuple[tuple[str | None, ...], int], int] = {}
        # Per observer, the seats in the order of the per-seat fields (the observer first);
        # per joker count, the flags of that many jokers in a card field; per card count,
        # its one-hot row of the counts field (objects: they go into the pieces unboxed).
        self._order = [[(seat + k) % p for k in range(p)] for seat in range(p)]
        self._held = [((1 << j) - 1) << _NATURALS for j in range(jokers + 1)]
        width, most = self._most + 1, self._most
        self._one_hot: list[object] = [1 << min(c, most) for c in range(self._cards + 1)]
        # Where each piece _pieces makes goes, in its order: the hand; each seat's played
        # cards; the pile's kind and cards, and its jokers' cards and jokers; the fields from
        # pile_owner to revolution; each seat's count; the places; the roles, gave and
        # received fields. The same at every seat.
        self._offsets: tuple[int, ...] = (
            at["hand"], *(at["played"] + k * self._cards for k in range(p)),
            at["pile_kind"], at["pile_joker_cards"], base,
            *(at["counts"] + k * width for k in range(p)),
            at["places"], at["roles"], at["gave"], at["received"])

    def __deepcopy__(self, memo: dict[int, object]) -> Encoding:
        return self  # immutable once built: copies of a game state share it

    def __reduce__(self) -> tuple[object, tuple[Rules, int]]:
        return (encoding, (self.rules, self.players))

    # ------------------------------------------------------------------ actions

    @property
    def action_size(self) -> int:
        """The number of actions."""
        return len(self.actions)

    def index(self, move: Move | str) -> int:
        """The action of ``move`` (a Move or its text); ``ValueError`` for a move these rules
        never allow."""
        move = Move.parse(move)
        serial, by_serial = move.serial, self._by_serial
        action = by_serial[serial] if serial < len(by_serial) else None
        if not isinstance(action, int):
            raise ValueError(f"the move {move} is not an action under these rules")
        return action

    def move(self, action: object) -> Move:
        """The move of ``action`` (an int or a numpy integer, never a bool); ``ValueError``
        naming it when it is not an action."""
        # Typed object, not int: compiled code would refuse a numpy integer (or take a bool)
        # before this check could judge it.
        if type(action) is int or isinstance(action, np.integer):
            number = int(action)
            if 0 <= number < len(self.actions):
                return self.actions[number]
        raise ValueError(f"action {action!r} is not in 0 .. {len(self.actions) - 1}")

    def action_mask(self, moves: Iterable[Move]) -> Observation:
        """The legal-action mask of ``moves`` (a view's legal moves): 1 for each of them."""
        # A new array each call (the caller may keep it), set where a move's action is.
        by_serial = self._by_serial
        known = len(by_serial)
        at: list[object] = []
        for move in moves:
            serial = move.serial
            action = by_serial[serial] if serial < known else None
            if action is None:  # no action: index says so
                action = self.index(move)
            at.append(action)
        return _compose(len(self.actions), at, 1)

    # ------------------------------------------------------------------ observations

    def observe(self, view: View, played: PlayedCards | None = None) -> Observation:
        """The observation of ``view``: what its seat sees, as 0/1 flags.

        ``played`` keeps the cards played across calls (see :class:`PlayedCards`); without it
        they are counted from the view's plays.
        """
        return _compose(self.observation_size, self._offsets, self._pieces(view, played, None))

    def observe_with_mask(self, view: View, moves: Iterable[Move],
                          played: PlayedCards | None = None,
                          plays: Sequence[tuple[int, Move]] | None = None,
                          ) -> tuple[Observation, Observation]:
        """``(observe(view, played), action_mask(moves))``, the environments' step.
        ``plays``, when given, is the plays of the view's deal as the caller holds them
        (:attr:`arena.game.Deal.moves`), read instead of the view's
        :attr:`~arena.game.View.plays`, which copies them all at every step."""
        return (_compose(self.observation_size, self._offsets, self._pieces(view, played, plays)),
                self.action_mask(moves))

    def _pieces(self, view: View, played: PlayedCards | None,
                plays: Sequence[tuple[int, Move]] | None) -> list[object]:
        # The observation as pieces, each the flags of a field (or of a few that lie side by
        # side) as the bits of an integer of at most a machine word's width at the usual
        # table sizes, laid at self._offsets by _compose: no wide integer is made at a step.
        seat = view.seat
        p = self.players
        if view.players != p or (view.rules is not self._rules_seen and not self._check(view)):
            raise ValueError(f"this encoding is for {p} players under its own rules, "
                             f"not the view's {view.players}")
        if played is None:
            played = PlayedCards(p)
        played.update(view.plays if plays is None else plays)
        order = self._order[seat]
        hand, held = view.hand_bits
        held_flags = self._held
        pieces: list[object] = [hand | held_flags[held]]
        masks, jokers = played.masks, played.jokers
        for s in order:
            pieces.append(masks[s] | held_flags[jokers[s]])
        pile = view.pile
        owner = -1
        if pile is None:
            pieces.append(0)
            pieces.append(0)
        else:
            pieces.append((1 if pile.kind == "set" else 2) | pile.mask << 2)
            pieces.append(pile.jmask | ((1 << pile.jokers) - 1) << _NATURALS)
            # The pile is the last play of the trick, so its owner made the deal's last play.
            owner = played.owner
            if owner < 0:  # a view whose plays do not hold the pile: read the trick
                owner = next((s for s, move in reversed(view.trick) if move.size), -1)
        pieces.append(self._trick_bits(view, owner))
        counts, one_hot = view.counts, self._one_hot
        for s in order:
            pieces.append(one_hot[counts[s]])
        places = view.places
        taken = 0
        if places[0] is not None or places[-1] is not None:  # a place is taken
            for place, done in enumerate(places):
                if done is not None:
                    taken |= 1 << (((done - seat) % p) * p + place)
        pieces.append(taken)
        fixed = played.fixed[seat]
        if fixed is None:  # the fields a deal's play leaves alone: roles and the exchange
            fixed = [self._roles(view.roles, seat), self._cards_bits(view.gave),
                     self._cards_bits(view.received)]
            if played.seen:  # play has begun: the deal's exchange is over
                played.fixed[seat] = fixed
        pieces.extend(fixed)
        return pieces

    def _trick_bits(self, view: View, owner: int) -> int:
        # The fields from pile_owner to revolution, counted from pile_owner's offset, as one
        # small integer; ``owner`` is the seat that played the pile (-1: none).
        seat = view.seat
        p = self.players
        small = 0
        if owner >= 0:
            small = 1 << ((owner - seat) % p)
        rotate = self._rotate[seat]
        if view.to_move is not None:
            small |= 1 << (self._r_to_move + (view.to_move - seat) % p)
        passed = view.passed_bits
        if passed:
            small |= rotate[passed] << self._r_passed
        sat_out = view.sat_out_bits
        if sat_out:
            small |= rotate[sat_out] << self._r_sat_out
        if self.rules.suit_lock and view.trick:
            lock = view.lock
            for suit, letter in enumerate("CDHS"):
                if letter in lock:
                    small |= 1 << (self._r_lock + suit)
        if view.revolution:
            small |= 1 << self._r_revolution
        return small

    def _roles(self, roles: tuple[str | None, ...], seat: int) -> int:
        # The roles field seen from ``seat``, kept by roles and seat (a few at a table).
        key = (roles, seat)
        known = self._roles_bits.get(key)
        if known is None:
            known = 0
            p = self.players
            for s, role in enumerate(roles):
                if role is not None:
                    known |= 1 << (((s - seat) % p) * 4 + _ROLES[role])
            if len(self._roles_bits) > 4096:
                self._roles_bits.clear()
            self._roles_bits[key] = known
        return known

    def _check(self, view: View) -> bool:
        if view.rules != self.rules:
            return False
        self._rules_seen = view.rules
        return True

    def _cards_bits(self, cards: Iterable[Card]) -> int:
        bits = jokers = 0
        for card in cards:
            if card.index < _NATURALS:
                bits |= 1 << card.index
            else:
                jokers += 1
        return bits | (((1 << jokers) - 1) << _NATURALS)

    def cards(self, flags: npt.ArrayLike) -> list[Card]:
        """The cards of a card field of an observation (``hand``, ``gave``, a seat's
        ``played``): its 52 natural flags and its joker flags, read back."""
        array = np.asarray(flags)
        if array.shape != (self._cards,):
            raise ValueError(f"a card field has {self._cards} flags, not {array.shape}")
        mask = 0
        for index in np.flatnonzero(array[:_NATURALS]):
            mask |= 1 << int(index)
        return cards_of(mask, int(array[_NATURALS:].sum()))

    def field(self, observation: npt.ArrayLike, name: str) -> npt.NDArray[np.int8]:
        """The flags of field ``name`` of an observation."""
        for segment in self.segments:
            if segment.name == name:
                array = np.asarray(observation)
                return array[segment.offset: segment.offset + segment.length]
        raise ValueError(f"no observation field {name!r}; known: "
                         f"{', '.join(s.name for s in self.segments)}")


@lru_cache(maxsize=64)
def encoding(rules: Rules, players: int) -> Encoding:
    """The :class:`Encoding` of ``rules`` at a table of ``players`` (built once, then cached)."""
    return Encoding(rules, players)


def encode_move(rules: Rules, move: Move | str) -> int:
    """The action of ``move`` under ``rules`` (the same at every table size)."""
    return encoding(rules, 2 if rules.points is None else len(rules.points)).index(move)


def decode_action(rules: Rules, action: int) -> Move:
    """The move of ``action`` under ``rules``."""
    return encoding(rules, 2 if rules.points is None else len(rules.points)).move(action)
