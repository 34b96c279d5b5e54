"""A fast judgement of moves, shared by ``expert``'s playouts and its model of the opponents.

:func:`move_values` gives every legal move a value from the mover's hand alone (how
weak the cards are, whether the move breaks a group, whether it spends a control card,
how many cards it sheds). The playouts play the best-valued move with a little noise
(:func:`heuristic_move`); the hand estimation reads the same values as a softmax policy,
the probability that a player holding a guessed hand chose what it was seen to play
(:mod:`bots._belief`). One judgement, two uses: the opponents are modelled as playing
the way the playouts play them.

It works on masks and rank counts, never on card objects, so it costs about a
microsecond per move.
"""

from __future__ import annotations

import random

from arena.game import Deal, Move, Rules

from ._hand import TOP

PASS_VALUE = -1.3
"""The value of a pass: below every answer but a 2, an ace or a joker while the hand is long."""
BREAK_PENALTY = 0.45
"""The price of playing part of a rank's cards (breaking a pair or a triple)."""
CONTROL_PENALTY = 0.45
"""The price of a 2, an ace (in the order in force) or a joker while the hand is long."""
SIZE_BONUS = 0.12
"""The worth of every card beyond the first in one play: fewer plays to empty the hand."""
RUN_BONUS = 0.15
"""The worth of each card of a run."""
CLEAR_BONUS = 0.1
"""The worth of a play that clears the pile (the player leads again)."""
OUT_BONUS = 5.0
"""A play that empties the hand is always best."""
NOISE = 0.1
"""How often the playout policy plays any legal move instead of its best."""


def rank_counts(mask: int) -> list[int]:
    """How many natural cards of each rank (0 = 3 .. 12 = 2) a rank-major mask holds."""
    return [_NIBBLE[(mask >> (4 * rank)) & 0xF] for rank in range(TOP + 1)]


_NIBBLE = tuple(bin(n).count("1") for n in range(16))


def move_values(rules: Rules, moves: list[Move], counts: list[int], held: int,
                revolution: bool) -> list[float]:
    """The value of each of ``moves`` to a player holding ``counts`` (per rank) and
    ``held`` cards in all; higher is better."""
    out = []
    long_hand = held > 3
    top_clears = rules.top_clears
    eight_stop = rules.eight_stop
    for move in moves:
        kind = move.kind
        size = move.size
        if kind == "pass":
            out.append(PASS_VALUE)
            continue
        if size == held:
            out.append(OUT_BONUS)
            continue
        jokers = move.jokers
        if kind == "set":
            rank = move.rank
            if rank is None:
                value = -13 / 12 - (CONTROL_PENALTY if long_hand else 0.0)
                out.append(value)
                continue
            strength = TOP - rank if revolution else rank
            value = -strength / 12 + SIZE_BONUS * (size - 1)
            if size - jokers < counts[rank]:
                value -= BREAK_PENALTY
            if (top_clears and strength == TOP) or (eight_stop and rank == 5):
                value += CLEAR_BONUS
        else:
            low = move.low
            high = move.high
            assert low is not None and high is not None
            strength = TOP - low if revolution else high
            value = -strength / 12 + RUN_BONUS * size
            for rank in range(low, high + 1):
                if counts[rank] > 1:
                    value -= BREAK_PENALTY / 2
            if eight_stop and low <= 5 <= high:
                value += CLEAR_BONUS
        if long_hand and (strength >= TOP - 1 or jokers):
            value -= CONTROL_PENALTY * (1 + jokers)
        out.append(value)
    return out


def heuristic_move(deal: Deal, moves: list[Move], rng: random.Random) -> Move:
    """The playout policy: the best-valued move for the seat to move, or now and then
    (:data:`NOISE`) any legal move, so the playouts see more than one line of play."""
    if len(moves) == 1:
        return moves[0]
    if rng.random() < NOISE:
        return moves[rng.randrange(len(moves))]
    seat = deal.to_move
    assert seat is not None
    counts = [0] * (TOP + 1)
    hand = deal.hand(seat)
    for card in hand:
        rank = card.rank
        if rank is not None:
            counts[rank] += 1
    values = move_values(deal.rules, moves, counts, len(hand), deal.revolution)
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return moves[best]


def random_move(deal: Deal, moves: list[Move], rng: random.Random) -> Move:
    """Uniformly random playouts (for the ablation)."""
    return moves[rng.randrange(len(moves))]
