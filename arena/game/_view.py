"""What one seat sees of a deal: its own hand and everything public, never another hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ._cards import CARDS, JOKER, Card, cards_of, parse_hand, suit_major_bit
from ._judge import judge_of, suit_letters
from ._moves import Move
from ._rules import Rules, trick_lock


class View:
    """A snapshot of a deal from one seat (docs/rules.md section 10).

    It holds what the seat may see when it is made, so later play does not change it and
    it can be handed to a bot, pickled or sent as JSON (:meth:`to_dict`). The deal's plays
    and the trick are lists the deal only appends to (a new list each trick), so a view
    keeps the list and its length, and makes the tuple only if it is read: most bots read
    a few fields of a view, and the referee makes one at every decision.
    """

    __slots__ = ("_exchange", "_finish", "_jokers", "_mask", "_nplays", "_ntrick", "_passed",
                 "_plays", "_sat_out", "_smask", "_trick", "counts", "number", "pile", "places",
                 "players", "revolution", "roles", "rules", "scores", "seat", "to_move")

    seat: int
    rules: Rules
    number: int
    players: int
    to_move: int | None
    pile: Move | None
    revolution: bool
    counts: tuple[int, ...]
    places: tuple[int | None, ...]
    roles: tuple[str | None, ...]
    scores: tuple[int, ...]

    def __new__(cls, *args: Any, **kwargs: Any) -> View:
        # ``View.__new__(View)`` makes a view without its constructor (Deal.view): spelled
        # out, since a compiled class refuses ``object.__new__`` from outside ``__new__``.
        return object.__new__(cls)

    def __init__(
        self,
        seat: int,
        rules: Rules,
        number: int,
        to_move: int | None,
        pile: Move | None,
        revolution: bool,
        mask: int,
        smask: int,
        jokers: int,
        counts: tuple[int, ...],
        passed: tuple[bool, ...] | int,
        sat_out: tuple[bool, ...] | int,
        trick: Sequence[tuple[int, Move]],
        plays: Sequence[tuple[int, Move]],
        places: tuple[int | None, ...],
        finish_order: tuple[int, ...] | None,
        roles: tuple[str | None, ...],
        scores: tuple[int, ...],
        exchange: tuple[Sequence[Card], Sequence[Card]] | None,
    ) -> None:
        """A view from parts already in their final form (the hand as the rules' masks:
        rank-major ``mask``, suit-major ``smask``, ``jokers``).

        :meth:`arena.game.Deal.view` and :meth:`from_state` are the ways to make a view; the
        constructor stores what they computed, so the view module needs no deal.
        (``Deal.view`` sets the same fields itself, without this call, which would cost a
        third of the view at every decision.) ``passed``
        and ``sat_out`` may be bit masks (bit ``s`` for seat ``s``); ``trick`` and ``plays``
        may be lists that will only be appended to (their current length is kept);
        ``finish_order`` may be None (it follows from ``places``).
        """
        self.seat = seat
        self.rules = rules
        self.number = number
        self.players = len(counts)
        self.to_move = to_move
        self.pile = pile
        self.revolution = revolution
        self._mask = mask
        self._smask = smask
        self._jokers = jokers
        self.counts = counts
        self._passed = passed
        self._sat_out = sat_out
        self._trick = trick
        self._ntrick = len(trick)
        self._plays = plays
        self._nplays = len(plays)
        self.places = places
        self._finish = finish_order
        self.roles = roles
        self.scores = scores
        self._exchange = exchange

    @classmethod
    def from_state(
        cls,
        rules: Rules,
        seat: int,
        number: int,
        *,
        hand: str | Iterable[Card | str],
        to_move: int | None,
        pile: Move | None,
        revolution: bool,
        counts: Sequence[int],
        passed: Sequence[bool],
        sat_out: Sequence[bool],
        trick: Sequence[tuple[int, Move]],
        plays: Sequence[tuple[int, Move]],
        places: Sequence[int | None],
        roles: Sequence[str | None],
        scores: Sequence[int],
        exchange: tuple[Sequence[Card], Sequence[Card]] | None = None,
    ) -> View:
        """A view from its parts, without the deal behind it.

        This is how a bot in another process gets a real view (with working
        :meth:`legal_moves`) from what the referee sent. ``hand`` is a list of
        cards or one string of cards separated by spaces (``"3C 5H JK"``, the
        fast path); ``finish_order`` follows from ``places``. The parts are
        trusted to describe one state of a deal: nothing is cross-checked.
        """
        mask, smask, jokers = (_parse_hand_text(hand) if isinstance(hand, str)
                               else parse_hand(hand))
        return cls(seat, rules, number, to_move, pile, revolution, mask, smask, jokers,
                   tuple(counts),
                   tuple(passed), tuple(sat_out), tuple(trick), tuple(plays), tuple(places),
                   None, tuple(roles), tuple(scores),
                   None if exchange is None else (tuple(exchange[0]), tuple(exchange[1])))

    @property
    def passed(self) -> tuple[bool, ...]:
        """Per seat: whether it has passed in the current trick."""
        passed = self._passed
        if isinstance(passed, int):
            passed = self._passed = _BITS[self.players][passed]
        return passed

    @property
    def sat_out(self) -> tuple[bool, ...]:
        """Per seat: whether it sits out the rest of the trick (``pass_is_final``)."""
        sat_out = self._sat_out
        if isinstance(sat_out, int):
            sat_out = self._sat_out = _BITS[self.players][sat_out]
        return sat_out

    @property
    def trick(self) -> tuple[tuple[int, Move], ...]:
        """The current trick's plays and passes as ``(seat, move)``, oldest first."""
        trick = self._trick
        if type(trick) is not tuple:
            trick = self._trick = tuple(trick[: self._ntrick])
        return trick

    @property
    def plays(self) -> tuple[tuple[int, Move], ...]:
        """Every play and pass of the deal so far as ``(seat, move)``, oldest first."""
        plays = self._plays
        if type(plays) is not tuple:
            plays = self._plays = tuple(plays[: self._nplays])
        return plays

    @property
    def finish_order(self) -> tuple[int, ...]:
        """Seats that have finished, best place first (forfeits hold the worst places)."""
        finish = self._finish
        if finish is None:
            finish = self._finish = tuple(s for s in self.places if s is not None)
        return finish

    @property
    def hand(self) -> list[Card]:
        """The seat's own cards, sorted."""
        return cards_of(self._mask, self._jokers)

    @property
    def hand_bits(self) -> tuple[int, int]:
        """The seat's own cards as ``(mask, jokers)``: the bit mask of its natural cards (bit
        ``card.index``, that is ``rank * 4 + suit``) and how many jokers it holds. What
        :attr:`hand` lists, without making the cards (encoders read this)."""
        return self._mask, self._jokers

    @property
    def passed_bits(self) -> int:
        """:attr:`passed` as a bit mask: bit ``s`` is set when seat ``s`` has passed."""
        passed = self._passed
        return passed if isinstance(passed, int) else _mask_of(passed)

    @property
    def sat_out_bits(self) -> int:
        """:attr:`sat_out` as a bit mask: bit ``s`` is set when seat ``s`` sits out."""
        sat_out = self._sat_out
        return sat_out if isinstance(sat_out, int) else _mask_of(sat_out)

    @property
    def hand_text(self) -> str:
        """The seat's own cards, sorted, as one string separated by spaces (``"3C 5H JK"``):
        what ``from_state`` reads fastest and the protocol's delta views carry."""
        key = (self._mask, self._jokers)
        text = _HAND_TEXTS.get(key)
        if text is None:
            if len(_HAND_TEXTS) >= 256:
                _HAND_TEXTS.clear()
            text = _HAND_TEXTS[key] = " ".join([str(card) for card in self.hand])
        return text

    @property
    def out(self) -> tuple[bool, ...]:
        """Per seat: whether it holds no more cards (gone out or forfeited)."""
        return tuple(count == 0 for count in self.counts)

    @property
    def gave(self) -> list[Card]:
        """Cards this seat gave in this deal's exchange (empty if none)."""
        return list(self._exchange[0]) if self._exchange else []

    @property
    def received(self) -> list[Card]:
        """Cards this seat received in this deal's exchange (empty if none)."""
        return list(self._exchange[1]) if self._exchange else []

    @property
    def leading(self) -> bool:
        """Whether the pile is empty (the seat to move leads)."""
        return self.pile is None

    @property
    def lock(self) -> str:
        """The suits the trick is locked to (``suit_lock``), as letters; empty for none.

        It follows from the plays of the trick (docs/rules.md, suit lock), so it needs no
        field of its own in :meth:`to_dict`.
        """
        return suit_letters(trick_lock(self.rules, self.trick)[0])

    def legal_moves(self) -> list[Move]:
        """The moves this seat could make on the current pile."""
        lock = trick_lock(self.rules, self.trick)[0] if self.rules.suit_lock else 0
        return judge_of(self.rules).moves(self._mask, self._smask, self._jokers, self.pile,
                                          self.revolution, lock)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping of everything this seat may see, and nothing else."""
        return {
            "seat": self.seat,
            "deal": self.number,
            "rules": self.rules.to_dict(),
            "hand": [str(c) for c in self.hand],
            "to_move": self.to_move,
            "players": [
                {
                    "seat": s,
                    "cards": self.counts[s],
                    "role": self.roles[s],
                    "score": self.scores[s],
                    "out": self.counts[s] == 0,
                    "passed": self.passed[s],
                    "sat_out": self.sat_out[s],
                }
                for s in range(self.players)
            ],
            "pile": None if self.pile is None else str(self.pile),
            "trick": [{"seat": s, "move": str(m)} for s, m in self.trick],
            "plays": [{"seat": s, "move": str(m)} for s, m in self.plays],
            "finish_order": list(self.finish_order),
            "places": list(self.places),
            "revolution": self.revolution,
            "exchange": None if self._exchange is None else {
                "gave": [str(c) for c in self._exchange[0]],
                "received": [str(c) for c in self._exchange[1]],
            },
        }


def _mask_of(flags: tuple[bool, ...]) -> int:
    mask = 0
    for seat, flag in enumerate(flags):
        if flag:
            mask |= 1 << seat
    return mask


def _parse_hand_text(text: str) -> tuple[int, int, int]:
    """``parse_hand`` for a hand written as one string, remembering recent hands."""
    parsed = _HANDS.get(text)
    if parsed is not None:
        return parsed
    mask = smask = jokers = 0
    for token in text.split():
        bits = _HAND_BITS.get(token)
        if bits is None:
            bits = parse_hand([token])
        if bits[2]:
            jokers += 1
        else:
            mask |= bits[0]
            smask |= bits[1]
    if len(_HANDS) >= 64:
        _HANDS.clear()
    parsed = _HANDS[text] = (mask, smask, jokers)
    return parsed


_BITS: list[list[tuple[bool, ...]]] = [
    [tuple(bool(mask >> s & 1) for s in range(players)) for mask in range(1 << players)]
    for players in range(9)
]
"""``_BITS[players][mask]``: a seat bit mask as one flag per seat."""

_HANDS: dict[str, tuple[int, int, int]] = {}
_HAND_TEXTS: dict[tuple[int, int], str] = {}
_HAND_BITS: dict[str, tuple[int, int, int]] = {
    str(card): (1 << card.index, suit_major_bit(card.index), 0) for card in CARDS
}
_HAND_BITS[str(JOKER)] = (0, 0, 1)
