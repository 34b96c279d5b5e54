"""The greedy heuristic, rule by rule, and its strength against random players."""

from __future__ import annotations

from typing import Any

import pytest

from arena.game import Card, Move, Rules
from arena.referee import compare
from bots import GreedyBot

from .botcase import bound, plays, position

CASES: list[tuple[str, str, str | None, dict[str, Any], str]] = [
    ("leads its weakest set whole", "4C 4D 9S KH 2S", None, {}, "4C 4D"),
    ("follows with a lone card, not a card of its pair", "7C 7D 9S KH 2S", "5H", {}, "9S"),
    ("follows with the weakest lone card that beats", "6C 9S KH", "5H", {}, "6C"),
    ("answers a pair with its weakest pair", "6C 6D 9S 9H KH", "5H 5S", {}, "6C 6D"),
    ("prefers an ace to its 2", "4C 7S AH 2S", "QD", {}, "AH"),
    ("takes the lead back with a 2 when nothing else beats", "4C 5D 7S 2S", "AD", {}, "2S"),
    ("keeps its joker while a natural card answers", "4C 5D TS JK", "9D",
     {"preset": "daifugo"}, "TS"),
    ("plays its 2 before its last set", "5C 5D 2S", None, {}, "2S"),
    ("goes out with its joker in a set", "6C 6D JK", None, {"jokers": 1}, "6C 6D JK"),
    ("goes out at once when it can", "8H 8S", "5C 5D", {}, "8H 8S"),
    ("leads a run: several sets in one play", "3H 4H 5H 9C KD", None, {"preset": "runs"},
     "3H 4H 5H"),
    ("starts a revolution with a weak hand", "4C 4D 4H 4S 5C 6D 7H TS", None,
     {"preset": "daifugo"}, "4C 4D 4H 4S"),
    ("in a revolution, follows with its weakest answer", "4C 5C 8D KS", "7H",
     {"revolution": True}, "5C"),
]


@pytest.mark.parametrize(("rule", "hand", "pile", "options", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_greedy(rule: str, hand: str, pile: str | None, options: dict[str, Any],
                expected: str) -> None:
    assert plays(GreedyBot(), hand, pile, **options) == expected, rule


def test_greedy_keeps_a_strong_hand_out_of_a_revolution() -> None:
    move = Move.parse(plays(GreedyBot(), "KC KD KH KS AC AD 2S QH", None, preset="daifugo"))
    assert not Rules.preset("daifugo").starts_revolution(move)
    assert str(move) == "QH"


def test_lowest_would_not_save_the_2_for_the_end() -> None:
    # The contrast that makes the endgame rule worth having.
    from bots import LowestBot

    assert plays(LowestBot(), "5C 5D 2S", None) == "5C"


def test_greedy_gives_back_its_weakest_lone_cards() -> None:
    view = position("3C 5D 5H 8S 9C KD 2S 2H", None)
    gift = bound(GreedyBot(), view).exchange(view, 2)
    assert sorted(Card.parse(c) for c in gift) == [Card.parse("3C"), Card.parse("8S")]


def test_greedy_never_gives_a_2_or_a_joker_back() -> None:
    view = position("3C 3D 4H 4S 2S 2H JK", None, jokers=1)
    gift = {str(c) for c in bound(GreedyBot(), view).exchange(view, 2)}
    assert not gift & {"2S", "2H", "JK"}


def test_greedy_clearly_beats_random() -> None:
    # 100 seeded one-deal matches of the Runs preset, greedy in every seat in turn.
    result = compare(["greedy", "random", "random", "random"], Rules.preset("runs", rounds=1),
                     matches=100, seed=2024)
    assert result.deals == 100
    assert result.mean("greedy") < 1.7
    assert result.mean("random") - result.mean("greedy") > 1.0
