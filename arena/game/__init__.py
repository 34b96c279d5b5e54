"""The rules of President: pure, synchronous and deterministic from a seed.

The referee judges moves with this package and bots think with it: no I/O, no trio, no
logging. See docs/rules.md for the rules as implemented and docs/api.md for the API.
"""

from ._engine import engine, restore_docstrings  # first: it chooses compiled or pure modules

# isort: split
from ._cards import CARDS, JOKER, RANKS, SUITS, Card, cards_of
from ._deal import Deal, IllegalMove, as_move
from ._judge import move_suits, next_lock
from ._match import (
    FAULT_KINDS,
    PRESIDENT,
    SCUM,
    VICE_PRESIDENT,
    VICE_SCUM,
    Decision,
    Match,
    highest_cards,
    lowest_cards,
)
from ._moves import Move
from ._rules import Rules, trick_lock
from ._shuffle import deal_seed, shuffled
from ._state import DealContext
from ._view import View

# isort: split
from ._answer import (
    AnswerError,
    give_cards,
    judge_cards,
    judge_move,
    play_move,
    read_cards,
    read_move,
)

__all__ = [
    "CARDS",
    "FAULT_KINDS",
    "JOKER",
    "PRESIDENT",
    "RANKS",
    "SCUM",
    "SUITS",
    "VICE_PRESIDENT",
    "VICE_SCUM",
    "AnswerError",
    "Card",
    "Deal",
    "DealContext",
    "Decision",
    "IllegalMove",
    "Match",
    "Move",
    "Rules",
    "View",
    "as_move",
    "cards_of",
    "deal_seed",
    "engine",
    "give_cards",
    "highest_cards",
    "judge_cards",
    "judge_move",
    "lowest_cards",
    "move_suits",
    "next_lock",
    "play_move",
    "read_cards",
    "read_move",
    "restore_docstrings",
    "shuffled",
    "trick_lock",
]

restore_docstrings({name: globals()[name] for name in __all__})
