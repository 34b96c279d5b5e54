"""Every registered bot answers only legal moves and legal exchanges, deal after deal."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import Bot, MatchInfo
from arena.game import Card, Match, Move, Rules
from arena.plugins import registry
from arena.seeds import bot_rng

PRESETS = ["standard", "runs", "daifugo"]
NAMES = registry().names()
QUICK = {"mc": {"playouts": 2}, "expert": {"budget": 4, "samples": 4, "worlds": 2},
         "guided": {"budget": 4, "samples": 4, "worlds": 2}}
"""Small budgets: what a bot may answer does not depend on how long it thinks."""


def checked_match(names: list[str], rules: Rules, seed: int,
                  factories: dict[str, Callable[[], Bot]] | None = None) -> Match:
    """Play a match, asserting that every answer of every bot is legal before applying it;
    ``factories`` makes the bots of some names (else the registry's)."""
    reg = registry()
    players = len(names)
    made = factories or {}
    bots: list[Bot] = [made[name]() if name in made else reg.create(name, **QUICK.get(name, {}))
                       for name in names]
    for seat, bot in enumerate(bots):
        bot.bind(seat, rules, players, bot_rng(seed, seat))
        bot.start_match(MatchInfo(seat, players, rules, "legality", names))
    match = Match(rules, players, seed)
    while (decision := match.pending) is not None:
        seat = decision.seat
        view = match.view(seat)
        if decision.kind == "exchange":
            gift = [Card.parse(c) for c in bots[seat].exchange(view, decision.count)]
            assert len(gift) == decision.count, (names[seat], gift)
            assert len(set(gift)) == len(gift) or any(c.is_joker for c in gift)
            assert all(c in view.hand for c in gift), (names[seat], gift, view.hand)
            match.give(gift)
        else:
            answer = Move.parse(bots[seat].play(view))
            legal = view.legal_moves()
            assert answer in legal, f"{names[seat]} played {answer} on {view.pile}"
            match.play(answer)
    return match


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", NAMES)
def test_bot_plays_only_legal_moves(name: str, preset: str) -> None:
    others = [n for n in NAMES if n != name] or [name]
    for k in range(4):
        names = [name, others[k % len(others)], others[(k + 1) % len(others)], name]
        match = checked_match(names, Rules.preset(preset, rounds=3), seed=1000 * k + 7)
        assert match.finished and len(match.history) == 3


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**63),
    preset=st.sampled_from(PRESETS),
    lineup=st.lists(st.sampled_from(NAMES), min_size=2, max_size=7),
    jokers=st.integers(0, 2),
)
def test_any_lineup_of_bots_plays_legally(
    seed: int, preset: str, lineup: list[str], jokers: int
) -> None:
    rules = Rules.preset(preset, rounds=2, jokers=jokers)
    match = checked_match(lineup, rules, seed)
    assert sorted(match.ranking()) == list(range(len(lineup)))
