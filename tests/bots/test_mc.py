"""The Monte Carlo bot: hidden hands it may guess, its budget, and what it plays."""

from __future__ import annotations

import random

import pytest

from arena.game import CARDS, JOKER, Deal, Match, Rules, View
from bots import GreedyBot, McBot
from bots._mc import play_out, rollout_move, sample_hands

from .botcase import bound, plays, position


def _exchange_view(seed: int) -> View:
    """The President's view at the first play decision of the second deal of a match."""
    match = Match(Rules.preset("daifugo"), 4, seed)
    while True:
        decision = match.pending
        assert decision is not None
        if decision.kind == "exchange":
            match.give(sorted(match.view(decision.seat).hand)[: decision.count])
            continue
        if match.deal_number == 1:
            view = match.view(decision.seat)
            if view.gave and view.roles[view.seat] == "president":
                return view
            if len(view.plays) > 8:
                raise LookupError("the President did not move early; choose another seed")
        match.play(match.view(decision.seat).legal_moves()[0])


@pytest.mark.parametrize("seed", range(6))
def test_sampled_hands_agree_with_everything_the_seat_has_seen(seed: int) -> None:
    try:
        view = _exchange_view(seed)
    except LookupError:
        pytest.skip("no early President decision at this seed")
    rng = random.Random(seed)
    played = {c for _, m in view.plays for c in m.cards}
    scum = view.roles.index("scum")
    for _ in range(20):
        hands = sample_hands(view, rng)
        assert hands[view.seat] == []
        for seat, hand in enumerate(hands):
            if seat != view.seat:
                assert len(hand) == view.counts[seat]
        dealt = [c for hand in hands for c in hand]
        naturals = [c for c in dealt if not c.is_joker]
        assert len(naturals) == len(set(naturals))
        assert not set(naturals) & (played | set(view.hand))
        seen_jokers = sum(c.is_joker for c in view.hand) + sum(
            m.jokers for _, m in view.plays)
        assert dealt.count(JOKER) == view.rules.jokers - seen_jokers
        # What the President gave back is still in the Scum's hand unless played.
        assert {c for c in view.gave if c not in played} <= set(hands[scum])
        # Every card is somewhere: the seat's hand, played, or dealt to another seat.
        assert set(CARDS) == set(naturals) | played | {c for c in view.hand if not c.is_joker}
        Deal.from_view(view, hands)  # the engine accepts the guess


def test_a_playout_finishes_the_deal_for_the_seat_with_legal_moves_only() -> None:
    rng = random.Random(3)
    for seed in range(20):
        deal = Deal.new(Rules.preset("daifugo"), 4, seed)
        me = deal.to_move
        assert me is not None
        place = play_out(deal, me, rng)  # Deal.play raises on an illegal move
        assert deal.places[place] == me  # known once the seat is out, or last
        assert deal.card_count(me) == 0 or deal.finished


def test_the_default_policy_plays_weakest_first_and_keeps_jokers() -> None:
    view = position("4C 4D 9S JK", None, preset="daifugo")
    rng = random.Random(0)
    rng.random = lambda: 0.9  # type: ignore[method-assign]  # never the random move
    assert str(rollout_move(view.legal_moves(), False, rng)) == "4C 4D"
    view = position("4C 9S JK", "7H", preset="daifugo")
    assert str(rollout_move(view.legal_moves(), False, rng)) == "9S"
    view = position("4C 5C JK", "7H", preset="daifugo")
    assert str(rollout_move(view.legal_moves(), False, rng)) == "JK"


def test_the_budget_is_a_number_of_rounds_and_replays_from_the_seed() -> None:
    view = position("4C 5D 7S 9S JD KH 2S", None, preset="runs")
    bot = McBot(playouts=12, share=1.0, move_ms=600_000)
    first = bound(bot, view, seed=5).play(view)
    assert bot.rounds_played == 12
    again = bound(McBot(playouts=12, share=1.0, move_ms=600_000), view, seed=5)
    assert again.play(view) == first and first in view.legal_moves()


def test_the_time_share_stops_the_playouts_by_the_bot_s_own_clock() -> None:
    view = position("4C 5D 7S 9S JD KH 2S", None, preset="runs")
    bot = McBot(playouts=10_000, share=0.01, move_ms=1)
    assert bound(bot, view).play(view) in view.legal_moves()
    assert bot.rounds_played == 0  # the 0.01 ms share is spent within the first round
    assert bot.play(view) == GreedyBot().play(view)  # so it plays greedy's choice


def test_obvious_moves_take_no_playouts() -> None:
    bot = McBot()
    assert plays(bot, "8H 8S", "5C 5D") == "8H 8S"  # goes out at once
    assert bot.rounds_played == 0
    assert plays(bot, "3C 4D", "AS") == "pass"  # nothing beats the pile
    assert bot.rounds_played == 0


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="playouts"):
        McBot(playouts=0)
    with pytest.raises(ValueError, match="share"):
        McBot(share=1.5)

