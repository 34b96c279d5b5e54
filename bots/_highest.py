"""``highest``: always the strongest legal combination."""

from __future__ import annotations

from arena.bot import Bot
from arena.game import Move, View

from ._hand import strongest_first


class HighestBot(Bot):
    """Plays its strongest legal combination; passes only when nothing beats the pile."""

    def play(self, view: View) -> Move:
        """The strongest non-pass move in the order in force, else a pass."""
        moves = [m for m in view.legal_moves() if m.kind != "pass"]
        if not moves:
            return Move.PASS
        return min(moves, key=lambda m: strongest_first(m, view.revolution))
