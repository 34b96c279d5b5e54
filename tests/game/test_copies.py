"""Copies and pickles of the engine's objects, on whichever engine runs (compiled or pure).

``copy.deepcopy`` is how OpenSpiel clones a state and pickle how objects cross processes: a
copy must play on exactly as the original would, and never share its mutable state. The
compiled classes need a blank instance of their own for both (docs/architecture.md, "The
compiled engine"), so these tests run in both passes of ``make test``.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.game import Card, Deal, DealContext, Decision, Match, Move, Rules, View

Copier = Callable[[Any], Any]
COPIERS: dict[str, Copier] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
}


def _answer(match: Match, rng: random.Random) -> None:
    decision = match.pending
    assert decision is not None
    view = match.view(decision.seat)
    if decision.kind == "play":
        match.play(rng.choice(view.legal_moves()))
    else:
        match.give(rng.sample(view.hand, decision.count))


def _finish(match: Match, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    while not match.finished:
        _answer(match, rng)
    return match.history


def _in_second_deal(rules: Rules, players: int = 4) -> Match:
    # Mid-play of a deal after an exchange: views carry the exchange, the match its scores.
    match = Match(rules, players=players, seed=5)  # keywords too
    rng = random.Random(3)
    while match.deal_number < 1 or match.pending is None or match.pending.kind != "play":
        _answer(match, rng)
    for _ in range(6):
        _answer(match, rng)
    assert match.deal_number == 1 and any(match.view(seat).gave for seat in range(players))
    return match


@pytest.mark.parametrize("how", COPIERS)
@pytest.mark.parametrize(("preset", "players"), [("runs", 4), ("uecda", 5)])
def test_a_copied_match_plays_on_as_the_original_and_shares_nothing(how: str, preset: str,
                                                                     players: int) -> None:
    match = _in_second_deal(Rules.preset(preset), players)
    seats = range(players)
    before = [match.view(seat).to_dict() for seat in seats]
    other = COPIERS[how](match)
    assert type(other) is Match and other is not match and other.deal is not match.deal
    assert [other.view(seat).to_dict() for seat in seats] == before
    copied = _finish(other, 11)
    assert [match.view(seat).to_dict() for seat in seats] == before  # untouched
    assert not match.finished and match.history != copied
    assert _finish(match, 11) == copied


@pytest.mark.parametrize("how", COPIERS)
def test_a_copied_deal_plays_on_as_the_original(how: str) -> None:
    deal = Deal.new(Rules.preset("runs", jokers=2), 5, 8)
    for _ in range(9):
        deal.play(deal.legal_moves()[0])
    other = COPIERS[how](deal)
    while not other.finished:
        move = other.legal_moves()[-1]
        other.play(move)
        deal.play(move)
    assert deal.to_dict() == other.to_dict() and deal.finished


@pytest.mark.parametrize("how", COPIERS)
def test_cards_and_moves_stay_interned_and_values_equal(how: str) -> None:
    copier = COPIERS[how]
    match = _in_second_deal(Rules.preset("runs"))
    for card in (Card.parse("5H"), Card.parse("JK")):
        assert copier(card) is card
    for move in (Move.PASS, Move.parse("3H 4H 5H"), Move.parse("9C JK=9H")):
        assert copier(move) is move
    decision = match.pending
    assert decision is not None and copier(decision) == decision
    view = match.view(1)
    other_view: View = copier(view)
    assert other_view.to_dict() == view.to_dict()
    assert other_view.legal_moves() == view.legal_moves()
    context = DealContext(["president", None], [3, 0], [([Card.parse("2S")], []), ([], [])])
    other_context = copier(context)
    assert (other_context.roles, other_context.scores, other_context.exchanges) == (
        context.roles, context.scores, context.exchanges)
    assert copier(Decision("exchange", 2, 1)) == Decision("exchange", 2, 1)
