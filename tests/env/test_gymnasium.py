"""The Gymnasium environment: Gymnasium's own checker, opponents by name, rewards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the extra 'env' (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import arena.env  # noqa: E402,F401 (registers arena/President-v0)
from arena.bot import Bot  # noqa: E402
from arena.game import Move, View  # noqa: E402


def test_gymnasium_check_env() -> None:
    env = gymnasium.make("arena/President-v0", opponents=["greedy", "mc", "random"],
                         preset="runs")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


def run(env: gymnasium.Env, seed: int) -> tuple[float, int]:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert np.array_equal(info["action_mask"], observation["action_mask"])
        assert observation["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    return total, steps


def test_the_learners_rewards_are_its_points_and_the_match_replays_from_its_seed() -> None:
    env = gymnasium.make("arena/President-v0", opponents=["greedy", "random"],
                         preset="daifugo", rounds=4, seat=1)
    first = run(env, 5)
    match = env.unwrapped.table.match
    assert match.finished
    assert first[0] == match.scores[1]
    assert run(env, 5) == first


class Recorder(Bot):
    """Remembers what the environment told it, and plays the first legal move."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def start_match(self, info: object) -> None:
        self.events.append("start")

    def play(self, view: View) -> Move:
        assert view.seat == self.seat
        return view.legal_moves()[0]

    def end_deal(self, result: dict[str, object]) -> None:
        assert "hands" not in result
        self.events.append(f"end {result['deal']}")


def test_an_opponent_is_told_what_a_referee_tells_it() -> None:
    bot = Recorder()
    env = gymnasium.make("arena/President-v0", opponents=[bot, "random"], rounds=3, seat=None)
    run(env, 1)
    assert bot.events == ["start", "end 0", "end 1", "end 2"]
    assert bot.seat == 1 and bot.players == 3


class Crasher(Bot):
    """Raises when asked for a move."""

    def play(self, view: View) -> Move:
        raise RuntimeError("no idea")


def test_an_opponent_that_fails_is_a_crash_fault_and_the_match_goes_on() -> None:
    env = gymnasium.make("arena/President-v0", opponents=[Crasher(), "random", "random"])
    run(env, 2)
    faults = env.unwrapped.table.faults
    assert faults and {kind for _, kind, _ in faults} == {"crash"}


def test_an_unknown_opponent_is_named() -> None:
    with pytest.raises(Exception, match="unknown bot 'grody'"):
        gymnasium.make("arena/President-v0", opponents=["grody"])
