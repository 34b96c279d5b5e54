"""Per-bot behaviour, one rule per case: given this hand and this pile, the bot plays X."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena import Bot
from arena.game import Card, Move
from bots import HighestBot, LowestBot, PasserBot, RandomBot

from .botcase import bound, plays, position

# (bot class, hand, pile, options, expected move)
CASES: list[tuple[type[Bot], str, str | None, dict[str, Any], str]] = [
    # lowest: always its weakest legal combination
    (LowestBot, "5H 3C 3D 9S", None, {}, "3C"),
    (LowestBot, "5C 8D KS 2H", "7H", {}, "8D"),
    (LowestBot, "5C 8D KS 2H", "7H", {"equal_beats": False}, "8D"),
    (LowestBot, "7C 8D KS", "7H", {}, "7C"),
    (LowestBot, "7C 8D KS", "7H", {"equal_beats": False}, "8D"),
    (LowestBot, "5C 5D 8D 8H KS", "6H 6S", {}, "8D 8H"),
    (LowestBot, "5C 8D", "AS", {}, "pass"),
    (LowestBot, "4C 5C 8D KS", "7H", {"revolution": True}, "5C"),
    (LowestBot, "3H 4H 5H 6H 2C", "4S 5S 6S", {"preset": "runs"}, "4H 5H 6H"),
    # highest: always its strongest legal combination
    (HighestBot, "5H 3C 3D 9S", None, {}, "9S"),
    (HighestBot, "5C 8D KS 2H", "7H", {}, "2H"),
    (HighestBot, "5C 8D KS 2H", None, {"jokers": 1}, "2H"),
    (HighestBot, "5C 8D JK", None, {"jokers": 1}, "JK"),
    (HighestBot, "4C 5C 8D KS", "7H", {"revolution": True}, "4C"),
    (HighestBot, "5C 8D", "AS", {}, "pass"),
    (HighestBot, "3H 4H 5H 6H 2C", "4S 5S 6S", {"preset": "runs"}, "4H 5H 6H"),
    # passer: passes whenever it may, otherwise its weakest combination
    (PasserBot, "5C 8D KS 2H", "7H", {}, "pass"),
    (PasserBot, "5C 8D KS 2H", "3H", {}, "pass"),
    (PasserBot, "5H 3C 3D 9S", None, {}, "3C"),
]


@pytest.mark.parametrize(
    ("cls", "hand", "pile", "options", "expected"),
    CASES,
    ids=[f"{c[0].__name__}:{c[1]}/{c[2]}/{c[3]}" for c in CASES],
)
def test_bot_plays(
    cls: type[Bot], hand: str, pile: str | None, options: dict[str, Any], expected: str
) -> None:
    assert plays(cls(), hand, pile, **options) == expected


def test_lowest_and_highest_pick_opposite_ends_of_the_same_choices() -> None:
    view = position("4C 6D 9H JS AC", "5S")
    low = bound(LowestBot(), view).play(view)
    high = bound(HighestBot(), view).play(view)
    assert (str(low), str(high)) == ("6D", "AC")


def test_passer_leads_when_it_must() -> None:
    view = position("6D 9H", None)
    assert Move.PASS not in view.legal_moves()
    assert str(bound(PasserBot(), view).play(view)) == "6D"


def test_random_plays_every_legal_move_eventually_and_nothing_else() -> None:
    view = position("5C 8D KS 2H", "7H")
    legal = set(view.legal_moves())
    bot = bound(RandomBot(), view, seed=1)
    seen = {Move.parse(str(bot.play(view))) for _ in range(200)}
    assert seen == legal


def test_random_is_reproducible_from_its_seed() -> None:
    view = position("3C 4D 5H 6S 8C 9D TH JS", "3S")

    def choices(seed: int) -> list[str]:
        bot = bound(RandomBot(), view, seed=seed)
        return [str(bot.play(view)) for _ in range(30)]

    assert choices(5) == choices(5)
    assert choices(5) != choices(6)


def test_random_exchange_gives_held_cards_of_the_right_count() -> None:
    view = position("3C 4D 5H 6S 8C 9D TH JS", None)
    bot = bound(RandomBot(), view, seed=3)
    gifts = [tuple(bot.exchange(view, 2)) for _ in range(20)]
    hand = set(view.hand)
    for gift in gifts:
        assert len(set(gift)) == 2
        assert {Card.parse(c) for c in gift} <= hand
    assert len(set(gifts)) > 1, "a random bot gives different cards back"


@pytest.mark.parametrize("cls", [LowestBot, HighestBot, PasserBot])
def test_deterministic_bots_ignore_their_random_generator(cls: type[Bot]) -> None:
    view = position("3C 4D 5H 6S 8C 9D TH JS", "5S")
    answers = set()
    for seed in range(5):
        bot = cls()
        bot.bind(1, view.rules, 2, random.Random(seed))
        answers.add(str(bot.play(view)))
    assert len(answers) == 1
    assert cls.stochastic is False
    assert RandomBot.stochastic is True
