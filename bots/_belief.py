"""Hand estimation for ``expert``: guesses of the hidden hands, weighted by what was played.

A guess (a *world*) deals the unseen cards to the other seats, as many as each holds,
with the two certainties the exchange gives:

- the cards this seat gave stay with the seat that received them until they are played;
- the seat that gave this seat its highest cards (President and Vice-President receive
  from Scum and Vice-Scum) kept none higher than the lowest card it gave.

Those are dealt as hard constraints. Everything else is a matter of likelihood: a seat
that passed on a low single probably holds no low single it would rather play; a seat
that led a 9 probably holds no 4 it would have led first. :func:`estimate` draws many
worlds, replays the deal's decisions of the other seats on each (their hand at each
decision is their guessed hand now plus the cards they played since), scores each
decision by the probability a softmax over :func:`bots._policy.move_values` gives it,
and draws the worlds the search uses from that weighting (sampling importance
resampling). The public state at every past decision (pile, order, suit lock) does not
depend on the hidden cards, so the deal is replayed once, on the first world.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from arena.game import (
    CARDS,
    JOKER,
    PRESIDENT,
    SCUM,
    VICE_PRESIDENT,
    VICE_SCUM,
    Card,
    Deal,
    IllegalMove,
    Move,
    View,
    trick_lock,
)

from ._hand import seen_mask
from ._policy import move_values, rank_counts

PARTNER = {PRESIDENT: SCUM, SCUM: PRESIDENT, VICE_PRESIDENT: VICE_SCUM, VICE_SCUM: VICE_PRESIDENT}
"""Who exchanged cards with whom: each role and the role across the exchange."""
TEMPERATURE = 0.35
"""The softmax temperature of the model of play: lower trusts the model more."""

World = list[list[Card]]


@dataclass(frozen=True)
class Known:
    """What the exchange tells one seat for sure about the other hands, and what it has not seen."""

    unseen: list[Card]
    """Cards not in the seat's hand and not played, less those placed (jokers included)."""
    need: list[int]
    """Per seat, how many unseen cards its hand still takes."""
    placed: list[list[Card]]
    """Per seat, cards known to be in its hand (the cards this seat gave, not yet played)."""
    cap: tuple[int, int] | None
    """``(seat, index)``: that seat holds no unplaced card of index ``index`` or above."""


def partner(view: View) -> int | None:
    """The seat across the exchange from ``view``'s seat, if it has a role."""
    role = view.roles[view.seat] if view.roles else None
    other = PARTNER.get(role) if role is not None else None
    if other is None or other not in view.roles:
        return None
    seat = view.roles.index(other)
    return None if seat == view.seat else seat


def known(view: View, extra_unseen: list[Card] | None = None) -> Known:
    """The unseen cards and the exchange's certainties at ``view`` (play or exchange)."""
    players = view.players
    need = list(view.counts)
    need[view.seat] = 0
    placed: list[list[Card]] = [[] for _ in range(players)]
    seen, jokers_seen = seen_mask(view)
    across = partner(view)
    cap = None
    if across is not None:
        for card in view.gave:
            if card.is_joker or seen >> card.index & 1 or not need[across]:
                continue  # a joker given may be the one played: leave it to chance
            placed[across].append(card)
            need[across] -= 1
            seen |= 1 << card.index
        role = view.roles[view.seat]
        received = view.received
        if received and role in (PRESIDENT, VICE_PRESIDENT):
            cap = (across, min(card.index for card in received))
    unseen = [c for c in CARDS if not seen >> c.index & 1]
    unseen += [JOKER] * max(0, view.rules.jokers - jokers_seen)
    return Known(unseen, need, placed, cap)


def sample_world(facts: Known, rng: random.Random, *, use_cap: bool = True) -> World:
    """One guess of every other hand, uniform among those the certainties allow.

    The capped seat is dealt first from the cards below its cap (when too few are left
    for it, the rest of its hand comes from the others), then the other seats at random.
    ``use_cap=False`` leaves the cap out: every seat is dealt at random, in seat order.
    """
    cap = facts.cap if use_cap else None
    hands = [list(cards) for cards in facts.placed]
    pool = facts.unseen[:]
    rng.shuffle(pool)
    if cap is not None:
        seat, top = cap
        low = [c for c in pool if c.index < top]
        take = low[: facts.need[seat]]
        hands[seat] += take
        chosen = {card.index for card in take}  # naturals only: a joker is above every cap
        pool = [c for c in pool if c.is_joker or c.index not in chosen]
        short = facts.need[seat] - len(take)
        if short > 0:
            hands[seat] += pool[:short]
            pool = pool[short:]
    at = 0
    for seat, count in enumerate(facts.need):
        if cap is not None and seat == cap[0]:
            continue
        hands[seat] += pool[at:at + count]
        at += count
    return hands


