"""``greedy``: a heuristic player that empties its hand in the fewest plays.

It judges every legal move by how much cheaper it leaves the hand (see
:func:`bots._hand.hand_cost`: about the number of sets still to play, strong ones
counting less) and plays the move that gains most:

- it leads its weakest set, whole, and follows with its weakest answer, breaking a
  pair or a triple only when no lone card answers; a run is played as soon as it can
  be, since it sheds several sets in one play;
- 2s, jokers (and 3s during a revolution) are kept for control: spending one costs a
  penalty until the rest of the hand is nearly gone;
- it never passes when it can answer: a pass loses tempo, and measured against
  ``random`` and ``lowest`` every threshold that made it pass more often did worse;
- a revolution is judged the same way, by the cost of the rest of the hand in the
  reversed order, so it is started when the hand is weak and avoided when it is strong;
- with one unbeatable play and one more play left, it plays the unbeatable one first;
- as President it gives back the cards whose loss leaves its hand cheapest: its weakest
  lone cards, rather than a 2, a joker or a card of a pair.

The constants below were tuned against ``random`` and ``lowest`` opponents with
``arena.referee.compare`` (see ``benchmarks/greedy_vs_random.py``).
"""

from __future__ import annotations

import itertools
import math

from arena.bot import Bot
from arena.game import Card, Move, Rules, View

from ._hand import TOP, hand_cost, hand_mask, obvious, strength

CONTROL_PENALTY = 0.35
"""The price of spending a control card while the hand is still long."""
CLEAR_BONUS = 0.15
"""The worth of clearing the pile: the bot leads again."""
CONTROL_STRENGTH = TOP
"""Moves at least this strong (2s, or 3s in a revolution) count as control."""
ENDGAME_COST = 1.5
"""Below this hand cost the hand is nearly out and control cards may be spent."""


class GreedyBot(Bot):
    """Plays the combination that empties its hand fastest, keeping 2s and jokers for control."""

    def play(self, view: View) -> Move:
        """The move that gains most; a pass only when nothing beats the pile."""
        moves = view.legal_moves()
        plays = [m for m in moves if m.kind != "pass"]
        sure = obvious(plays, len(view.hand))
        if sure is not None:
            return sure
        rules = view.rules
        revolution = view.revolution
        mask, jokers = hand_mask(view.hand)
        if Move.PASS not in moves:  # leading
            finisher = self._finish_with_control(view, plays)
            if finisher is not None:
                return finisher
        before = hand_cost(mask, jokers, revolution)
        best = plays[0]
        best_key = (-math.inf, 0, 0, "")
        for move in plays:
            value = _gain(rules, move, mask, jokers, before, revolution)
            key = (value, -strength(move, revolution), len(move), str(move))
            if key > best_key:
                best, best_key = move, key
        return best

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """The ``count`` cards (among its lowest) whose loss leaves the cheapest hand."""
        naturals = sorted(c for c in view.hand if not c.is_joker)
        if len(naturals) < count:
            return super().exchange(view, count)
        mask, jokers = hand_mask(view.hand)
        best: tuple[float, int] | None = None
        gift: tuple[Card, ...] = tuple(naturals[:count])
        for combo in itertools.combinations(naturals[:8], count):
            rest = mask
            for card in combo:
                rest &= ~(1 << card.index)
            key = (hand_cost(rest, jokers, False), sum(c.index for c in combo))
            if best is None or key < best:
                best, gift = key, combo
        return list(gift)

    def _finish_with_control(self, view: View, plays: list[Move]) -> Move | None:
        """An unbeatable lead after which the rest of the hand goes in one play, if any."""
        rules = view.rules
        revolution = view.revolution
        for move in sorted(plays, key=lambda m: (-len(m), str(m))):
            unbeatable = rules.clears(move, revolution) or (
                move.kind == "set" and move.rank is None and move.jokers == rules.jokers
            )
            if not unbeatable:
                continue
            rest = _without(view.hand, move)
            flipped = revolution != rules.starts_revolution(move)
            if any(len(m) == len(rest) for m in rules.legal_moves(rest, None, flipped)):
                return move
        return None


def _gain(rules: Rules, move: Move, mask: int, jokers: int, before: float,
          revolution: bool) -> float:
    """How much cheaper ``move`` leaves the hand, with the control penalty and clear bonus."""
    flips = rules.starts_revolution(move)
    after = hand_cost(mask & ~move.mask, jokers - move.jokers, revolution != flips)
    gain = before - after
    if not flips and after > ENDGAME_COST and _is_control(move, revolution):
        gain -= CONTROL_PENALTY
    if rules.clears(move, revolution):
        gain += CLEAR_BONUS
    return gain


def _without(hand: list[Card], move: Move) -> list[Card]:
    """``hand`` less the cards of ``move``."""
    jokers = move.jokers
    rest = []
    for card in hand:
        if card.is_joker:
            if jokers:
                jokers -= 1
                continue
        elif (move.mask >> card.index) & 1:
            continue
        rest.append(card)
    return rest


def _is_control(move: Move, revolution: bool) -> bool:
    """Whether ``move`` spends a card kept for control: a joker, or the top rank."""
    return move.jokers > 0 or strength(move, revolution) >= CONTROL_STRENGTH
