"""An independent, deliberately simple (and slow) statement of RULES.md sections 2, 4, 5 and 6.

It enumerates combinations from first principles, card by card, without bit tricks or tables,
so that property tests can check the engine against a second reading of the rules. It knows
nothing about the engine beyond the text notation of moves.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations, product

RANKS = "3456789TJQKA2"
SUITS = "CDHS"
TOP, BOTTOM, EIGHT = 12, 0, RANKS.index("8")


def rank_of(card: str) -> int:
    """A natural card's rank, 0 (the 3) to 12 (the 2)."""
    return RANKS.index(card[0])


@dataclass(frozen=True)
class Combo:
    """A combination: a set (naturals of one rank plus bare jokers) or a run (naturals of one
    suit plus jokers, each standing at a named place)."""

    kind: str
    naturals: frozenset[str]
    jokers: int
    places: frozenset[str] = frozenset()

    @property
    def size(self) -> int:
        return len(self.naturals) + self.jokers

    @property
    def rank(self) -> int | None:
        """A set's rank; ``None`` for a set of jokers alone (and for runs)."""
        if self.kind != "set" or not self.naturals:
            return None
        return rank_of(next(iter(self.naturals)))

    @property
    def low(self) -> int:
        return min(rank_of(c) for c in self.naturals | self.places)

    @property
    def high(self) -> int:
        return max(rank_of(c) for c in self.naturals | self.places)

    def text(self) -> str:
        """The move's text with every joker of a run declared."""
        parts = sorted(self.naturals)
        if self.kind == "set":
            parts += ["JK"] * self.jokers
        else:
            parts += [f"JK={p}" for p in sorted(self.places)]
        return " ".join(parts)


def from_text(text: str) -> Combo:
    """Read a canonical move text (runs declare every joker) back into a combination."""
    tokens = text.split()
    naturals = frozenset(t for t in tokens if not t.startswith("JK"))
    places = frozenset(t[3:] for t in tokens if t.startswith("JK="))
    jokers = sum(1 for t in tokens if t.startswith("JK"))
    if len({c[0] for c in naturals}) <= 1:
        return Combo("set", naturals, jokers)
    return Combo("run", naturals, jokers, places)


def combos(hand: list[str], runs: bool) -> set[Combo]:
    """Every combination that can be made from ``hand`` (card names, ``JK`` for a joker)."""
    naturals = [c for c in hand if c != "JK"]
    jokers = hand.count("JK")
    out: set[Combo] = set()
    by_rank: dict[str, list[str]] = defaultdict(list)
    for c in naturals:
        by_rank[c[0]].append(c)
    for cards in by_rank.values():
        for k in range(1, len(cards) + 1):
            for chosen in combinations(cards, k):
                for j in range(jokers + 1):
                    out.add(Combo("set", frozenset(chosen), j))
    for j in range(1, jokers + 1):
        out.add(Combo("set", frozenset(), j))
    if not runs:
        return out
    held = set(naturals)
    for suit in SUITS:
        for low in range(13):
            for high in range(low + 2, 13):
                places = [RANKS[r] + suit for r in range(low, high + 1)]
                if sum(1 for p in places if p not in held) > jokers:
                    continue
                # each place is filled by the natural card (when held) or by a joker
                choices = [(p, None) if p in held else (None,) for p in places]
                for filled in product(*choices):
                    nat = [c for c in filled if c is not None]
                    jk = [p for p, c in zip(places, filled, strict=True) if c is None]
                    # jokers beside naturals of a single rank make a set, never a run
                    if len(jk) <= jokers and len(nat) >= 2:
                        out.add(Combo("run", frozenset(nat), len(jk), frozenset(jk)))
    return out


def beats(new: Combo, pile: Combo | None, revolution: bool, equal_beats: bool) -> bool:
    """May ``new`` be played on ``pile`` (section 4)?"""
    if pile is None:
        return True
    if new.kind != pile.kind or new.size != pile.size:
        return False
    if new.kind == "set":
        if pile.rank is None:  # jokers alone: only an equal set of jokers, with equal_beats
            return new.rank is None and equal_beats
        if new.rank is None:
            return True
        stronger, weaker = (pile.rank, new.rank) if revolution else (new.rank, pile.rank)
    elif revolution:
        stronger, weaker = pile.low, new.low
    else:
        stronger, weaker = new.high, pile.high
    return stronger > weaker or (equal_beats and stronger == weaker)


def clears(c: Combo, revolution: bool, eight_stop: bool) -> bool:
    """Does ``c`` clear the pile (section 6), judged in the order in force when played?"""
    if c.kind == "set":
        if c.rank is None:
            return False
        if c.rank == (BOTTOM if revolution else TOP):
            return True
        return eight_stop and c.rank == EIGHT
    return eight_stop and c.low <= EIGHT <= c.high


def starts_revolution(c: Combo, revolution_option: bool) -> bool:
    """Does ``c`` reverse the order (section 5)?"""
    return revolution_option and c.kind == "set" and c.size >= 4


def legal_texts(
    hand: list[str], pile: Combo | None, revolution: bool, runs: bool, equal_beats: bool
) -> set[str]:
    """The texts of every legal move: each combination that beats the pile, and a pass on a
    pile."""
    out = {c.text() for c in combos(hand, runs) if beats(c, pile, revolution, equal_beats)}
    if pile is not None:
        out.add("pass")
    return out
