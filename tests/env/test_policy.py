"""PolicyBot: a policy over the encoding plays as a bot, in the referee, judged like any bot."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from arena.env import PolicyBot, encoding
from arena.game import Rules
from arena.referee import play_bots
from bots import RandomBot


def first_legal(observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> int:
    return int(np.flatnonzero(mask)[-1])


class Seen(PolicyBot):
    """Checks each observation against an encoding of its own view."""

    def __init__(self) -> None:
        super().__init__(first_legal)
        self.checked = 0

    def act(self, observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> int:
        coder = encoding(self.rules, self.players)
        view = self.last_view
        assert np.array_equal(observation, coder.observe(view))
        assert np.array_equal(mask, coder.action_mask(view.legal_moves()))
        self.checked += 1
        return super().act(observation, mask)

    def play(self, view):  # type: ignore[no-untyped-def]
        self.last_view = view
        return super().play(view)


def test_a_policy_plays_whole_matches_without_a_fault() -> None:
    bot = Seen()
    rules = Rules.preset("daifugo", rounds=3)
    record = play_bots([bot, RandomBot(), RandomBot(), RandomBot()], rules, seed=9)
    assert bot.checked > 20
    assert all(not deal["faults"] for deal in record["deals"])


def test_a_policy_that_picks_an_illegal_action_is_judged_as_a_bot_is() -> None:
    def unmasked(observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    rules = Rules.preset("standard", rounds=1)
    record = play_bots([PolicyBot(unmasked), RandomBot(), RandomBot()], rules, seed=3)
    faults = [f for deal in record["deals"] for f in deal["faults"]]
    assert faults and faults[0]["kind"] == "illegal" and faults[0]["seat"] == 0


def test_a_policy_bot_without_a_policy_says_so() -> None:
    rules = Rules.preset("standard", rounds=1)
    record = play_bots([PolicyBot(), RandomBot()], rules, seed=1)
    faults = [f for deal in record["deals"] for f in deal["faults"]]
    assert faults[0]["kind"] == "crash" and "has no policy" in faults[0]["detail"]


def test_params_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="takes no params"):
        PolicyBot(depth=3)
