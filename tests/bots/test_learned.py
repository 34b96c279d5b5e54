"""The built-in bot ``learned``: its shipped networks load, it plays only legal moves under
the presets it was trained for (and greedy's elsewhere), and it is deterministic."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arena.env import encoding
from arena.game import Card, Match, Move, Rules
from arena.plugins import registry
from bots import GreedyBot
from bots.learned import (
    FEATURES,
    LAYERS,
    WEIGHTS,
    LearnedBot,
    Network,
    fits,
    load_network,
    move_features,
    network_for,
    observed_features,
    policy_scores,
    supported,
)

from .botcase import bound, position
from .test_legality import checked_match

TRAINED = ["daifugo", "runs"]
"""The presets of the shipped networks of four seats (``uecda``'s is of five)."""
TABLES = {"daifugo": 4, "runs": 4, "uecda": 5}


def test_the_shipped_networks_load_and_are_small() -> None:
    assert supported() == sorted(TABLES)
    for preset, players in TABLES.items():
        path = WEIGHTS / f"learned-{preset}.npz"
        assert path.stat().st_size < 4_000_000
        network = load_network(path)
        assert network.preset == preset and network.players == players
        assert fits(network, Rules.preset(preset, rounds=3), players)
        assert not fits(network, Rules.preset(preset), 9 - players)
        assert network.meta["moves"] > 0 and 0 < network.meta["agreement"] <= 1
        assert network.wf is not None and network.meta["exchange"] == "greedy"
    uecda = network_for(Rules.preset("uecda"), 5)
    assert uecda is not None and uecda.preset == "uecda"


@pytest.mark.parametrize("preset", TRAINED)
def test_it_plays_its_network_legally_under_each_trained_preset(preset: str) -> None:
    made: list[LearnedBot] = []

    def learned() -> LearnedBot:
        made.append(LearnedBot())
        return made[-1]

    for seed in (3, 4):
        match = checked_match(["learned", "greedy", "mc", "learned"],
                              Rules.preset(preset, rounds=3), seed, {"learned": learned})
        assert match.finished
    assert all(bot.network is not None and bot.network.preset == preset for bot in made)


def test_the_same_match_gives_the_same_moves() -> None:
    rules = Rules.preset("daifugo", rounds=2)

    def moves() -> list[object]:
        match = checked_match(["learned", "greedy", "learned", "greedy"], rules, 21,
                              {"learned": LearnedBot})
        return [[entry["moves"], entry["exchanges"]] for entry in match.history]

    assert moves() == moves()


def test_one_forward_pass_picks_the_best_legal_action() -> None:
    match = Match(Rules.preset("runs"), 4, 9)
    for _ in range(7):
        match.play(match.view(match.deal.to_move).legal_moves()[-1])
    while len(match.view(match.deal.to_move).legal_moves()) < 3:
        match.play(match.view(match.deal.to_move).legal_moves()[0])
    view = match.view(match.deal.to_move)
    bot = bound(LearnedBot(), view)
    assert isinstance(bot, LearnedBot) and bot.network is not None
    coder = encoding(view.rules, view.players)
    observation = coder.observe(view)
    mask = coder.action_mask(view.legal_moves())
    network = bot.network
    hidden = network.hidden(observation)
    scores = hidden @ network.wm + network.bm
    legal = np.flatnonzero(mask)
    assert len(legal) > 2
    if network.wf is not None and network.bf is not None:
        features = observed_features(coder, observation, legal, network.wf.shape[1])
        scores[legal] += features @ (hidden @ network.wf + network.bf)
    scores[mask == 0] = -np.inf
    assert coder.index(bot.play(view)) == int(np.argmax(scores))


@pytest.mark.parametrize("preset", TRAINED)
def test_policy_scores_score_every_legal_move_and_the_best_is_learned_s(preset: str) -> None:
    match = Match(Rules.preset(preset), 4, 11)
    checked = 0
    while match.pending is not None and checked < 40:
        view = match.view(match.pending.seat)
        if match.pending.kind == "exchange":
            match.give(bound(GreedyBot(), view).exchange(view, match.pending.count))
            continue
        scores = policy_scores(view)
        assert sorted(map(str, scores)) == sorted(map(str, view.legal_moves()))
        move = bound(LearnedBot(), view).play(view)
        if len(scores) > 1:
            assert scores[move] == max(scores.values())
            checked += 1
        match.play(move)
    assert checked == 40
    with pytest.raises(ValueError, match="no network of learned reads these rules at 2 seats"):
        policy_scores(position("4C 4D 9S KH 2S", "5H"))


def test_without_a_network_for_the_rules_it_plays_greedy() -> None:
    view = position("4C 4D 9S KH 2S", "5H")  # standard: no network reads its encoding
    bot = bound(LearnedBot(), view)
    assert isinstance(bot, LearnedBot) and bot.network is None
    assert bot.play(view) == bound(GreedyBot(), view).play(view)
    assert "runs and daifugo" in registry().load("learned").description


def test_a_file_that_is_no_network_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "net.npz"
    bad.write_bytes(b"not a network")
    with pytest.raises(ValueError, match=r"net\.npz: not a network of the bot learned"):
        LearnedBot(str(bad))


@pytest.mark.parametrize("preset", TRAINED)
def test_the_move_features_flag_greedy_s_move_and_the_value_s_best(preset: str) -> None:
    rules = Rules.preset(preset)
    coder = encoding(rules, 4)
    match = Match(rules, 4, 5)
    greedy = GreedyBot()
    seen = 0
    while match.pending is not None and seen < 150:
        if match.pending.kind == "exchange":
            match.give(bound(GreedyBot(), match.view(match.pending.seat)).exchange(
                match.view(match.pending.seat), match.pending.count))
            continue
        view = match.view(match.deal.to_move)
        moves = view.legal_moves()
        legal = np.flatnonzero(coder.action_mask(moves))
        rows = observed_features(coder, coder.observe(view), legal)
        assert rows.shape == (len(legal), len(FEATURES))
        move = bound(greedy, view).play(view)
        if any(m.kind != "pass" for m in moves):
            assert [coder.move(int(a)) for a in legal[rows[:, 2] == 1]] == [move]
        assert rows[:, 4].sum() == 1 and rows[:, 0].sum() == (Move.PASS in moves)
        seen += 1
        match.play(move)
    assert seen == 150


@pytest.mark.parametrize("preset", TRAINED)
def test_unbeatable_is_judged_against_the_cards_the_others_hold_together(preset: str) -> None:
    """The cards a seat has not seen are the other hands together: a play no play of theirs
    (all in one hand) may go on, or that clears the pile, is flagged "unbeatable"."""
    rules = Rules.preset(preset)
    coder = encoding(rules, 4)
    match = Match(rules, 4, 11)
    unbeatable = FEATURES.index("unbeatable")
    counted = [0, 0]
    while match.pending is not None:
        if match.pending.kind == "exchange":
            match.give(bound(GreedyBot(), match.view(match.pending.seat)).exchange(
                match.view(match.pending.seat), match.pending.count))
            continue
        seat = match.deal.to_move
        view = match.view(seat)
        legal = np.flatnonzero(coder.action_mask(view.legal_moves()))
        rows = observed_features(coder, coder.observe(view), legal)
        others = [c for s in range(4) if s != seat for c in match.deal.hand(s)]
        for action, row in zip(legal, rows, strict=True):
            move = coder.move(int(action))
            if move.kind == "pass":
                assert row[unbeatable] == 0
                continue
            order = view.revolution != rules.starts_revolution(move)
            answers = [m for m in rules.legal_moves(others, move, order) if m.kind != "pass"]
            assert row[unbeatable] == (rules.clears(move, order) or not answers), move
            counted[int(row[unbeatable])] += 1
        match.play(bound(GreedyBot(), view).play(view))
    assert min(counted) > 0  # both kinds were seen


def test_a_network_of_the_first_16_features_reads_the_same_16_columns() -> None:
    """A network trained before the last two features is spared them, and reads what it
    read before: the first 16 columns of the whole row."""
    rules = Rules.preset("daifugo")
    coder = encoding(rules, 4)
    match = Match(rules, 4, 3)
    checked = 0
    while match.pending is not None:
        view = match.view(match.pending.seat)
        if match.pending.kind == "exchange":
            match.give(bound(GreedyBot(), view).exchange(view, match.pending.count))
            continue
        observation = coder.observe(view)
        legal = np.flatnonzero(coder.action_mask(view.legal_moves()))
        whole = observed_features(coder, observation, legal)
        assert np.array_equal(observed_features(coder, observation, legal, 16), whole[:, :16])
        checked += 1
        match.play(bound(GreedyBot(), view).play(view))
    assert checked > 20


def test_control_after_counts_the_cards_left_above_every_unseen_card() -> None:
    rules = Rules.preset("runs")
    hand = [Card.parse(c) for c in ("3C", "AH", "2S")]
    moves = rules.legal_moves(hand)
    column = FEATURES.index("control after")

    def control(unseen: str, revolution: bool = False) -> dict[str, float]:
        seen = ((1 << 52) - 1) & ~(1 << Card.parse(unseen).index)
        rows = move_features(rules, hand, moves, revolution, 0, (seen, 0))
        return {str(m): float(row[column]) for m, row in zip(moves, rows, strict=True)}

    assert control("4D") == {"3C": 0.5, "AH": 0.25, "2S": 0.25}
    assert control("2H") == {"3C": 0.0, "AH": 0.0, "2S": 0.0}  # a 2 ties, none outranks
    assert control("KD") == {"3C": 0.5, "AH": 0.25, "2S": 0.25}
    assert control("4D", revolution=True) == {"3C": 0.0, "AH": 0.25, "2S": 0.25}  # 3C on top


@pytest.mark.parametrize("exchange", ["network", "greedy"])
def test_the_exchange_is_the_head_s_or_greedy_s_as_the_network_says(exchange: str) -> None:
    shipped = load_network(WEIGHTS / "learned-runs.npz")
    arrays = {name: getattr(shipped, name) for name in LAYERS}
    network = Network(arrays, shipped.meta | {"exchange": exchange})
    for seed in range(2, 40):  # the first exchange where the head and greedy differ
        match = Match(Rules.preset("runs"), 4, seed)
        while match.pending is not None and match.pending.kind != "exchange":
            match.play(match.view(match.deal.to_move).legal_moves()[-1])
        assert match.pending is not None
        view = match.view(match.pending.seat)
        by_greedy = bound(GreedyBot(), view).exchange(view, match.pending.count)
        coder = encoding(view.rules, 4)
        by_head = network.gift(coder.observe(view), list(view.hand), match.pending.count)
        if by_greedy != by_head:
            break
    assert by_greedy != by_head
    bot = bound(LearnedBot.playing(network), view)
    assert isinstance(bot, LearnedBot)
    gift = bot.exchange(view, match.pending.count)
    assert gift == (by_greedy if exchange == "greedy" else by_head)
