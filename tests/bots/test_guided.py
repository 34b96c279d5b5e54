"""``guided``: ``expert`` with the learned policy as its search's prior. The same seed gives
the same moves; its moves are legal under the presets the network reads; the network's
best move is a candidate and its softmax the prior; at the ``uecda`` table of five its
network moves it off ``expert``'s choices; where no network reads the rules it plays as
``expert``; the prior steers the search's trials."""

from __future__ import annotations

import math
import random

import pytest

from arena.bot import MatchInfo
from arena.game import Match, Rules, View
from arena.plugins import BotParamsError, registry
from bots import ExpertBot
from bots._expert import search
from bots._guided import GuidedBot

from .botcase import bound, position
from .test_legality import checked_match

QUICK = {"budget": 12, "samples": 6, "worlds": 3, "move_ms": 10**7}


def _guided() -> GuidedBot:
    return GuidedBot(**QUICK)


@pytest.mark.parametrize(("preset", "names"), [
    ("runs", ["guided", "expert", "guided", "expert"]),
    ("daifugo", ["guided", "expert", "guided", "expert"]),
    ("uecda", ["guided", "expert", "guided", "expert", "greedy"])])
def test_the_same_seed_gives_the_same_legal_moves(preset: str, names: list[str]) -> None:
    rules = Rules.preset(preset, rounds=2)

    def moves() -> list[object]:
        match = checked_match(names, rules, 5,
                              {"guided": _guided, "expert": lambda: ExpertBot(**QUICK)})
        return [[entry["moves"], entry["exchanges"]] for entry in match.history]

    first = moves()
    assert moves() == first
    assert len(first) == 2


def _decision(preset: str, seed: int) -> View:
    """A view a few plays into a deal with at least four legal moves, to move."""
    match = Match(Rules.preset(preset), 4, seed)
    for _ in range(200):
        view = match.view(match.deal.to_move)
        moves = view.legal_moves()
        if len(view.plays) >= 4 and len(moves) >= 4:
            return view
        match.play(moves[0])
    raise AssertionError("no decision with four moves")


@pytest.mark.parametrize("preset", ["runs", "daifugo"])
def test_the_network_s_best_move_is_a_candidate_and_its_softmax_the_prior(preset: str) -> None:
    view = _decision(preset, 3)
    bot = bound(GuidedBot(prior=0.5, width=1, **QUICK), view)
    assert isinstance(bot, GuidedBot) and bot.network is not None
    moves = view.legal_moves()
    candidates = bot._candidates(view, moves)
    best = max(moves, key=lambda m: bot._logits[m])
    assert best in candidates
    assert set(bot._logits) == set(moves)
    prior = bot._prior(view, candidates)
    assert prior is not None and sum(prior) == pytest.approx(0.5)
    favourite = candidates[max(range(len(candidates)), key=lambda i: prior[i])]
    assert favourite == best
    assert bound(GuidedBot(prior=0, **QUICK), view)._prior(view, candidates) is None


def test_at_a_uecda_table_of_five_its_network_guides_it_off_expert_s_moves() -> None:
    """The shipped ``uecda`` network reads the preset's table of five: on the decisions of
    a seeded deal, with the same seed, ``guided`` plays some move ``expert`` does not."""
    rules = Rules.preset("uecda")
    match = Match(rules, 5, 7)
    differ = 0
    for _ in range(40):
        view = match.view(match.deal.to_move)
        moves = view.legal_moves()
        if len(moves) > 2:
            guided = bound(GuidedBot(**QUICK), view, seed=4)
            expert = bound(ExpertBot(**QUICK), view, seed=4)
            assert isinstance(guided, GuidedBot) and guided.network is not None
            assert guided.network.preset == "uecda" and guided.network.players == 5
            differ += guided.play(view) != expert.play(view)
        match.play(moves[0])
        if match.deal.finished:
            break
    assert differ > 0


def test_without_a_network_for_the_rules_it_plays_expert() -> None:
    view = position("4C 4D 9S KH 2S 6H 7D", "5H")  # standard: no network reads it
    guided = bound(GuidedBot(**QUICK), view, seed=4)
    expert = bound(ExpertBot(**QUICK), view, seed=4)
    assert isinstance(guided, GuidedBot) and guided.network is None
    assert guided.play(view) == expert.play(view)
    assert guided.playouts == expert.playouts > 0


def test_the_prior_gets_the_arm_it_favours_tried_more() -> None:
    def even(arm: int, world: int) -> float:
        return float((arm + world) % 2)  # every arm scores 0.5 on average

    def never() -> bool:
        return False

    plain, _ = search(4, even, 8, 200, never, 1.0)
    guided, _ = search(4, even, 8, 200, never, 1.0, [0.05, 0.05, 0.85, 0.05])
    assert max(range(4), key=lambda i: guided[i]) == 2
    assert guided[2] > plain[2] + 40
    assert sum(guided) == sum(plain) == 200


def test_bad_parameters_are_named() -> None:
    with pytest.raises(ValueError, match="prior must be at least 0 and temperature positive"):
        GuidedBot(prior=-1)
    with pytest.raises(ValueError, match="prior must be at least 0 and temperature positive"):
        GuidedBot(temperature=math.nan)
    with pytest.raises(ValueError, match="budget must be at least 1"):
        GuidedBot(budget=0)


def test_it_is_registered_stochastic_and_made_by_the_registry() -> None:
    spec = registry().load("guided")
    assert spec.stochastic
    assert "learned policy" in spec.description
    bot = registry().create("guided", budget=3, prior=0.25)
    assert isinstance(bot, GuidedBot) and bot.prior_weight == 0.25 and bot.budget == 3
    rules = Rules.preset("runs")
    bot.bind(1, rules, 4, random.Random(0))
    bot.start_match(MatchInfo(1, 4, rules, "t", ["b"] * 4))
    assert bot.network is not None


def test_an_unknown_parameter_is_named_in_one_line() -> None:
    with pytest.raises(BotParamsError, match=r"bot 'guided' does not accept params \['nosuch'\]"):
        registry().create("guided", nosuch=1)
