"""The state of one deal and what it shows: the hands, the pile, the trick, the places, each
seat's view and the record. The moves that change it are :class:`arena.game.Deal`'s
(``_deal.py``), a subclass.

The state is a handful of integers and bit masks (hands, seats still in, passes, sit-outs)
so that a deal can be copied and played forward millions of times in a simulation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ._cards import Card, card_texts, cards_of
from ._judge import Judge, judge_of, suit_letters
from ._moves import Move
from ._rules import Rules
from ._view import View

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8


def _is_interpreted() -> bool:
    return True


# Whether this module runs as Python source (a function compiled by mypyc has no code
# object). Interpreted, object.__new__ makes a blank View (view) for less than a call of the
# class's own __new__, a Python function; compiled, only that __new__ may. Defined here, not
# imported: compiled code reads a module's own Final for nothing.
INTERPRETED: Final = hasattr(_is_interpreted, "__code__")
_new: Final = object.__new__


class DealContext:
    """What a deal knows about its match, for the views: roles, scores, exchanges.

    A snapshot: the match makes a new one when any of them changes, so views can share it.
    ``exchanges[seat]`` is ``(gave, received)``, or None for a seat that took no part.
    """

    __slots__ = ("exchanges", "roles", "scores")

    def __new__(cls, *args: Any, **kwargs: Any) -> DealContext:
        # Copies and pickles make a blank context first, which a compiled class does only
        # through a __new__ of its own (its default one runs __init__).
        return object.__new__(cls)

    def __init__(self, roles: Sequence[str | None], scores: Sequence[int],
                 exchanges: Sequence[tuple[Sequence[Card], Sequence[Card]]]) -> None:
        self.roles = tuple(roles)
        self.scores = tuple(scores)
        self.exchanges: tuple[tuple[tuple[Card, ...], tuple[Card, ...]] | None, ...] = tuple(
            (tuple(gave), tuple(received)) if gave or received else None
            for gave, received in exchanges
        )


class DealState:
    """The state of one deal and what it shows; :class:`Deal` plays it (its attributes are
    documented there)."""

    __slots__ = ("_active", "_best", "_counts", "_ctx", "_dealt", "_hands", "_jokers", "_judge",
                 "_last", "_lock", "_pass_run", "_passed", "_places", "_sat_out", "_shands",
                 "_suits", "_trick", "_worst", "finished", "forfeits", "moves", "number", "pile",
                 "players", "revolution", "rules", "seed", "to_move")

    rules: Rules
    players: int
    number: int
    seed: int | None
    to_move: int | None
    pile: Move | None
    revolution: bool
    moves: list[tuple[int, Move]]
    forfeits: list[tuple[int, int]]
    finished: bool

    def __new__(cls, *args: Any, **kwargs: Any) -> DealState:
        # A compiled class refuses ``object.__new__`` from outside ``__new__`` (Deal.copy).
        return object.__new__(cls)

    def __init__(self, rules: Rules, hands: Sequence[tuple[int, int, int]], number: int,
                 seed: int | None) -> None:
        # Use Deal.new, Deal.dealt, Deal.from_hands or Deal.from_view.
        players = len(hands)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        self.rules = rules
        self._judge: Judge = judge_of(rules)
        self.players = players
        self.number = number
        self.seed = seed
        self._hands = [h[0] for h in hands]
        self._shands = [h[1] for h in hands]
        self._jokers = [h[2] for h in hands]
        self._counts = [bin(h[0]).count("1") + h[2] for h in hands]
        self._dealt = [(h[0], h[2]) for h in hands]
        self._active = 0
        for seat, count in enumerate(self._counts):
            if count:
                self._active |= 1 << seat
        self._passed = 0
        self._sat_out = 0
        self._last = -1
        self._places: list[int | None] = [None] * players
        self._best = 0
        self._worst = players - 1
        self._trick: list[tuple[int, Move]] = []
        self._lock = 0  # suit lock in force (suit_lock), a mask of suits
        self._suits = 0  # suits of the top of the pile (suit_lock)
        self._pass_run = 0  # passes since the last play, across tricks (pass_limit)
        self._ctx: DealContext | None = None
        self.to_move = None
        self.pile = None
        self.revolution = False
        self.moves = []
        self.forfeits = []
        self.finished = False

    def holder(self, card: Card) -> int:
        """The seat holding natural card ``card``."""
        bit = 1 << card.index
        for seat, mask in enumerate(self._hands):
            if mask & bit:
                return seat
        raise ValueError(f"nobody holds {card}")

    def set_context(self, context: DealContext) -> None:
        """Attach what the match knows (roles, scores, exchanges) for the players' views."""
        self._ctx = context

    # ------------------------------------------------------------------ reading

    def hand(self, seat: int) -> list[Card]:
        """The cards seat ``seat`` holds, sorted."""
        return cards_of(self._hands[seat], self._jokers[seat])

    def dealt_hand(self, seat: int) -> list[Card]:
        """The cards seat ``seat`` was dealt (before any exchange)."""
        mask, jokers = self._dealt[seat]
        return cards_of(mask, jokers)

    def dealt_texts(self, seat: int) -> list[str]:
        """:meth:`dealt_hand` as the cards' texts (``["3C", "5H", "JK"]``), as records
        write it."""
        mask, jokers = self._dealt[seat]
        return card_texts(mask, jokers)

    def card_count(self, seat: int) -> int:
        """How many cards seat ``seat`` holds."""
        return self._counts[seat]

    @property
    def finish_order(self) -> list[int]:
        """Seats that have finished, best place first (forfeits hold the worst places)."""
        return [seat for seat in self._places if seat is not None]

    @property
    def places(self) -> list[int | None]:
        """Seat by finishing place, ``None`` for places not yet taken."""
        return self._places[:]

    @property
    def trick(self) -> list[tuple[int, Move]]:
        """The plays and passes of the current trick."""
        return self._trick[:]

    @property
    def last_player(self) -> int | None:
        """The seat that made the last play of the current trick."""
        return self._last if self.pile is not None else None

    def passed(self, seat: int) -> bool:
        """Whether ``seat`` has passed since the last play."""
        return bool(self._passed >> seat & 1)

    @property
    def lock(self) -> str:
        """The suits the trick is locked to (``suit_lock``), as letters; empty for none."""
        return suit_letters(self._lock)

    def sits_out(self, seat: int) -> bool:
        """Whether ``seat`` sits out the rest of this trick (``pass_is_final``)."""
        return bool(self._sat_out >> seat & 1)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move (empty once the deal is over)."""
        seat = self.to_move
        if seat is None:
            return []
        return self._judge.moves(self._hands[seat], self._shands[seat], self._jokers[seat],
                                 self.pile, self.revolution, self._lock)

    def view(self, seat: int) -> View:
        """What seat ``seat`` sees (docs/rules.md section 10)."""
        players = self.players
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a table of {players}")
        ctx = self._ctx
        if ctx is None:
            roles: tuple[str | None, ...] = (None,) * players
            scores: tuple[int, ...] = (0,) * players
            exchange = None
        else:
            roles, scores, exchange = ctx.roles, ctx.scores, ctx.exchanges[seat]
        # View's constructor, unrolled: this runs at every decision, and calling the
        # constructor with its 19 arguments costs a third of the view. A test holds every
        # field set, as the constructor sets it.
        if INTERPRETED:
            view: View = _new(View)
        else:
            view = View.__new__(View)
        view.seat = seat
        view.rules = self.rules
        view.number = self.number
        view.players = players
        view.to_move = self.to_move
        view.pile = self.pile
        view.revolution = self.revolution
        view._mask = self._hands[seat]
        view._smask = self._shands[seat]
        view._jokers = self._jokers[seat]
        view.counts = tuple(self._counts)
        view._passed = self._passed
        view._sat_out = self._sat_out
        view._trick = trick = self._trick
        view._ntrick = len(trick)
        view._plays = plays = self.moves
        view._nplays = len(plays)
        view.places = tuple(self._places)
        view._finish = None
        view.roles = roles
        view.scores = scores
        view._exchange = exchange
        return view

    # ------------------------------------------------------------------ records

    def to_dict(self) -> dict[str, Any]:
        """The deal as plain data: dealt hands, moves, forfeits, finishing order."""
        return {
            "deal": self.number,
            "seed": self.seed,
            "hands": [self.dealt_texts(s) for s in range(self.players)],
            "moves": [{"seat": s, "move": m.text} for s, m in self.moves],
            "forfeits": [{"seat": s, "move": i} for s, i in self.forfeits],
            "finish_order": self.finish_order,
        }
