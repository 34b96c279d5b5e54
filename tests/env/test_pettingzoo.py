"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and what it means."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the extra 'env' (pettingzoo) is not installed")

from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test

from arena.env import president_v0
from arena.game import Match, Rules


@pytest.mark.parametrize(("preset", "players"), [
    ("runs", 4), ("standard", 2), ("daifugo", 8), ("uecda", 5)])
def test_pettingzoo_api_test(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its hints for Dict observations, as on its own envs
        api_test(president_v0.env(preset=preset, players=players), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: president_v0.env(preset="daifugo", players=4, jokers=2),
                  num_cycles=200)


def play_out(env: president_v0.raw_env, seed: int) -> dict[str, float]:
    """Random legal actions to the end of the match; the rewards each agent collected."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


def test_the_rewards_are_the_matchs_points() -> None:
    env = president_v0.raw_env(preset="runs", players=4, rounds=3)
    totals = play_out(env, 7)
    match = env.table.match
    assert match.finished and match.rules.rounds == 3
    assert [totals[f"player_{s}"] for s in range(4)] == [float(p) for p in match.scores]
    assert sum(totals.values()) == 3 * sum(match.points)


def test_reset_with_a_seed_plays_that_match_and_continues_its_series() -> None:
    env = president_v0.raw_env(preset="runs", players=4)
    env.reset(seed=11)
    assert env.table.match.deal.dealt_hand(0) == Match(Rules.preset("runs"), 4, 11).deal.hand(0)
    env.reset()
    second = env.table.match.deal.dealt_hand(0)
    again = president_v0.raw_env(preset="runs", players=4)
    again.reset(seed=11)
    again.reset()
    assert again.table.match.deal.dealt_hand(0) == second
    assert second != Match(Rules.preset("runs"), 4, 11).deal.dealt_hand(0)


def test_an_illegal_action_is_a_fault_as_in_the_referee() -> None:
    env = president_v0.env(preset="standard", players=4)
    env.reset(seed=3)
    agent = env.agent_selection
    observation = env.observe(agent)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[1])
    env.step(illegal)
    kind, _ = env.infos[agent]["fault"]
    assert kind == "illegal"
    table = env.unwrapped.table
    assert table.match.deal.forfeits  # on_fault: forfeit, the seat leaves the deal


def test_bad_rules_options_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="unknown rules option 'jokerz'"):
        president_v0.env(preset="runs", jokerz=1)
    with pytest.raises(ValueError, match="2 to 8 players"):
        president_v0.env(players=9)


def test_kept_observations_stay_as_they_were_given() -> None:
    # Learners keep observations (replay buffers): no later step may write into an array
    # the environment handed out, and each is the encoding of the seat's view at its step.
    env = president_v0.raw_env(preset="daifugo", players=4, jokers=2, rounds=2)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    coder = env.encoding
    kept: list[tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]] = []
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        view = env.table.match.view(seat)
        assert np.array_equal(observation["observation"], coder.observe(view))
        assert np.array_equal(observation["action_mask"],
                              coder.action_mask(env.table.match.deal.legal_moves()))
        kept.append((observation, observation["observation"].copy(),
                     observation["action_mask"].copy()))
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    assert len(kept) > 50
    for observation, flags, mask in kept:
        assert np.array_equal(observation["observation"], flags)
        assert np.array_equal(observation["action_mask"], mask)


def test_numpy_integer_actions_play_as_ints() -> None:
    # Spaces sample numpy integers, and learners index numpy arrays: both engines take them.
    plain, numpy_env = (president_v0.raw_env(preset="runs", players=4) for _ in range(2))
    plain.reset(seed=9)
    numpy_env.reset(seed=9)
    assert numpy_env.encoding.move(np.int64(0)) == numpy_env.encoding.move(0)
    for _ in range(40):
        legal = np.flatnonzero(plain.observe(plain.agent_selection)["action_mask"])
        plain.step(int(legal[-1]))
        numpy_env.step(legal[-1])  # a numpy.int64
        assert numpy_env.infos[numpy_env.agent_selection] == {}
    assert numpy_env.table.match.deal.moves == plain.table.match.deal.moves
    assert not numpy_env.table.faults


def test_agent_iter_gives_turns_as_pettingzoos_own_does() -> None:
    # arena's agent_iter is its own (PettingZoo's iterator costs a call at every step): the
    # same turns, max_iter honoured, and the iterable iterated again continues the match.
    ours, theirs = president_v0.env(), president_v0.env()
    for env in (ours, theirs):
        env.reset(seed=5)
    turns: list[tuple[str, str]] = []
    for _ in range(3):  # each loop a fresh pass over the same iterable, as a loop may make
        ours_iter, their_iter = ours.agent_iter(max_iter=4), AECEnv.agent_iter(theirs, 4)
        for mine, other in zip(ours_iter, their_iter, strict=True):
            turns.append((mine, other))
            legal = np.flatnonzero(ours.last()[0]["action_mask"])
            ours.step(int(legal[-1]))
            theirs.step(int(legal[-1]))
    assert len(turns) == 12 and all(mine == other for mine, other in turns)
    # To the end: after the last agent's dead steps, neither gives another turn.
    for env in (ours, theirs):
        for _ in (env.agent_iter() if env is ours else AECEnv.agent_iter(env)):
            observation, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation
                     else int(np.flatnonzero(observation["action_mask"])[0]))
        assert not env.agents and list(env.agent_iter()) == []
