"""Self-play through the referee's one loop (compare, play_bots), as the benchmark uses it."""

from __future__ import annotations

from arena.game import Rules
from arena.referee import Places, compare, play_bots

NAMES = ["greedy", "random", "lowest", "random"]


def test_same_seed_same_places_other_seed_other_places() -> None:
    rules = Rules.preset("runs", rounds=2)
    one = compare(NAMES, rules, matches=6, seed=10)
    assert one.places == compare(NAMES, rules, matches=6, seed=10).places
    assert one.places != compare(NAMES, rules, matches=6, seed=11).places


def test_every_deal_gives_every_place_once() -> None:
    result = compare(NAMES, Rules.preset("standard", rounds=3), matches=4, seed=1)
    assert result.deals == 12
    assert len(result.places["random"]) == 2 * 12
    assert len(result.places["greedy"]) == len(result.places["lowest"]) == 12
    every = sorted(p for places in result.places.values() for p in places)
    assert every == sorted([1, 2, 3, 4] * 12)


def test_seats_turn_round() -> None:
    # With the seats turned by one per match, greedy's first deal in match k is the match
    # played with greedy in seat k; replaying that match by hand gives the same place.
    from arena.plugins import registry

    rules = Rules.preset("standard", rounds=1)
    result = compare(NAMES, rules, matches=4, seed=3)
    reg = registry()
    for k in range(4):
        order = [NAMES[(seat + k) % 4] for seat in range(4)]
        record = play_bots([reg.create(n) for n in order], rules, seed=3 + k)
        seat = order.index("greedy")
        place = record["deals"][0]["finish_order"].index(seat) + 1
        assert result.places["greedy"][k] == place


def test_summary_is_the_mean_place() -> None:
    places = Places({"a": [1, 2], "b": [2, 1, 1, 4]}, deals=2)
    assert places.summary() == {"a": 1.5, "b": 2.0}


def test_the_series_of_comparison_seeds_counts_up_and_stays_a_seed() -> None:
    """compare() seeds match k with series(seed, k): seed + k, as test_seats_turn_round
    replays, and never a number MatchSpec would refuse."""
    import pytest

    from arena.seeds import SEED_LIMIT, series

    assert [series(7, k) for k in range(3)] == [7, 8, 9]
    assert series(SEED_LIMIT - 1, 1) == 0
    with pytest.raises(ValueError, match="a seed is an integer >= 0"):
        series(-1, 0)
