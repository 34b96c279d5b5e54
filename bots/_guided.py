"""``guided``: ``expert`` whose search is guided by the policy network of ``learned``.

What FujiGokoro does with its learned softmax policies, done with ``learned``'s network
(:mod:`bots.learned`, one forward pass per decision, numpy): at every decision the search
would make, the network scores the legal moves once, and

- its best move joins the candidates when ``expert``'s judgement left it out (beyond
  ``width``);
- the softmax of its scores over the candidates (at ``temperature``) is the prior of the
  search, which tries the moves the policy likes more while the playouts have not told
  them apart (PUCT's term, weighted by ``prior``; :func:`bots._expert.search`).

The rest is ``expert``'s: the exact endgame, the weighted hand estimation, the playouts,
the exchange search, the budget and the clock. Where no shipped network reads the match's
rules (``learned``'s presets are ``runs`` and ``daifugo`` at four seats, ``uecda`` at
five) it plays as ``expert``. Every choice is a function of the view and the bot's own
generator.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

from arena.bot import MatchInfo
from arena.game import Move, Rules, View

from ._descriptions import GUIDED_DESCRIPTION
from ._expert import ExpertBot
from .learned import Network, fits, load_network, network_for, policy_scores


class GuidedBot(ExpertBot):
    """``expert`` with the learned policy as the prior of its search."""

    description = GUIDED_DESCRIPTION

    def __init__(self, prior: float = 0.5, temperature: float = 1.0,
                 weights: str | None = None, **params: Any) -> None:
        super().__init__(**params)
        if not prior >= 0 or not temperature > 0:
            raise ValueError("prior must be at least 0 and temperature positive")
        self.prior_weight = prior
        self.temperature = temperature
        self.weights = load_network(Path(weights)) if weights is not None else None
        self.network: Network | None = None
        self._logits: dict[Move, float] = {}

    def bind(self, seat: int, rules: Rules, players: int, rng: random.Random) -> None:
        """Bind the bot and take the network of its rules."""
        super().bind(seat, rules, players, rng)
        self.network = self._network(rules, players)

    def start_match(self, info: MatchInfo) -> None:
        """Take the match's move limit and the network of its rules."""
        super().start_match(info)
        self.network = self._network(info.rules, info.players)

    def _network(self, rules: Rules, players: int) -> Network | None:
        if self.weights is not None:
            return self.weights if fits(self.weights, rules, players) else None
        return network_for(rules, players)

    def _candidates(self, view: View, moves: list[Move]) -> list[Move]:
        """``expert``'s candidates, and the network's best play if they lack it."""
        candidates = super()._candidates(view, moves)
        self._logits = self._scores(view, moves)
        if not self._logits:
            return candidates
        best = max(moves, key=lambda m: (self._logits[m], -moves.index(m)))
        if best in candidates:
            return candidates
        return [*candidates[:-1], best, candidates[-1]] if Move.PASS in candidates else \
            [*candidates, best]

    def _scores(self, view: View, moves: list[Move]) -> dict[Move, float]:
        """The network's score of each legal move at ``view`` (empty without a network)."""
        network = self.network
        if network is None or view.players != network.players:
            return {}
        return policy_scores(view, network)

    def _prior(self, view: View, candidates: list[Move]) -> list[float] | None:
        """The softmax of the network's scores over the candidates, times ``prior``."""
        logits = self._logits
        if not logits or self.prior_weight == 0:
            return None
        values = [logits[m] / self.temperature for m in candidates]
        top = max(values)
        weights = [math.exp(v - top) for v in values]
        total = sum(weights)
        return [self.prior_weight * w / total for w in weights]
