"""``expert``: its guesses of the hidden hands, their weights, the exact endgame, the
exchange search, the budget and the clock, and that the same seed gives the same moves."""

from __future__ import annotations

import math
import random

import pytest

from arena.bot import MatchInfo
from arena.game import CARDS, JOKER, SCUM, Card, Deal, Match, Move, Rules, View
from bots import ExpertBot, GreedyBot
from bots._belief import estimate, history, known, log_likelihood, resample, sample_world
from bots._endgame import solve, two_left, winning_move
from bots._policy import heuristic_move, move_values, rank_counts

from .botcase import bound, plays, position


def _play(bots: list[ExpertBot | GreedyBot], rules: Rules, seed: int,
          stop: int | None = None, tag: str = "") -> Match:
    """A match of ``bots`` through ``Match`` (no referee), the bots seeded by ``tag`` and
    their seat; ``stop`` after that many plays of the second deal (for views to test on)."""
    players = len(bots)
    for seat, bot in enumerate(bots):
        bot.bind(seat, rules, players, random.Random(f"{tag}{seed}:{seat}"))
        bot.start_match(MatchInfo(seat, players, rules, "t", ["b"] * players))
    match = Match(rules, players, seed)
    while (decision := match.pending) is not None:
        view = match.view(decision.seat)
        bot = bots[decision.seat]
        if decision.kind == "exchange":
            match.give(bot.exchange(view, decision.count))
        else:
            if stop is not None and match.deal_number == 1 and len(view.plays) >= stop:
                return match
            match.play(bot.play(view))
    return match


def _later_view(seed: int, plays_: int = 12, preset: str = "daifugo") -> View:
    """The President's view (or, failing that, the view to move) a few plays into deal 2."""
    match = _play([GreedyBot() for _ in range(4)], Rules.preset(preset), seed, stop=plays_)
    decision = match.pending
    assert decision is not None
    return match.view(decision.seat)


def test_the_same_seed_gives_the_same_moves() -> None:
    rules = Rules.preset("daifugo", rounds=2)

    def record(tag: str) -> list[object]:
        bots: list[ExpertBot | GreedyBot] = [ExpertBot(budget=24, move_ms=10**7), GreedyBot(),
                                              GreedyBot(), ExpertBot(budget=24, move_ms=10**7)]
        match = _play(bots, rules, 11, tag=tag)
        return [[entry["moves"], entry["exchanges"]] for entry in match.history]

    first = record("")
    assert record("") == first
    assert record("other") != first  # the choices do hang on the bot's generator


@pytest.mark.parametrize("seed", range(8))
def test_guessed_hands_keep_the_exchange_s_certainties(seed: int) -> None:
    view = _later_view(seed)
    facts = known(view)
    rng = random.Random(seed)
    played = {c for _, m in view.plays for c in m.cards}
    for _ in range(20):
        world = sample_world(facts, rng)
        assert world[view.seat] == []
        for seat, hand in enumerate(world):
            if seat != view.seat:
                assert len(hand) == view.counts[seat]
        naturals = [c for hand in world for c in hand if not c.is_joker]
        assert len(naturals) == len(set(naturals))
        assert not set(naturals) & (played | set(view.hand))
        assert set(CARDS) | {JOKER} >= (set(naturals) | played | set(view.hand))
        assert set(CARDS) <= ({c for hand in world for c in hand} | played | set(view.hand))
        if facts.cap is not None:
            seat, top = facts.cap
            gave = set(view.gave)
            # The Scum gave its highest cards: it holds nothing higher but what it got back.
            assert all(c.index < top for c in world[seat] if c not in gave)
        Deal.from_view(view, world)  # the engine accepts the guess


def test_a_president_caps_what_the_scum_may_hold() -> None:
    for seed in range(20):
        view = _later_view(seed, plays_=2)
        if view.roles[view.seat] == "president":
            facts = known(view)
            assert facts.cap == (view.roles.index(SCUM), min(c.index for c in view.received))
            return
    pytest.skip("no President to move early in these seeds")


