"""An example arena bot package: one bot, ``shedder``, registered as plugin ``shedder``."""

from __future__ import annotations

from arena import Bot, hookimpl
from arena.game import Move, View
from arena.hookspecs import Register


class Shedder(Bot):
    """Plays the move that sheds the most cards, the weakest of those; keeps its 2s and jokers."""

    author = "Example Author"

    def play(self, view: View) -> Move:
        """The longest legal move without a 2 or a joker, the weakest among equals."""
        moves = view.legal_moves()
        plays = [m for m in moves if m.kind != "pass"]
        cheap = [m for m in plays if m.jokers == 0 and not _has_a_two(m)]
        if cheap:
            plays = cheap
        elif Move.PASS in moves and len(view.hand) > 2:
            return Move.PASS  # only 2s and jokers would do: keep them for later
        if not plays:
            return Move.PASS
        return max(plays, key=lambda m: (len(m), -_rank(m, view.revolution)))


def _has_a_two(move: Move) -> bool:
    return any(card.rank == 12 for card in move.cards)


def _rank(move: Move, revolution: bool) -> int:
    """How strong the move is in the order in force (a run counts its highest card)."""
    rank = move.high if move.high is not None else 13
    return 12 - rank if revolution else rank


@hookimpl
def register_bots(register: Register) -> None:
    """Tell arena about the bot: its name, the class that makes it, its metadata."""
    register("shedder", Shedder, description="Sheds the most cards it can, keeping 2s and jokers")
