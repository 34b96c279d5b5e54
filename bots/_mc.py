"""``mc``: a Monte Carlo player that looks ahead by playing the deal out many times.

For each decision it

1. guesses the hidden hands (a *determinization*): the cards it has not seen, dealt at
   random to the other seats in the numbers the view counts, except that cards it gave
   in this deal's exchange stay with the seat that received them until they are played;
2. plays every candidate move on a copy of the deal (:meth:`arena.game.Deal.from_view`,
   :meth:`~arena.game.Deal.copy`) and finishes the deal with a fast default policy for
   every seat, its own included (:func:`rollout_move`), until its own place is known;
3. scores the playout by the points of that place (``Rules.points_for``) and, after all
   rounds, plays the candidate with the best average. Every candidate is played out on
   the same guesses (common random numbers), so their averages differ by the move, not
   by luck of the deal.

The budget is ``playouts`` rounds (one guess, every candidate played out on it) or
``share`` of ``move_ms`` by the bot's own clock, whichever comes first: at the default
budget the time share is rarely reached on an ordinary machine, so a match replays
identically from its seed; when it is reached the bot answers with what it has, never
later than ``share * move_ms`` plus one playout: the bot reads its clock after each
playout, compares the moves on whole rounds only, and with no whole round plays
``greedy``'s choice. Candidates are ``greedy``'s choice and the other legal moves, at
most ``width`` of them, chosen by ``greedy``'s judgement when there are more; the pass
is always a candidate when it is legal. The exchange is ``greedy``'s.
"""

from __future__ import annotations

import random
import time

from arena.game import Card, Deal, Move, View

from ._belief import known, sample_world
from ._greedy import GreedyBot, _gain
from ._hand import hand_cost, hand_mask, obvious


class McBot(GreedyBot):
    """Plays each candidate move out on sampled hidden hands and keeps the best average place."""

    description = "Monte Carlo: plays each move out on sampled hands, keeps the best average"
    stochastic = True

    def __init__(self, playouts: int = 48, share: float = 0.5, move_ms: float = 1000,
                 width: int = 8) -> None:
        if playouts < 1 or width < 1:
            raise ValueError("playouts and width must be at least 1")
        if not 0 < share <= 1 or move_ms <= 0:
            raise ValueError("share must be in (0, 1] and move_ms positive")
        self.playouts = playouts
        self.budget_s = share * move_ms / 1000
        self.width = width
        self.rounds_played = 0
        """Rounds of playouts behind the last decision (for tests and benchmarks)."""
        self.values: list[tuple[Move, float]] = []
        """The candidates of the last decision searched, each with its average points (none
        when no search chose): what the trainer's soft targets read."""

    @property
    def visits(self) -> list[tuple[Move, int]]:
        """The candidates of the last decision searched, each with its playouts: the rounds
        played, every candidate being played out once a round."""
        return [(move, self.rounds_played) for move, _ in self.values]

    def play(self, view: View) -> Move:
        """The candidate with the best average points over the playouts."""
        deadline = time.perf_counter() + self.budget_s
        moves = view.legal_moves()
        plays = [m for m in moves if m.kind != "pass"]
        self.rounds_played = 0
        self.values = []
        sure = obvious(plays, len(view.hand))
        if sure is not None:
            return sure
        candidates = self._candidates(view, plays, len(plays) < len(moves))
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        points = view.rules.points_for(view.players)
        rng = self.rng
        me = view.seat
        clock = time.perf_counter
        for _ in range(self.playouts):
            deal = Deal.from_view(view, sample_hands(view, rng))
            scores = []
            for move in candidates:
                trial = deal.copy()
                trial.play(move)
                scores.append(points[play_out(trial, me, rng)])
                if clock() >= deadline:
                    break
            if len(scores) < len(candidates):
                break  # out of time mid-round: only whole rounds compare the moves fairly
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
            self.rounds_played += 1
            if clock() >= deadline:
                break
        if not self.rounds_played:
            return candidates[0]  # greedy's choice: no time for a single round
        self.values = [(move, total / self.rounds_played)
                       for move, total in zip(candidates, totals, strict=True)]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def _candidates(self, view: View, plays: list[Move], may_pass: bool) -> list[Move]:
        """The plays worth simulating, greedy's choice first, then the pass.

        Greedy's choice leads the list, so it is the answer when not even one round of
        playouts fits in the time share.
        """
        first = GreedyBot.play(self, view)
        if len(plays) > self.width:
            mask, jokers = hand_mask(view.hand)
            before = hand_cost(mask, jokers, view.revolution)
            plays = sorted(
                plays,
                key=lambda m: (-_gain(view.rules, m, mask, jokers, before, view.revolution),
                               str(m)),
            )[: self.width]
        plays = [first, *(m for m in plays if m != first)] if first.kind != "pass" else plays
        return [*plays, Move.PASS] if may_pass else plays


def sample_hands(view: View, rng: random.Random) -> list[list[Card]]:
    """Hidden hands consistent with what ``view``'s seat knows, drawn at random: the unseen
    cards dealt to the other seats, the cards the seat gave in this deal's exchange and
    that have not been played left with the seat that received them (``_belief.known``).
    ``mc`` leaves out what the cards it received tell of its partner's hand (``expert``'s
    cap). ``hands[view.seat]`` is left empty (``Deal.from_view`` uses the view's own hand).
    """
    return sample_world(known(view), rng, use_cap=False)


def play_out(deal: Deal, me: int, rng: random.Random) -> int:
    """Finish ``deal`` with :func:`rollout_move` for every seat; ``me``'s place (0 = first)."""
    while deal.card_count(me) and not deal.finished:
        deal.play(rollout_move(deal.legal_moves(), deal.revolution, rng))
    return deal.places.index(me)


def rollout_move(moves: list[Move], revolution: bool, rng: random.Random) -> Move:
    """The default policy of the playouts: cheap, and close to how people play.

    The weakest play in the order in force, all the cards of its rank together, jokers
    kept until nothing else answers; one time in eight, any legal move instead, so the
    playouts see more than one line of play.
    """
    if rng.random() < 0.125:
        return moves[rng.randrange(len(moves))]
    best = moves[-1]
    best_key = 1 << 30
    for move in moves:
        kind = move.kind
        if kind == "pass":
            continue
        if kind == "set":
            rank = move.rank
            strength = 13 if rank is None else (12 - rank if revolution else rank)
        else:
            strength = 12 - move.low if revolution else move.high  # type: ignore[operator,assignment]
        key = (move.jokers << 12) | (strength << 4) | (15 - move.size)
        if key < best_key:
            best, best_key = move, key
    return best
