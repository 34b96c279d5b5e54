"""The OpenSpiel game: OpenSpiel's random-simulation test, one of its own algorithms playing it,
and its chance nodes being the match seed."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the extra 'env' (open_spiel) is not installed")

import arena.env.openspiel  # noqa: E402,F401 (registers python_president)
from arena.game import Match, Rules  # noqa: E402


@pytest.mark.parametrize("params", [
    {"preset": "runs", "players": 4, "rounds": 1},
    {"preset": "daifugo", "players": 3, "rounds": 2, "jokers": 2},
    {"preset": "uecda", "players": 5, "rounds": 1},
])
def test_openspiel_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_president", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_parameters_are_the_rules() -> None:
    game = pyspiel.load_game("python_president", {"preset": "runs", "players": 4})
    assert game.rules == Rules.preset("runs")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == game.encoding.action_size
    game = pyspiel.load_game("python_president", {"preset": "daifugo", "rounds": 3})
    assert game.rules == Rules.preset("daifugo", rounds=3)
    with pytest.raises(Exception, match="2 to 8 players"):
        pyspiel.load_game("python_president", {"players": 9})


def test_the_chance_nodes_are_the_bytes_of_the_match_seed() -> None:
    game = pyspiel.load_game("python_president", {"preset": "runs", "players": 4})
    seed = 0x1234_5678_9ABC_DEF0
    state = game.new_initial_state()
    for byte in seed.to_bytes(8, "big"):
        assert state.is_chance_node()
        state.apply_action(byte)
    assert state.current_player() == Match(Rules.preset("runs"), 4, seed).deal.to_move
    assert state.table.match.deal.hand(0) == Match(Rules.preset("runs"), 4, seed).deal.hand(0)
    tensor = np.asarray(state.observation_tensor(0))
    assert tensor.shape == (game.encoding.observation_size,)
    assert np.array_equal(tensor, state.table.observe(0))


def test_openspiel_mcts_plays_a_match() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("python_president", {"preset": "standard", "players": 3,
                                                  "rounds": 1})
    rng = np.random.RandomState(4)
    bots = [mcts.MCTSBot(game, 2, 10, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
            uniform_random.UniformRandomBot(1, rng), uniform_random.UniformRandomBot(2, rng)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) == [0.0, 1.0, 2.0]  # one deal's points, one place each
