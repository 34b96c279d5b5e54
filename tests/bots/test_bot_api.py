"""The Bot base class and MatchInfo: what every bot inherits."""

from __future__ import annotations

import dataclasses
import random

import pytest

import arena
from arena import Bot, MatchInfo, hookimpl
from arena.game import Rules

from .botcase import position


class Minimal(Bot):
    def play(self, view):  # type: ignore[no-untyped-def]
        return "pass" if "pass" in map(str, view.legal_moves()) else view.legal_moves()[0]


def test_the_public_names_are_reexported() -> None:
    assert arena.Bot is Bot and arena.MatchInfo is MatchInfo and arena.hookimpl is hookimpl


def test_play_must_be_written() -> None:
    view = position("3C 4D", None)
    with pytest.raises(NotImplementedError, match="Bot must implement play"):
        Bot().play(view)


def test_default_exchange_gives_the_lowest_cards() -> None:
    view = position("9C 3D 2S 5H 3S", None)
    assert [str(c) for c in Minimal().exchange(view, 2)] == ["3D", "3S"]


def test_default_exchange_keeps_jokers() -> None:
    view = position("JK 5H 2S", None, jokers=1)
    assert [str(c) for c in Minimal().exchange(view, 1)] == ["5H"]


def test_bind_gives_seat_rules_players_and_generator() -> None:
    bot, rules, rng = Minimal(), Rules.preset("runs"), random.Random(1)
    bot.bind(2, rules, 4, rng)
    assert (bot.seat, bot.rules, bot.players, bot.rng) == (2, rules, 4, rng)


def test_default_hooks_do_nothing() -> None:
    bot = Minimal()
    info = MatchInfo(seat=0, players=4, rules=Rules(), match_id="m", labels=["a", "b", "c", "d"])
    assert bot.start_match(info) is None
    assert bot.end_deal({"deal": 0}) is None


def test_match_info_is_frozen() -> None:
    info = MatchInfo(seat=0, players=2, rules=Rules(), match_id="m", labels=["a", "b"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.seat = 1  # type: ignore[misc]


def test_metadata_defaults() -> None:
    assert (Bot.name, Bot.description, Bot.author, Bot.version, Bot.stochastic) == (
        "", "", "", "", False)


def test_a_minimal_bot_plays_a_whole_match() -> None:
    from arena.referee import play_bots

    class Recorder(Minimal):
        def __init__(self) -> None:
            self.info: MatchInfo | None = None
            self.results: list[dict] = []  # type: ignore[type-arg]

        def start_match(self, info: MatchInfo) -> None:
            self.info = info

        def end_deal(self, result: dict) -> None:  # type: ignore[type-arg]
            self.results.append(result)

    bots = [Recorder(), Minimal(), Minimal()]
    record = play_bots(bots, Rules.preset("standard", rounds=3), seed=11, match_id="api")
    assert len(record["deals"]) == 3 and not any(d["faults"] for d in record["deals"])
    first = bots[0]
    assert isinstance(first, Recorder) and first.info is not None
    assert (first.info.seat, first.info.players, first.info.match_id) == (0, 3, "api")
    assert [r["deal"] for r in first.results] == [0, 1, 2]
    # what its seat may know, as in a tournament: its own hand and the scores, no other hand
    assert [r["hand"] for r in first.results] == [d["hands"][0] for d in record["deals"]]
    assert first.results[-1]["scores"] == record["scores"]
    assert all("hands" not in r and "seed" not in r for r in first.results)


def test_a_bot_given_an_end_deal_of_its_own_hears_every_deal_inline() -> None:
    """The inline host tells only bots that listen (to save building results), and a bot
    listens as soon as it has an ``end_deal`` of its own, on its class or on the instance."""
    from arena.referee import play_bots

    heard: list[int] = []
    bot = Minimal()
    bot.end_deal = lambda result: heard.append(result["deal"])  # type: ignore[method-assign]
    record = play_bots([bot, Minimal(), Minimal()], Rules.preset("standard", rounds=3), seed=5)
    assert heard == [deal["deal"] for deal in record["deals"]] == [0, 1, 2]
