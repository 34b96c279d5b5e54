"""The suits are interchangeable: a position with its suits renamed is as good a lesson.

The rules treat the four suits alike (the opening card aside, which only says who leads the
first deal), so a labelled decision whose suits are renamed by one of the 24 permutations
is another decision labelled as the teacher would have labelled it. The fit draws one
permutation per batch; it multiplies the data the teacher's playouts paid for.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from arena.env import Encoding

__all__ = ["CARD_FIELDS", "SUITS", "Renaming", "permutations"]

SUITS = "CDHS"
CARD_FIELDS = ("hand", "played", "pile_cards", "pile_joker_cards", "gave", "received")
"""The fields of card flags (a card's flag at ``rank * 4 + suit``, jokers after the 52)."""


def _observation_order(coder: Encoding, order: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """``index`` such that ``observation[index]`` is ``observation`` with suit ``s`` renamed
    ``order[s]``."""
    size = coder.segments[-1].offset + coder.segments[-1].length
    index = np.arange(size)
    source = {order[s]: s for s in range(4)}  # the new suit's flag comes from the old one's
    for segment in coder.segments:
        if segment.name == "lock":
            for suit in range(4):
                index[segment.offset + suit] = segment.offset + source[suit]
        elif segment.name in CARD_FIELDS:
            block = 52 + coder.rules.jokers if segment.name != "pile_cards" and (
                segment.name != "pile_joker_cards") else 52
            for start in range(segment.offset, segment.offset + segment.length, block):
                for card in range(52):
                    rank, suit = divmod(card, 4)
                    index[start + card] = start + rank * 4 + source[suit]
    return index


def _action_order(coder: Encoding, order: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """``(new_of_old)``: the action of each action's move with its suits renamed."""
    names = str.maketrans(SUITS, "".join(SUITS[order[s]] for s in range(4)))
    return np.array([coder.index(str(coder.move(a)).translate(names))
                     for a in range(coder.action_size)], dtype=np.intp)


Renaming = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]


def permutations(coder: Encoding) -> list[Renaming]:
    """For each renaming of the suits: ``(obs_index, new_action, old_action)``, where
    ``observation[:, obs_index]`` renames the suits of observations (card flags and the
    lock; a card field alone with ``obs_index[:len(field)]``, the hand being first),
    ``new_action[a]`` is the renamed action of ``a`` and ``mask[:, old_action]`` renames a
    legal-action mask."""
    result = []
    for order in itertools.permutations(range(4)):
        new_action = _action_order(coder, order)
        result.append((_observation_order(coder, order), new_action, np.argsort(new_action)))
    return result