@dataclass(frozen=True)
class Seen:
    """One past decision of another seat, with the public state it was taken in."""

    seat: int
    pile: Move | None
    revolution: bool
    lock: int
    chosen: Move
    later_mask: int
    """Natural cards the seat played from this decision on (this one included)."""
    later_jokers: int


def history(view: View, world: World) -> list[Seen]:
    """The other seats' decisions of this deal, replayed on ``world`` to read the public
    state at each one. Stops (keeping what it read) where the replay cannot follow the
    record, for instance after a forfeit."""
    players = view.players
    played_mask = [0] * players
    played_jokers = [0] * players
    for seat, move in view.plays:
        played_mask[seat] |= move.mask
        played_jokers[seat] += move.jokers
    if not view.plays:
        return []
    hands: list[list[Card]] = []
    for seat in range(players):
        hand = view.hand if seat == view.seat else world[seat]
        back = [CARDS[i] for i in range(52) if played_mask[seat] >> i & 1]
        hands.append([*hand, *back, *[JOKER] * played_jokers[seat]])
    try:
        deal = Deal.from_hands(view.rules, hands, view.plays[0][0])
    except ValueError:
        return []
    later_mask = played_mask[:]
    later_jokers = played_jokers[:]
    out = []
    rules = view.rules
    for seat, move in view.plays:
        if deal.to_move != seat:
            break
        if seat != view.seat:
            lock = trick_lock(rules, deal.trick)[0] if rules.suit_lock else 0
            out.append(Seen(seat, deal.pile, deal.revolution, lock, move, later_mask[seat],
                            later_jokers[seat]))
        try:
            deal.play(move)
        except IllegalMove:
            break
        later_mask[seat] &= ~move.mask
        later_jokers[seat] -= move.jokers
    return out


def log_likelihood(view: View, seen: list[Seen], world: World) -> float:
    """The log probability of the seen decisions if ``world`` holds the hidden hands."""
    rules = view.rules
    masks = [0] * view.players
    jokers = [0] * view.players
    for seat, hand in enumerate(world):
        for card in hand:
            if card.is_joker:
                jokers[seat] += 1
            else:
                masks[seat] |= 1 << card.index
    total = 0.0
    for d in seen:
        mask = masks[d.seat] | d.later_mask
        jok = jokers[d.seat] + d.later_jokers
        moves = rules.moves(mask, _smask(mask), jok, d.pile, d.revolution, d.lock)
        if len(moves) == 1:
            continue
        values = move_values(rules, moves, rank_counts(mask), _bits(mask) + jok, d.revolution)
        chosen = -1
        for i, move in enumerate(moves):
            if move == d.chosen:
                chosen = i
                break
        if chosen < 0:
            return -math.inf
        top = max(values)
        norm = sum(math.exp((v - top) / TEMPERATURE) for v in values)
        total += (values[chosen] - top) / TEMPERATURE - math.log(norm)
    return total


def estimate(view: View, rng: random.Random, samples: int, worlds: int, weighted: bool,
             out_of_time: Callable[[], bool]) -> list[World]:
    """``worlds`` guesses of the hidden hands for the search.

    ``weighted``: drawn by likelihood from ``samples`` uniform guesses (sampling
    importance resampling); otherwise the first ``worlds`` uniform guesses. Stops
    weighing when ``out_of_time()`` says so and resamples from what it weighed.
    """
    facts = known(view)
    pool = [sample_world(facts, rng) for _ in range(samples if weighted else worlds)]
    if not weighted:
        return pool
    seen = history(view, pool[0])
    if not seen:
        return pool[:worlds]
    logs: list[float] = []
    for world in pool:
        logs.append(log_likelihood(view, seen, world))
        if out_of_time():
            break
    top = max(logs)
    if top == -math.inf:
        return pool[:worlds]
    weights = [math.exp(x - top) for x in logs]
    return resample(pool[: len(weights)], weights, worlds, rng)


def resample(pool: list[World], weights: list[float], count: int,
             rng: random.Random) -> list[World]:
    """``count`` draws from ``pool`` in proportion to ``weights`` (systematic resampling:
    one random offset, evenly spaced pointers, so the draw is close to the weights)."""
    total = sum(weights)
    step = total / count
    point = rng.random() * step
    out = []
    acc = 0.0
    i = 0
    for _ in range(count):
        while acc + weights[i] < point and i < len(weights) - 1:
            acc += weights[i]
            i += 1
        out.append(pool[i])
        point += step
    return out


def _bits(mask: int) -> int:
    return bin(mask).count("1")


_SMASK = [1 << ((i % 4) * 16 + i // 4) for i in range(52)]


def _smask(mask: int) -> int:
    """The suit-major mask (bit ``suit * 16 + rank``) of a rank-major mask."""
    out = 0
    while mask:
        low = mask & -mask
        out |= _SMASK[low.bit_length() - 1]
        mask ^= low
    return out
