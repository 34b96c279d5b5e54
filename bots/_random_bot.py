"""``random``: a uniformly random legal move."""

from __future__ import annotations

from arena.bot import Bot
from arena.game import Card, Move, View


class RandomBot(Bot):
    """Plays a uniformly random legal move (passing included) and gives random cards back."""

    stochastic = True

    def play(self, view: View) -> Move:
        """Any legal move, drawn from the referee-seeded generator."""
        return self.rng.choice(view.legal_moves())

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """Any ``count`` cards of the hand (which the view gives sorted)."""
        return list(self.rng.sample(view.hand, count))
