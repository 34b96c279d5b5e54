"""``random``: a uniformly random legal move."""

from __future__ import annotations

import random

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
        if type(rng) is not random.Random or not count:
            return rng.choice(moves)
        # random.Random.choice unrolled, drawing the same bits (its _randbelow): the bot
        # every benchmark of the referee seats, asked at every decision.
        # tests/bots/test_builtin_bots.py holds its moves to choice's.
        bits = count.bit_length()
        getrandbits = rng.getrandbits
        index = getrandbits(bits)
        while index >= count:
            index = getrandbits(bits)
        return moves[index]

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """Any ``count`` cards of the hand."""
        return list(self.rng.sample(sorted(view.hand), count))
