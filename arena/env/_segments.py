"""The fields of an observation, in their order (docs/learning.md): built once per encoding,
so this module stays interpreted where the encoding is compiled (setup.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

NATURALS: Final = 52
"""The natural cards: the first flags of every card field, the jokers' flags after them."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One named field of the observation: ``length`` flags from ``offset``."""

    name: str
    offset: int
    length: int
    doc: str

    def __reduce__(self) -> tuple[object, tuple[str, int, int, str]]:
        # Copies and pickles make a segment from its fields.
        return (Segment, (self.name, self.offset, self.length, self.doc))


def segments(players: int, jokers: int, most: int) -> tuple[Segment, ...]:
    """The fields of an observation at a table of ``players`` under rules with ``jokers``
    jokers, where a hand holds at most ``most`` cards."""
    cards = NATURALS + jokers
    p = players
    layout = [
        ("hand", cards, "the seat's own cards: 52 natural cards (index rank * 4 + "
         "suit), then one flag per joker held"),
        ("played", p * cards, "per seat (the observer first), the cards it has played "
         "in this deal, laid out as the hand"),
        ("pile_kind", 2, "the top of the pile is a set / a run (both 0: the pile is empty)"),
        ("pile_cards", NATURALS, "the natural cards of the top of the pile"),
        ("pile_joker_cards", NATURALS, "the cards the jokers of the top of the pile stand "
         "for (a run's)"),
        ("pile_jokers", jokers, "one flag per joker in the top of the pile"),
        ("pile_owner", p, "the seat that played the top of the pile"),
        ("to_move", p, "the seat to move"),
        ("passed", p, "per seat: it has passed since the last play"),
        ("sat_out", p, "per seat: it sits out the rest of the trick (pass_is_final)"),
        ("lock", 4, "the suits the trick is locked to (suit_lock), C D H S"),
        ("revolution", 1, "the rank order is reversed"),
        ("counts", p * (most + 1), f"per seat, its number of cards (0 .. {most}), one-hot"),
        ("places", p * p, "per seat, the place it finished in (one-hot), if it is out"),
        ("roles", p * 4, "per seat, its role from the last deal: president, vice-president, "
         "vice-scum, scum (all 0: none)"),
        ("gave", cards, "the cards the seat gave in this deal's exchange"),
        ("received", cards, "the cards the seat received in this deal's exchange"),
    ]
    found = []
    offset = 0
    for name, length, doc in layout:
        found.append(Segment(name, offset, length, doc))
        offset += length
    return tuple(found)
