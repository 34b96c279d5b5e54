"""``lowest``: always the weakest legal combination."""

from __future__ import annotations

from arena.bot import Bot
from arena.game import Move, View

from ._hand import weakest_first


class LowestBot(Bot):
    """Plays its weakest legal combination; passes only when nothing beats the pile."""

    def play(self, view: View) -> Move:
        """The weakest non-pass move in the order in force, else a pass."""
        moves = [m for m in view.legal_moves() if m.kind != "pass"]
        if not moves:
            return Move.PASS
        return min(moves, key=lambda m: weakest_first(m, view.revolution))