def test_a_seat_that_passed_on_a_low_single_is_unlikely_to_hold_low_singles() -> None:
    rules = Rules.preset("standard")
    # Seat 1 passes on a 4 with two very different hands it could hold.
    hands = [["4C", "9D", "KH", "QS"], ["5C", "7D", "8H", "JS"], ["5D", "6S", "TC", "AD"]]
    deal = Deal.from_hands(rules, hands, leader=0)
    deal.play("4C")
    deal.play("pass")  # seat 1 holds 5C, 7D, ...: a pass it would rarely make
    view = deal.view(2)
    guessed_true = [[], [Card.parse(c) for c in hands[1]], []]
    # The same number of cards for seat 1, but none that beats the 4: the four 3s.
    guessed_forced = [[], [Card.parse(c) for c in ("3C", "3D", "3H", "3S")], []]
    seen = history(view, guessed_true)
    assert [(d.seat, str(d.chosen)) for d in seen] == [(0, "4C"), (1, "pass")]
    forced = log_likelihood(view, seen[1:], guessed_forced)
    chosen = log_likelihood(view, seen[1:], guessed_true)
    assert forced == 0.0  # a forced pass is certain
    assert chosen < math.log(0.5)  # passing with four answers is unlikely under the model


def test_estimation_draws_likely_worlds_more_often() -> None:
    pool = [[[Card.parse("3C")]], [[Card.parse("4C")]], [[Card.parse("5C")]]]
    drawn = resample(pool, [0.0, 3.0, 1.0], 400, random.Random(0))  # type: ignore[arg-type]
    counts = [sum(w is world for w in drawn) for world in pool]
    assert counts == [0, 300, 100]
    view = _later_view(3)
    rng = random.Random(0)
    worlds = estimate(view, rng, 40, 16, True, lambda: False)
    assert len(worlds) == 16
    for world in worlds:
        Deal.from_view(view, world)


def _brute(deal: Deal, me: int, other: int) -> bool:
    """Whether ``me`` goes out before ``other`` from ``deal`` with best play (no memo)."""
    if not deal.card_count(me):
        return True
    if not deal.card_count(other) or deal.finished:
        return False
    results = []
    for move in deal.legal_moves():
        child = deal.copy()
        child.play(move)
        results.append(_brute(child, me, other))
    return any(results) if deal.to_move == me else all(results)


