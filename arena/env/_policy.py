"""A bot that plays a policy: a trained agent entered like any bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.bot import Bot, MatchInfo
from arena.game import Move, View

from ._encoding import Encoding, PlayedCards, encoding

__all__ = ["Policy", "PolicyBot"]

Policy = Callable[[npt.NDArray[np.int8], npt.NDArray[np.int8]], int]
"""A function from an observation and its legal-action mask to an action
(docs/learning.md): what an agent trained in ``arena.env`` has learnt."""


class PolicyBot(Bot):
    """Plays the action its policy picks from the encoded view (docs/learning.md).

    Give the policy to the constructor, or subclass and override :meth:`act` (a subclass
    that loads trained weights is a bot like any other: register it in a plugin, or enter it
    as ``module:Class``, in every host). The observation is the one the environments give,
    so an agent plays in a tournament exactly as it played in training. Exchange returns are
    :meth:`arena.Bot.exchange`'s, the environments' default.
    """

    def __init__(self, policy: Policy | None = None, **params: Any) -> None:
        if params:
            raise TypeError(f"PolicyBot takes no params {sorted(params)}")
        self.policy = policy
        self._encoding: Encoding | None = None
        self._played: PlayedCards | None = None

    def start_match(self, info: MatchInfo) -> None:
        """Build the encoding of the match's rules and table size."""
        self._encoding = encoding(info.rules, info.players)
        self._played = PlayedCards(info.players)

    def act(self, observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> int:
        """The action to play; the default asks the policy."""
        if self.policy is None:
            raise NotImplementedError(f"{type(self).__name__} has no policy: give one to the "
                                      "constructor or override act()")
        return self.policy(observation, mask)

    def play(self, view: View) -> Move:
        """The move of the policy's action for ``view``."""
        coder = self._encoding
        if coder is None or coder.players != view.players or (
                coder.rules is not view.rules and coder.rules != view.rules):
            coder = self._encoding = encoding(view.rules, view.players)
            self._played = PlayedCards(view.players)
        observation = coder.observe(view, self._played)
        mask = coder.action_mask(view.legal_moves())
        return coder.move(self.act(observation, mask))
