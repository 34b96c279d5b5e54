"""Moves: a pass, a set (cards of one rank) or a run (consecutive ranks of one suit).

Moves are immutable and interned by their content, so the tables of legal moves hand out
shared objects and ``Move.parse`` returns the very object that ``legal_moves`` lists.
"""

from __future__ import annotations

from typing import ClassVar, Final

from ._cards import CARDS, JOKER, JOKER_INDEX, RANKS, SUITS, Card

SET: Final = "set"
RUN: Final = "run"
PASS: Final = "pass"

MAX_JOKERS: Final = 2


class Move:
    """A pass, a set or a run, with the cards it uses.

    Attributes:
        kind: ``"set"``, ``"run"`` or ``"pass"``.
        rank: a set's rank (0 for ``3`` .. 12 for ``2``); ``None`` for a set of jokers alone,
            a run and a pass.
        low, high: a run's lowest and highest rank; a set has its rank in both (a joker-only
            set has ``None``).
        suit: a run's suit (0 .. 3 for ``C D H S``), else ``None``.
        mask: the natural cards used, as a rank-major bit mask.
        smask: the same cards as a suit-major bit mask.
        jokers: how many jokers the move uses.
        jmask: the cards its jokers stand for (rank-major mask): for a run, every joker's;
            for a set, those of the jokers whose suit is declared (``9C JK=9H``), 0 for none.
        text: the move as written in records and on the wire (``str(move)``, cards in
            sorted order, or ``pass``).
        serial: the move's number among the moves made in this process (0 for ``pass``,
            then in the order they were first made): an index into tables of moves, such as
            an encoding's actions. Not the same in another process: never recorded.
    """

    __slots__ = ("high", "jmask", "jokers", "key", "kind", "low", "mask", "rank", "serial", "size",
                 "smask", "suit", "text")

    PASS: ClassVar[Move]

    kind: str
    rank: int | None
    low: int | None
    high: int | None
    suit: int | None
    mask: int
    smask: int
    jokers: int
    jmask: int
    size: int
    key: int
    text: str
    serial: int

    def __init__(self, kind: str, mask: int, smask: int, jokers: int, jmask: int, size: int,
                 rank: int | None, low: int | None, high: int | None, suit: int | None,
                 key: int, text: str) -> None:
        # Build moves through the interning helpers below, never directly.
        self.kind = kind
        self.mask = mask
        self.smask = smask
        self.jokers = jokers
        self.jmask = jmask
        self.size = size
        self.rank = rank
        self.low = low
        self.high = high
        self.suit = suit
        self.key = key
        self.text = text
        # Moves are interned: each is made once, then kept in _INTERN (pass first).
        self.serial = len(_INTERN)

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Parse a move written as its cards (any order) or ``pass``.

        Raises ``ValueError`` naming the problem for anything that is not a combination's
        shape, including a run joker whose place is not forced and not declared.
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise ValueError(f"not a move: {text!r}")
        return _parse(text)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards played: natural cards, then one ``JK`` per joker."""
        return _cards(self.mask, self.jokers)

    @property
    def joker_cards(self) -> tuple[Card, ...]:
        """The cards its jokers stand for: every joker of a run, the declared jokers of a set
        (empty for bare set jokers and passes)."""
        return _cards(self.jmask, 0)

    def __len__(self) -> int:
        return self.size

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.key == other.key
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.key != other.key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (self.text,))


def _cards(mask: int, jokers: int) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return (*out, *([JOKER] * jokers))


_INTERN: dict[int, Move] = {}
_PASS_KEY: Final = -1


def _key(mask: int, jokers: int, jmask: int) -> int:
    return mask | (jokers << 52) | (jmask << 56)


def make_set(rank: int | None, suits: int, jokers: int, declared: int = 0) -> Move:
    """The set of ``rank`` with the suits in bit mask ``suits`` plus ``jokers`` jokers.

    ``declared`` (a suit mask, disjoint from ``suits``) gives the suits of as many of the
    jokers as it has bits (``9C JK=9H``); the other jokers are bare. ``rank=None`` (with
    ``suits=0`` and nothing declared) is a set of jokers alone.
    """
    if rank is None:
        mask = smask = jmask = 0
    else:
        mask = suits << (rank * 4)
        jmask = declared << (rank * 4)
        smask = 0
        for suit in range(4):
            if suits >> suit & 1:
                smask |= 1 << (suit * 16 + rank)
    key = _key(mask, jokers, jmask)
    move = _INTERN.get(key)
    if move is None:
        size = bin(suits).count("1") + jokers
        stood = _cards(jmask, 0)
        text = " ".join([str(c) for c in _cards(mask, 0)] + ["JK=" + str(c) for c in stood]
                        + ["JK"] * (jokers - len(stood)))
        move = Move(SET, mask, smask, jokers, jmask, size, rank, rank, rank, None, key, text)
        _INTERN[key] = move
    return move


def make_run(suit: int, low: int, high: int, joker_ranks: int) -> Move:
    """The run of ``suit`` from rank ``low`` to ``high``; bit r of ``joker_ranks`` set means
    a joker stands for rank r."""
    mask = smask = jmask = 0
    jokers = 0
    for rank in range(low, high + 1):
        if joker_ranks >> rank & 1:
            jmask |= 1 << (rank * 4 + suit)
            jokers += 1
        else:
            mask |= 1 << (rank * 4 + suit)
            smask |= 1 << (suit * 16 + rank)
    key = _key(mask, jokers, jmask)
    move = _INTERN.get(key)
    if move is None:
        parts = []
        for rank in range(low, high + 1):
            card = RANKS[rank] + SUITS[suit]
            parts.append("JK=" + card if joker_ranks >> rank & 1 else card)
        move = Move(RUN, mask, smask, jokers, jmask, high - low + 1, None, low, high, suit, key,
                    " ".join(parts))
        _INTERN[key] = move
    return move


Move.PASS = Move(PASS, 0, 0, 0, 0, 0, None, None, None, None, _PASS_KEY, "pass")
_INTERN[_PASS_KEY] = Move.PASS


def _parse(text: str) -> Move:
    tokens = text.split()
    if not tokens:
        raise ValueError("empty move: write its cards, or 'pass'")
    if len(tokens) == 1 and tokens[0].lower() == "pass":
        return Move.PASS
    naturals: list[Card] = []
    declared: list[Card] = []
    bare = 0
    for token in tokens:
        upper = token.upper()
        if upper.startswith("JK="):
            card = Card.parse(token[3:])
            if card.index == JOKER_INDEX:
                raise ValueError(f"a joker cannot stand for a joker: {token!r}")
            declared.append(card)
        elif upper == "JK":
            bare += 1
        else:
            card = Card.parse(token)
            if card in naturals:
                raise ValueError(f"card {card} appears twice in {text.strip()!r}")
            naturals.append(card)
    jokers = bare + len(declared)
    if jokers > MAX_JOKERS:
        raise ValueError(f"a move holds at most {MAX_JOKERS} jokers: {text.strip()!r}")
    ranks = {c.rank for c in naturals}
    if not naturals:
        if declared:
            raise ValueError(f"a set of jokers alone stands for no rank: {text.strip()!r}")
        return make_set(None, 0, jokers)
    if len(ranks) == 1:
        (rank,) = ranks
        assert rank is not None
        suits = 0
        for card in naturals:
            assert card.suit is not None
            suits |= 1 << card.suit
        stood = 0
        for card in declared:
            if card.rank != rank:
                raise ValueError(
                    f"jokers beside cards of one rank make a set of {RANKS[rank]}s, "
                    f"so JK={card} is not allowed: {text.strip()!r}")
            assert card.suit is not None
            bit = 1 << card.suit
            if (suits | stood) & bit:
                raise ValueError(
                    f"JK={card} stands for a card the set already has: {text.strip()!r}")
            stood |= bit
        return make_set(rank, suits, jokers, stood)
    return _parse_run(text.strip(), naturals, declared, bare)


def _parse_run(text: str, naturals: list[Card], declared: list[Card], bare: int) -> Move:
    suits = {c.suit for c in naturals}
    if len(suits) != 1:
        raise ValueError(f"cards of several ranks must be a run of one suit: {text!r}")
    (suit,) = suits
    assert suit is not None
    taken = 0
    for card in naturals:
        assert card.rank is not None
        taken |= 1 << card.rank
    joker_ranks = 0
    for card in declared:
        assert card.rank is not None
        if card.suit != suit:
            raise ValueError(f"JK={card} is not of the run's suit {SUITS[suit]}: {text!r}")
        bit = 1 << card.rank
        if (taken | joker_ranks) & bit:
            raise ValueError(f"JK={card} stands where the run already has a card: {text!r}")
        joker_ranks |= bit
    occupied = taken | joker_ranks
    low = (occupied & -occupied).bit_length() - 1
    high = occupied.bit_length() - 1
    holes = (high - low + 1) - bin(occupied).count("1")
    if holes > bare:
        raise ValueError(f"not consecutive ranks (runs do not wrap past the 2): {text!r}")
    # Holes take jokers first; the jokers left over extend the run at its ends.
    for rank in range(low, high + 1):
        if not occupied >> rank & 1:
            joker_ranks |= 1 << rank
    spare = bare - holes
    if high - low + 1 + spare < 3:
        raise ValueError(f"a run needs at least three cards: {text!r}")
    if spare:
        below = [a for a in range(spare + 1) if low - a >= 0 and high + spare - a <= 12]
        if not below:
            raise ValueError(f"no room for the run's jokers: {text!r}")
        if len(below) > 1:
            raise ValueError(
                f"the place of a joker is ambiguous: declare it, as in JK=<card>: {text!r}")
        extend_low = below[0]
        for rank in range(low - extend_low, low):
            joker_ranks |= 1 << rank
        for rank in range(high + 1, high + 1 + spare - extend_low):
            joker_ranks |= 1 << rank
        low -= extend_low
        high += spare - extend_low
    return make_run(suit, low, high, joker_ranks)
