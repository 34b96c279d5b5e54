"""Cards, their notation and their bit positions.

A natural card has an index ``rank * 4 + suit`` (ranks ``3 .. 2`` are 0 .. 12, suits
``C D H S`` are 0 .. 3), which is also its bit in a *rank-major* hand mask. The same card
has the bit ``suit * 16 + rank`` in a *suit-major* mask, whose 13-bit lanes give each suit's
ranks at once (what run generation needs). Jokers carry no bit: hands count them, since two
jokers are interchangeable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANKS: Final = "3456789TJQKA2"
SUITS: Final = "CDHS"
JOKER_INDEX: Final = 52
RANK_EIGHT: Final = RANKS.index("8")
RANK_TOP: Final = len(RANKS) - 1

_SUIT_SYMBOLS: Final = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class Card:
    """One playing card: a natural card (rank and suit) or a joker.

    Cards are interned: ``Card.parse("5h") is Card.parse("5H")``. They sort by rank, then
    suit (clubs, diamonds, hearts, spades), jokers last.
    """

    __slots__ = ("_text", "index", "rank", "suit")

    index: int
    rank: int | None
    suit: int | None

    def __init__(self, index: int) -> None:
        # Use Card.parse or the module's interned cards; this builds the 53 singletons.
        self.index = index
        if index == JOKER_INDEX:
            self.rank = None
            self.suit = None
            self._text = "JK"
        else:
            self.rank, self.suit = divmod(index, 4)
            self._text = RANKS[self.rank] + SUITS[self.suit]

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return self.index == JOKER_INDEX

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Parse ``5H``, ``10h``, ``T♥`` or ``JK``; raise ``ValueError`` naming the bad text."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r}")
        raw = text.strip()
        upper = raw.upper()
        if upper == "JK":
            return JOKER
        if len(upper) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_text, suit_text = upper[:-1], upper[-1]
        suit_text = _SUIT_SYMBOLS.get(raw[-1], suit_text)
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS:
            raise ValueError(f"not a card: {text!r}")
        return CARDS[RANKS.index(rank_text) * 4 + SUITS.index(suit_text)]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        # Equal cards are the same object, so the index hashes them as identity would; said
        # outright, since a compiled class with comparisons and no hash is unhashable.
        return self.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self._text,))


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
JOKER: Final = Card(JOKER_INDEX)


def suit_major_bit(index: int) -> int:
    """The suit-major mask bit of natural card ``index``."""
    rank, suit = divmod(index, 4)
    return 1 << (suit * 16 + rank)


def parse_hand(cards: Iterable[Card | str]) -> tuple[int, int, int]:
    """Turn cards or card strings into ``(rank-major mask, suit-major mask, jokers)``.

    Raises ``ValueError`` for a bad card or a natural card given twice.
    """
    mask = smask = jokers = 0
    for item in cards:
        card = Card.parse(item)
        if card.index == JOKER_INDEX:
            jokers += 1
            continue
        bit = 1 << card.index
        if mask & bit:
            raise ValueError(f"card {card} appears twice")
        mask |= bit
        smask |= suit_major_bit(card.index)
    return mask, smask, jokers


def cards_of(mask: int, jokers: int = 0) -> list[Card]:
    """The cards of a rank-major mask plus ``jokers`` jokers, in sorted order."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    out.extend([JOKER] * jokers)
    return out


def card_texts(mask: int, jokers: int = 0) -> list[str]:
    """``[str(card) for card in cards_of(mask, jokers)]``, without making the list of cards
    (a record writes every dealt hand so)."""
    out: list[str] = []
    while mask:
        low = mask & -mask
        out.append(_TEXTS[low.bit_length() - 1])
        mask ^= low
    if jokers:
        out.extend(["JK"] * jokers)
    return out


_TEXTS: Final = [str(card) for card in CARDS]

