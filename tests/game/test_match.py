"""docs/rules.md section 8 (matches and scoring) and the match-level statements of section 3."""

from __future__ import annotations

import random

import pytest

from arena.game import Deal, IllegalMove, Match, Rules

from .helpers import documented_deal_seed, documented_hands, drive, names


def test_a_match_is_rounds_deals_default_5() -> None:
    """Rule: "A match is `rounds` deals (option, default 5) at one table."""
    assert Rules().rounds == 5
    m = Match(Rules(), 4, 1)
    drive(m)
    assert m.finished and m.pending is None
    assert [d["deal"] for d in m.history] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("rounds", [1, 2, 7])
def test_the_rounds_option_sets_the_number_of_deals(rounds: int) -> None:
    """Rule: "A match is `rounds` deals (option ...)"."""
    m = Match(Rules(rounds=rounds), 3, 4)
    drive(m, random.Random(rounds))
    assert len(m.history) == rounds and m.finished
    with pytest.raises(IllegalMove):
        m.play("pass")


@pytest.mark.parametrize("bad", [0, -1])
def test_rounds_must_be_positive(bad: int) -> None:
    """Rule: "A match is `rounds` deals": a match of no deals is a ValueError."""
    with pytest.raises(ValueError, match="rounds"):
        Rules(rounds=bad)


def test_the_first_deal_of_a_match_is_deal_new_with_the_match_seed() -> None:
    """Rule (section 3): "The deck is shuffled from the deal's seed (the algorithm is the engine's
    own, fixed and documented)": every deal of a match is the documented shuffle of its seed, and
    Deal.new(rules, n, S) is the first deal of Match(rules, n, S)."""
    for seed in (0, 99, 2**63 - 1):
        r = Rules(jokers=1, rounds=3)
        m = Match(r, 5, seed)
        first = Deal.new(r, 5, seed)
        assert [names(m.deal.hand(s)) for s in range(5)] == [names(first.hand(s)) for s in range(5)]
        drive(m)
        for d, record in enumerate(m.history):
            assert record["seed"] == documented_deal_seed(seed, d)
            assert [names(h) for h in record["hands"]] == documented_hands(seed, d, 5, 1)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_the_seats_that_get_an_extra_card_rotate_from_deal_to_deal(players: int) -> None:
    """Rule: "card `i` of the shuffled deck going to seat `(i + d) mod players` for deal number
    `d` (0-based), so every card is dealt and the seats that get an extra card rotate."""
    m = Match(Rules(rounds=4, jokers=1), players, 77)
    drive(m)
    for d, record in enumerate(m.history):
        sizes = [len(h) for h in record["hands"]]
        assert sizes == [len(range((s - d) % players, 53, players)) for s in range(players)]


def test_the_first_deal_is_led_by_the_holder_of_3c_and_later_deals_by_the_previous_scum() -> None:
    """Rule (section 3): "The first deal of a match is led by the holder of `3C`. Every later deal
    is led by the previous deal's last-placed player (the Scum)."""
    for players in (2, 4, 7):
        m = Match(Rules(rounds=4, exchange=[]), players, players)
        drive(m, random.Random(players))
        first = m.history[0]
        assert "3C" in first["hands"][first["leader"]]
        assert first["moves"][0]["seat"] == first["leader"]
        for prev, cur in zip(m.history, m.history[1:], strict=False):
            assert cur["leader"] == prev["finish_order"][-1]
            assert cur["moves"][0]["seat"] == cur["leader"]


@pytest.mark.parametrize("players", range(2, 9))
def test_points_default_to_n_minus_1_down_to_0(players: int) -> None:
    """Rule: "Option `points` (list by finishing place, default `n-1, n-2, …, 0` for n players)
    scores each deal."""
    assert Rules().points is None
    assert tuple(Rules().points_for(players)) == tuple(range(players - 1, -1, -1))
    m = Match(Rules(rounds=2), players, 3)
    drive(m)
    totals = [0] * players
    for d in m.history:
        for place, seat in enumerate(d["finish_order"]):
            assert d["points"][seat] == players - 1 - place
            totals[seat] += players - 1 - place
    assert list(m.scores) == totals


def test_the_points_option_scores_each_deal_by_finishing_place() -> None:
    """Rule: "Option `points` (list by finishing place ...) scores each deal."""
    r = Rules(points=[10, 4, 1, 0], rounds=3)
    assert tuple(r.points_for(4)) == (10, 4, 1, 0)
    m = Match(r, 4, 8)
    drive(m, random.Random(2))
    totals = [0] * 4
    for d in m.history:
        for place, seat in enumerate(d["finish_order"]):
            assert d["points"][seat] == (10, 4, 1, 0)[place]
            totals[seat] += (10, 4, 1, 0)[place]
    assert list(m.scores) == totals


def test_a_match_ranks_by_total_points_ties_broken_by_the_better_place_in_the_last_deal() -> None:
    """Rule: "A match ranks its players by total points, ties broken by the better place in the
    last deal."""
    ties = 0
    for seed in range(12):
        m = Match(Rules(rounds=2), 4, seed)
        drive(m, random.Random(seed))
        last = m.history[-1]["finish_order"]
        expected = sorted(range(4), key=lambda s: (-m.scores[s], last.index(s)))
        assert m.ranking() == expected
        ties += len(set(m.scores)) < 4
    assert ties > 0  # the tie-break was exercised


def test_match_decisions_are_answered_in_turn() -> None:
    """A match asks one decision at a time: a move may not answer an exchange, nor a gift a move."""
    m = Match(Rules(rounds=2), 4, 5)
    assert m.pending.kind == "play"
    with pytest.raises(IllegalMove):
        m.give(["3C", "4C"])
    with pytest.raises(IllegalMove):
        m.play("KD KH KS KC JK")
    drive(m, stop_after_deal=0)
    assert m.pending.kind == "exchange"
    with pytest.raises(IllegalMove):
        m.play("pass")
    assert m.deal_number == 1


def test_a_points_list_must_have_one_entry_per_finishing_place_of_the_table() -> None:
    """Rule: "Option `points` (list by finishing place ...)": a match whose table has more or fewer
    places than the list is refused."""
    with pytest.raises(ValueError, match="points"):
        Match(Rules(points=[3, 2, 1, 0]), 3, 1)
    with pytest.raises(ValueError, match="points"):
        Match(Rules(points=[3, 2, 1, 0]), 5, 1)
    Match(Rules(points=[3, 2, 1, 0]), 4, 1)


def test_an_exchange_return_may_be_given_as_cards_or_card_strings() -> None:
    """`Match.give` takes the returned cards as Card objects or their names."""
    for as_cards in (True, False):
        m = Match(Rules(rounds=2), 4, 5)
        drive(m, stop_after_deal=0)
        pres = m.pending.seat
        hand = list(m.view(pres).hand)[-2:]
        m.give(hand if as_cards else [str(c).lower() for c in hand])
        assert not set(names(hand)) & set(names(m.deal.hand(pres)))
