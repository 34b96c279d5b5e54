"""``expert``: a Monte Carlo player in the manner of the UECda champions.

For each decision with more than one sensible answer it

1. **solves the ending exactly** when only it and one opponent hold cards (the other
   hand is then every card not seen): a move that goes out first whatever the opponent
   answers is played at once (:mod:`bots._endgame`);
2. **estimates the hidden hands**: guesses consistent with the exchange, weighted by
   how likely the other seats' plays and passes of this deal were under a model of play
   (a softmax over :func:`bots._policy.move_values`), and resampled by that weight
   (:mod:`bots._belief`);
3. **searches** the candidate moves (the best ``width`` by the same judgement, and the
   pass when it is legal) by playing each out on those guesses with a fast policy for
   every seat (by default ``mc``'s: the weakest whole rank, jokers last, one move in
   eight at random; measured better here than the value-greedy
   :func:`bots._policy.heuristic_move`), choosing which move to try next by UCB1,
   scoring each playout by the points of its place (``Rules.points_for``), and plays
   the move tried most;
4. as President or Vice-President, **searches the exchange** the same way: each of the
   few best gifts by ``greedy``'s judgement played out from the start of the deal on
   the same guesses.

It stops at ``budget`` playouts per decision (when given) or at ``share`` of the move
limit by its own clock, whichever comes first, and early when one move is clearly ahead
(two standard errors). With a budget that ends first, which the tests and benchmarks
ensure with a long ``move_ms``, a match replays from its seed; the clock is the guard
that keeps a budget too large for the machine within the move limit. The move limit
is ``move_ms``, or the match's when the match tells it. Every choice is a function of
the view and the bot's own generator.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from typing import Any

from arena.bot import MatchInfo
from arena.game import SCUM, Card, Deal, Move, View

from ._belief import estimate, known, partner, sample_world
from ._endgame import winning_move
from ._greedy import GreedyBot
from ._hand import hand_cost, hand_mask, obvious
from ._mc import rollout_move
from ._policy import heuristic_move, move_values, random_move, rank_counts

Policy = Callable[[Deal, list[Move], random.Random], Move]

POLICIES: dict[str, Policy] = {
    "heuristic": heuristic_move,
    "weakest": lambda deal, moves, rng: rollout_move(moves, deal.revolution, rng),
    "random": random_move,
}
"""The playout policies by name: ``expert``'s own, ``mc``'s, and uniform (for the ablation)."""
EXPLORATION = 0.5
"""UCB1's exploration constant, in units of the points' range."""
CHECK_EVERY = 64
"""Playouts between two checks of whether one move is clearly ahead."""


class ExpertBot(GreedyBot):
    """Weighted hand estimation, heuristic playouts, exact endgame and a searched exchange."""

    description = ("Monte Carlo with weighted hand estimation, heuristic playouts, "
                   "exact endgame and searched exchange")
    stochastic = True

    def __init__(self, budget: int | None = None, share: float = 0.3, move_ms: float = 1000,
                 width: int = 10, samples: int = 48, worlds: int = 24,
                 estimation: bool = True, playout: str = "weakest", endgame: bool = True,
                 exchange_search: bool = True, nodes: int = 3000, gifts: int = 6) -> None:
        if budget is not None and budget < 1:
            raise ValueError("budget must be at least 1 playout (or none: the time share)")
        if not 0 < share <= 1 or move_ms <= 0:
            raise ValueError("share must be in (0, 1] and move_ms positive")
        if width < 1 or samples < 1 or worlds < 1 or gifts < 1 or nodes < 0:
            raise ValueError("width, samples, worlds and gifts must be at least 1, nodes >= 0")
        if playout not in POLICIES:
            raise ValueError(f"playout must be one of {', '.join(POLICIES)}, not {playout!r}")
        self.budget = budget
        self.share = share
        self.move_s = move_ms / 1000
        self.width = width
        self.samples = samples
        self.worlds = worlds
        self.estimation = estimation
        self.policy = POLICIES[playout]
        self.endgame = endgame
        self.exchange_search = exchange_search
        self.nodes = nodes
        self.gifts = gifts
        self.playouts = 0
        """Playouts behind the last decision (for tests and benchmarks)."""
        self.solved = False
        """Whether the last decision was the exact endgame's."""
        self.visits: list[tuple[Move, int]] = []
        """The playouts of each candidate move of the last decision (empty when no search
        chose it: an obvious move, the exact endgame's, a single candidate)."""

    def start_match(self, info: MatchInfo) -> None:
        """Take the match's move limit, when the match tells one."""
        move_ms: Any = getattr(info, "move_ms", None)
        if isinstance(move_ms, (int, float)) and move_ms > 0:
            self.move_s = move_ms / 1000

    # ------------------------------------------------------------------ play

    def play(self, view: View) -> Move:
        """The move the search likes best (see the module's docstring)."""
        out_of_time = self._timer()
        self.playouts = 0
        self.solved = False
        self.visits = []
        moves = view.legal_moves()
        plays = [m for m in moves if m.kind != "pass"]
        sure = obvious(plays, len(view.hand))
        if sure is not None:
            return sure
        if self.endgame:
            won, _ = winning_move(view, self.nodes, self._timer(1 / 3))
            if won is not None:
                self.solved = True
                return won
        candidates = self._candidates(view, moves)
        if len(candidates) == 1:
            return candidates[0]
        prior = self._prior(view, candidates)
        weigh = self._timer(1 / 3)
        worlds = estimate(view, self.rng, self.samples, self.worlds, self.estimation, weigh)
        bases: list[Deal | None] = [None] * len(worlds)
        me = view.seat
        points = view.rules.points_for(view.players)
        policy = self.policy
        rng = self.rng

        def playout(i: int, world: int) -> float:
            base = bases[world]
            if base is None:
                base = bases[world] = Deal.from_view(view, worlds[world])
            trial = base.copy()
            trial.play(candidates[i])
            return points[play_out(trial, me, rng, policy)]

        spread = float(max(points) - min(points)) or 1.0
        visits, _ = search(len(candidates), playout, len(worlds), self.budget, out_of_time,
                           spread, prior)
        self.playouts = sum(visits)
        self.visits = list(zip(candidates, visits, strict=True))
        return candidates[max(range(len(candidates)), key=lambda i: (visits[i], -i))]

    def _timer(self, part: float = 1.0) -> Callable[[], bool]:
        """Whether ``part`` of the time share is spent, from now."""
        deadline = time.perf_counter() + part * self.share * self.move_s
        return lambda: time.perf_counter() >= deadline

    def _prior(self, view: View, candidates: list[Move]) -> list[float] | None:
        """A bias per candidate for the search to try it more (``None``: none, UCB1 alone);
        ``guided`` gives its policy's (:mod:`bots._guided`)."""
        return None

    def _candidates(self, view: View, moves: list[Move]) -> list[Move]:
        """The ``width`` best-valued plays, best first, and the pass when it is legal."""
        mask, _ = hand_mask(view.hand)
        values = move_values(view.rules, moves, rank_counts(mask), len(view.hand),
                             view.revolution)
        order = sorted(range(len(moves)), key=lambda i: (-values[i], str(moves[i])))
        plays = [moves[i] for i in order if moves[i].kind != "pass"][: self.width]
        return [*plays, Move.PASS] if Move.PASS in moves else plays

    # ------------------------------------------------------------------ exchange

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """The gift, among ``greedy``'s few best, that plays out best from the deal's start."""
        gifts = self._gifts(view, count)
        across = partner(view)
        if not self.exchange_search or len(gifts) < 2 or across is None:
            return GreedyBot.exchange(self, view, count)
        out_of_time = self._timer()
        rules = view.rules
        points = rules.points_for(view.players)
        facts = known(view)
        me = view.seat
        rng = self.rng
        policy = self.policy
        worlds: list[list[list[Card]]] = []

        def playout(i: int, world: int) -> float:
            while len(worlds) <= world:
                worlds.append(sample_world(facts, rng))
            hands = [list(hand) for hand in worlds[world]]
            gift = gifts[i]
            hands[across] += gift
            hands[me] = [c for c in view.hand if c not in gift]
            leader = (view.roles.index(SCUM) if rules.scum_leads and SCUM in view.roles
                      else _holder(hands, Card.parse(rules.opening_card)))
            deal = Deal.from_hands(rules, hands, leader)
            return points[play_out(deal, me, rng, policy)]

        spread = float(max(points) - min(points)) or 1.0
        visits, _ = search(len(gifts), playout, 1 << 30, self.budget, out_of_time, spread)
        self.playouts = sum(visits)
        best = max(range(len(gifts)), key=lambda i: (visits[i], -i))
        return list(gifts[best])

    def _gifts(self, view: View, count: int) -> list[tuple[Card, ...]]:
        """``greedy``'s ``gifts`` best choices of ``count`` cards among its lowest eight."""
        naturals = sorted(c for c in view.hand if not c.is_joker)
        if len(naturals) < count:
            return []
        mask, jokers = hand_mask(view.hand)

        def key(combo: tuple[Card, ...]) -> tuple[float, int]:
            rest = mask
            for card in combo:
                rest &= ~(1 << card.index)
            return hand_cost(rest, jokers, False), sum(c.index for c in combo)

        return sorted(itertools.combinations(naturals[:8], count), key=key)[: self.gifts]


