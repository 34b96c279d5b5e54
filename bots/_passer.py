"""``passer``: passes whenever it may."""

from __future__ import annotations

from arena.bot import Bot
from arena.game import Move, View

from ._hand import weakest_first


class PasserBot(Bot):
    """Passes whenever it may; when it must lead, plays its weakest combination."""

    def play(self, view: View) -> Move:
        """A pass if legal, else the weakest legal move."""
        moves = view.legal_moves()
        if Move.PASS in moves:
            return Move.PASS
        return min(moves, key=lambda m: weakest_first(m, view.revolution))
