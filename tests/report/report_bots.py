"""A bot for the report tests: plays legal moves, but every second lead it passes (illegal)."""

from __future__ import annotations

from arena import Bot
from arena.game import Move, View


class Clumsy(Bot):
    """Plays its first legal move, but passes every second time it leads: a fault."""

    def __init__(self) -> None:
        self.leads = 0

    def play(self, view: View) -> Move | str:
        moves = view.legal_moves()
        if not any(m.kind == "pass" for m in moves):
            self.leads += 1
            if self.leads % 2 == 0:
                return "pass"
        return moves[0]
