"""A trained President agent: a linear scorer of the legal actions, entered like any bot.

The policy sees only what the environments give a learner, the observation and the legal-
action mask of :mod:`arena.env`; it scores each legal action by a few features of its move
(a pass, its size, its strength in the order in force, a run, the jokers it spends) and of
the hand (few cards left), weighted by the numbers ``train.py`` learnt, and plays the best.
The weights live in ``weights.json`` beside this file.

Installed (``pip install -e examples/learning-agent``: editable, so that the weights a
retraining writes here are the ones it plays), the package registers the agent as the
bot ``trained-agent`` through the ``arena.bots`` entry point, so it is entered like any bot:
``arena ab trained-agent random``, or ``name: trained-agent`` in a tournament config, in any
host. Without installing, ``arena_learning_agent:TrainedAgent`` with this folder on
``PYTHONPATH`` seats it in ``arena match``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena import hookimpl
from arena.bot import MatchInfo
from arena.env import Encoding, PolicyBot, encoding
from arena.game import Rules

WEIGHTS = Path(__file__).with_name("weights.json")
FEATURES = ("pass", "size", "strength", "run", "jokers", "strength when few cards left")
FEW_CARDS = 4
"""A hand of at most this many cards counts as "few cards left"."""


class LinearPolicy:
    """``policy(observation, mask) -> action``: the legal action of the highest score."""

    def __init__(self, weights: npt.ArrayLike, coder: Encoding) -> None:
        self.weights = np.asarray(weights, dtype=np.float64)
        if self.weights.shape != (len(FEATURES),):
            raise ValueError(f"a policy has {len(FEATURES)} weights, not {self.weights.shape}")
        self.coder = coder
        # The features of every action that do not depend on the position, computed once.
        table = np.zeros((coder.action_size, len(FEATURES)))
        for action, move in enumerate(coder.actions):
            if move.kind == "pass":
                table[action, 0] = 1.0
                continue
            rank = move.rank if move.kind == "set" else move.low
            table[action, 1] = move.size / 4
            table[action, 2] = 0.5 if rank is None else rank / 12  # jokers alone: middling
            table[action, 3] = float(move.kind == "run")
            table[action, 4] = float(move.jokers)
        self.table = table
        self._revolution = next(s.offset for s in coder.segments if s.name == "revolution")
        hand = next(s for s in coder.segments if s.name == "hand")
        self._hand = slice(hand.offset, hand.offset + hand.length)

    def scores(self, observation: npt.NDArray[np.int8]) -> npt.NDArray[np.float64]:
        """The score of every action in the position of ``observation``."""
        features = self.table.copy()
        if observation[self._revolution]:
            played = features[:, 1] > 0
            features[played, 2] = 1.0 - features[played, 2]
        few = observation[self._hand].sum() <= FEW_CARDS
        features[:, 5] = features[:, 2] if few else 0.0
        return features @ self.weights

    def __call__(self, observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> int:
        scores = np.where(mask.astype(bool), self.scores(observation), -np.inf)
        return int(np.argmax(scores))


def load_weights(path: Path = WEIGHTS) -> list[float]:
    """The trained weights, from ``weights.json``."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    weights = [float(w) for w in data["weights"]]
    if len(weights) != len(FEATURES):
        raise ValueError(f"{path}: {len(weights)} weights, but the policy has {len(FEATURES)}")
    return weights


class TrainedAgent(PolicyBot):
    """Plays the linear policy trained by examples/learning-agent/train.py."""

    author = "arena developers"
    version = "1.0.0"

    def __init__(self, weights: list[float] | None = None) -> None:
        super().__init__()
        self.weights = load_weights() if weights is None else list(weights)

    def start_match(self, info: MatchInfo) -> None:
        super().start_match(info)
        self.policy = policy_for(self.weights, info.rules, info.players)


def policy_for(weights: list[float], rules: Rules, players: int) -> LinearPolicy:
    """The policy of ``weights`` for a table of ``players`` under ``rules``."""
    return LinearPolicy(weights, encoding(rules, players))


@hookimpl
def register_bots(register: Any) -> None:
    """Register the agent as ``trained-agent`` (when this folder is installed)."""
    register("trained-agent", TrainedAgent)
