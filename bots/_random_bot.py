"""``random``: a uniformly random legal move."""

from __future__ import annotations

from random import Random

from arena.bot import Bot
from arena.game import Card, Move, View


class RandomBot(Bot):
    """Plays a uniformly random legal move (passing included) and gives random cards back."""

    stochastic = True

    def play(self, view: View) -> Move:
        """Any legal move, drawn from the referee-seeded generator."""
        moves = view.legal_moves()
        rng = self.rng
        count = len(moves)
        if rng.__class__ is not Random or not count:
            return rng.choice(moves)
        # Random.choice, spelled out for the referee-seeded Random: the same draws (its
        # _randbelow: getrandbits of the count's bit length, again while not below it)
        # without its two calls of Python functions at every move.
        bits = count.bit_length()
        index = rng.getrandbits(bits)
        while index >= count:
            index = rng.getrandbits(bits)
        return moves[index]

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """Any ``count`` cards of the hand (which the view gives sorted)."""
        return list(self.rng.sample(view.hand, count))