def _holder(hands: list[list[Card]], card: Card) -> int:
    for seat, hand in enumerate(hands):
        if card in hand:
            return seat
    return 0


def play_out(deal: Deal, me: int, rng: random.Random, policy: Policy) -> int:
    """Finish ``deal`` with ``policy`` for every seat; ``me``'s place (0 = first)."""
    while deal.card_count(me) and not deal.finished:
        deal.play(policy(deal, deal.legal_moves(), rng))
    return deal.places.index(me)


def search(arms: int, playout: Callable[[int, int], float], worlds: int, budget: int | None,
           out_of_time: Callable[[], bool], spread: float,
           prior: list[float] | None = None) -> tuple[list[int], list[float]]:
    """UCB1 over ``arms`` choices: ``playout(arm, world)`` scores one trial of ``arm`` on
    guess ``world`` (the n-th trial of every arm is on the n-th guess, so the arms are
    compared on the same guesses). Stops after ``budget`` trials, when ``out_of_time()``,
    or when the most tried arm's mean is clearly (two standard errors each side) above
    every other. Every arm is tried once first. Returns the trials and total per arm.

    ``prior``, when given, adds ``prior[arm] * spread * sqrt(t) / (1 + trials of arm)`` to
    an arm's bound, as PUCT does (AlphaZero's search): the arms a policy likes are tried
    more while the playouts have not yet told them apart."""
    visits = [0] * arms
    totals = [0.0] * arms
    squares = [0.0] * arms
    limit = budget if budget is not None else 1 << 40
    c = EXPLORATION * spread
    t = 0
    while t < limit:
        if t < arms:
            arm = t
        else:
            log_t = math.log(t)
            if prior is None:
                arm = max(range(arms), key=lambda i: totals[i] / visits[i]
                          + c * math.sqrt(log_t / visits[i]))
            else:
                root = spread * math.sqrt(t)
                arm = max(range(arms), key=lambda i: totals[i] / visits[i]
                          + c * math.sqrt(log_t / visits[i])
                          + prior[i] * root / (1 + visits[i]))
        score = playout(arm, visits[arm] % worlds)
        visits[arm] += 1
        totals[arm] += score
        squares[arm] += score * score
        t += 1
        if out_of_time():
            break
        if t % CHECK_EVERY == 0 and _clear(visits, totals, squares):
            break
    return visits, totals


def _clear(visits: list[int], totals: list[float], squares: list[float]) -> bool:
    """Whether the most tried arm is ahead of every other by two standard errors each."""
    best = max(range(len(visits)), key=lambda i: visits[i])

    def bounds(i: int) -> tuple[float, float]:
        n = visits[i]
        mean = totals[i] / n
        var = max(squares[i] / n - mean * mean, 0.0)
        err = 2 * math.sqrt(var / n) if n > 1 else math.inf
        return mean - err, mean + err

    low = bounds(best)[0]
    return all(bounds(i)[1] < low for i in range(len(visits)) if i != best)
