"""Shared judgement for the built-in bots: how strong a move is, how good a hand is.

Everything here works on the engine's rank-major card masks (bit ``rank * 4 + suit``)
so that the heuristics stay cheap enough to run on every legal move of every turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.game import Card, Move, View

TOP = 12
"""Rank index of the 2, the highest rank in the normal order."""
JOKER_STRENGTH = 13
"""Strength of a set of jokers alone: above every natural set in either order."""


def strength(move: Move, revolution: bool) -> int:
    """How hard ``move`` is to beat, 0 (weakest) .. 13, in the order in force.

    A set counts its rank, a run its highest rank (its lowest, turned round, during a
    revolution), as the rules compare them; a set of jokers alone is the strongest.
    """
    if move.kind == "set":
        if move.rank is None:
            return JOKER_STRENGTH
        return TOP - move.rank if revolution else move.rank
    if move.kind == "run":
        assert move.low is not None and move.high is not None
        return TOP - move.low if revolution else move.high
    return -1


def weakest_first(move: Move, revolution: bool) -> tuple[int, int, int, str]:
    """Sort key: weakest move first; at equal strength, fewer jokers, fewer cards."""
    return (strength(move, revolution), move.jokers, len(move), str(move))


def strongest_first(move: Move, revolution: bool) -> tuple[int, int, int, str]:
    """Sort key: strongest move first; at equal strength, fewer jokers, more cards."""
    return (-strength(move, revolution), move.jokers, -len(move), str(move))


def hand_mask(cards: Iterable[Card]) -> tuple[int, int]:
    """A hand as ``(rank-major mask of its natural cards, number of jokers)``."""
    mask = jokers = 0
    for card in cards:
        if card.is_joker:
            jokers += 1
        else:
            mask |= 1 << card.index
    return mask, jokers


def seen_mask(view: View) -> tuple[int, int]:
    """What ``view``'s seat has seen: ``(mask of the natural cards in its hand and in every
    play of the deal, number of jokers among them)``; the rest of the deck is unseen."""
    seen, jokers = hand_mask(view.hand)
    for _, move in view.plays:
        seen |= move.mask
        jokers += move.jokers
    return seen, jokers


JOKER_COST = 0.3
"""What a joker adds to a hand's cost: it is almost a free trick."""


def _group_cost(strength_: int) -> float:
    # A weak group costs a whole play that someone else can answer; a group at the top
    # of the order wins its trick, so it costs about half of that.
    return 1.0 - 0.5 * strength_ / TOP


_NORMAL: tuple[float, ...] = tuple(_group_cost(rank) for rank in range(TOP + 1))
_REVERSED: tuple[float, ...] = tuple(_group_cost(TOP - rank) for rank in range(TOP + 1))


def hand_cost(mask: int, jokers: int, revolution: bool) -> float:
    """About how many plays the hand still needs, less for plays that win their trick.

    Every rank held is one set to play, costing from 1.0 (the weakest rank) down to 0.5
    (the top rank, which clears the pile); a joker costs :data:`JOKER_COST`. Lower is
    better. Runs are left out on purpose: a run is a bonus that sheds several of these
    sets in one play, and a hand judged by its runs holds on to them too long (measured:
    it finishes about a third of a place worse against random players).
    """
    costs = _REVERSED if revolution else _NORMAL
    total = JOKER_COST * jokers
    rank = 0
    while mask:
        if mask & 0xF:
            total += costs[rank]
        mask >>= 4
        rank += 1
    return total


def obvious(plays: list[Move], held: int) -> Move | None:
    """The move every sensible bot makes, if there is one: a pass when no play is legal
    (``plays``, the legal moves but the pass), else a play of all ``held`` cards (going out)."""
    if not plays:
        return Move.PASS
    for move in plays:
        if len(move) == held:
            return move
    return None