@pytest.mark.parametrize("preset", ["standard", "runs", "daifugo"])
def test_the_endgame_search_agrees_with_brute_force(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    deck = [*CARDS, *[JOKER] * rules.jokers]
    wins = losses = 0
    for _ in range(30):
        cards = rng.sample(deck, 8)
        mine, theirs = cards[:4], cards[4:]
        if sum(c.is_joker for c in cards) > rules.jokers:
            continue
        deal = Deal.from_hands(rules, [theirs, mine], leader=1)
        move, searched = solve(deal, 1, 0, 100_000)
        truth = any(_brute(_after(deal, m), 1, 0) for m in deal.legal_moves())
        assert (move is not None) == truth
        if move is not None:
            assert _brute(_after(deal, move), 1, 0)
            wins += 1
        else:
            losses += 1
        assert searched > 0
    assert wins and losses  # both verdicts were tested
    deal = Deal.from_hands(Rules.preset("standard"), [["AH"], ["8S", "2S"]], leader=1)
    # greedy leads its weakest, the 8, and the A goes out on it; the 2 first wins
    assert str(solve(deal, 1, 0, 1000)[0]) == "2S"
    assert solve(deal, 1, 0, 0)[0] is None  # no positions allowed: the search gives up


def _after(deal: Deal, move: Move) -> Deal:
    child = deal.copy()
    child.play(move)
    return child


def _two_left(seed: int) -> tuple[Match, View] | None:
    """A match of greedy bots at the first decision where two players hold cards."""
    rules = Rules.preset("daifugo")
    greedy = GreedyBot()
    greedy.bind(0, rules, 4, random.Random(seed))
    match = Match(rules, 4, seed)
    while (decision := match.pending) is not None and match.deal_number < 2:
        view = match.view(decision.seat)
        if decision.kind == "exchange":
            match.give(greedy.exchange(view, decision.count))
            continue
        legal = view.legal_moves()
        if (two_left(view) is not None and len(legal) > 1 and sum(view.counts) < 14
                and all(len(m) < len(view.hand) for m in legal)):  # not going out at once
            return match, view
        match.play(greedy.play(view))
    return None


def test_in_a_real_ending_the_bot_plays_the_solved_move() -> None:
    solved = 0
    for seed in range(12):
        found = _two_left(seed)
        if found is None:
            continue
        match, view = found
        other = two_left(view)
        assert other is not None
        truth = solve(match.deal.copy(), view.seat, other, 200_000)[0]
        assert winning_move(view, 200_000)[0] == truth  # the hidden hand is known exactly
        bot = ExpertBot(budget=10, nodes=200_000, move_ms=10**7)
        bound(bot, view)
        move = bot.play(view)
        if truth is not None:
            assert move == truth and bot.solved
            solved += 1
        else:
            assert not bot.solved
    assert solved


def test_exchange_search_gives_cards_of_the_hand_and_replays() -> None:
    rules = Rules.preset("daifugo")
    match = Match(rules, 4, 5)
    greedy = GreedyBot()
    for seat in range(4):
        greedy.bind(seat, rules, 4, random.Random(seat))
    while (decision := match.pending) is not None and decision.kind != "exchange":
        match.play(greedy.play(match.view(decision.seat)))
    assert decision is not None
    view = match.view(decision.seat)
    choices = set()
    for seed in range(2):
        bot = ExpertBot(budget=60, move_ms=10**7)
        bot.bind(decision.seat, rules, 4, random.Random(seed))
        gift = bot.exchange(view, decision.count)
        again = ExpertBot(budget=60, move_ms=10**7)
        again.bind(decision.seat, rules, 4, random.Random(seed))
        assert again.exchange(view, decision.count) == gift
        assert len(gift) == decision.count and all(c in view.hand for c in gift)
        assert len(bot._gifts(view, decision.count)) < bot.playouts <= 60  # searched
        choices.add(tuple(gift))
    assert choices


def test_the_budget_is_a_number_of_playouts_and_the_clock_a_share_of_the_limit() -> None:
    view = position("4C 5D 7S 9S JD KH 2S", None, preset="runs")
    bot = ExpertBot(budget=40, share=1.0, move_ms=600_000)
    first = bound(bot, view, seed=5).play(view)
    assert 0 < bot.playouts <= 40 and first in view.legal_moves()
    again = bound(ExpertBot(budget=40, share=1.0, move_ms=600_000), view, seed=5)
    assert again.play(view) == first
    quick = ExpertBot(share=0.01, move_ms=1)
    bound(quick, view)
    assert quick.play(view) in view.legal_moves()
    assert quick.playouts <= len(view.legal_moves()) + 1  # the 0.01 ms share stops it at once


def test_the_match_s_move_limit_is_taken_when_it_is_given() -> None:
    bot = ExpertBot(move_ms=1000)
    rules = Rules.preset("runs")

    info = MatchInfo(0, 4, rules, "m", ["a"] * 4)
    bot.start_match(info)
    assert bot.move_s == 1.0
    object.__setattr__(info, "move_ms", 250)  # a match that tells its limit
    bot.start_match(info)
    assert bot.move_s == 0.25


def test_obvious_moves_take_no_playouts() -> None:
    bot = ExpertBot(budget=50)
    assert plays(bot, "8H 8S", "5C 5D") == "8H 8S"
    assert bot.playouts == 0
    assert plays(bot, "3C 4D", "AS") == "pass"
    assert bot.playouts == 0


def test_the_policy_values_prefer_weak_whole_groups_and_keep_control() -> None:
    view = position("4C 4D 9S 2H KD", None, preset="standard")
    moves = view.legal_moves()
    mask = sum(1 << c.index for c in view.hand)
    values = move_values(view.rules, moves, rank_counts(mask), 5, False)
    best = str(moves[max(range(len(moves)), key=values.__getitem__)])
    assert best == "4C 4D"
    ranked = [str(m) for _, m in sorted(zip(values, moves, strict=True), key=lambda x: -x[0])]
    assert ranked.index("4C") > ranked.index("9S")  # breaking the pair costs
    assert ranked.index("2H") > ranked.index("KD")  # the 2 is kept for control
    deal = Deal.from_hands(view.rules, [["3S", "5S", "6S"], ["4C", "4D", "9S", "2H", "KD"]], 1)
    rng = random.Random(0)
    rng.random = lambda: 0.9  # type: ignore[method-assign]  # never the noise
    assert str(heuristic_move(deal, deal.legal_moves(), rng)) == "4C 4D"


@pytest.mark.parametrize("players", [4, 5])
def test_whole_matches_are_legal_under_every_preset(players: int) -> None:
    for preset in ("standard", "runs", "daifugo"):
        rules = Rules.preset(preset, rounds=2)
        bots: list[ExpertBot | GreedyBot] = [ExpertBot(budget=8), *(GreedyBot() for _ in
                                             range(players - 2)), ExpertBot(budget=8)]
        match = _play(bots, rules, players)  # Match raises on an illegal answer
        assert match.finished


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        ExpertBot(budget=0)
    with pytest.raises(ValueError, match="share"):
        ExpertBot(share=0)
    with pytest.raises(ValueError, match="playout must be one of"):
        ExpertBot(playout="fancy")
    with pytest.raises(ValueError, match="width"):
        ExpertBot(width=0)
