"""The Plackett-Luce update matches openskill's own model, deal by deal."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from arena.ratings import PlackettLuceParams, rate_orders


def _openskill(orders: list[list[int]], bots: int, **options: float) -> list[tuple[float, float]]:
    model = PlackettLuce(**options)
    players = [model.rating() for _ in range(bots)]
    for order in orders:
        result = model.rate([[players[b]] for b in order], ranks=list(range(len(order))))
        for bot, team in zip(order, result, strict=True):
            players[bot] = team[0]
    return [(p.mu, p.sigma) for p in players]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_ratings_as_openskill_on_random_deals(seed: int) -> None:
    rng = random.Random(seed)
    orders = [rng.sample(range(7), rng.choice([2, 3, 4, 5, 6])) for _ in range(400)]
    mu, sigma = rate_orders(orders, 7)
    expected = _openskill(orders, 7)
    assert mu == pytest.approx([m for m, _ in expected], abs=1e-9)
    assert sigma == pytest.approx([s for _, s in expected], abs=1e-9)


def test_same_ratings_as_openskill_with_other_constants() -> None:
    rng = random.Random(9)
    orders = [rng.sample(range(5), 4) for _ in range(200)]
    options = {"mu": 30.0, "sigma": 5.0, "beta": 3.0, "tau": 0.5, "kappa": 0.001}
    mu, sigma = rate_orders(orders, 5, PlackettLuceParams(**options))
    expected = _openskill(orders, 5, **options)
    assert mu == pytest.approx([m for m, _ in expected], abs=1e-9)
    assert sigma == pytest.approx([s for _, s in expected], abs=1e-9)


def test_extreme_ratings_do_not_overflow() -> None:
    # one bot always wins: its mu climbs far; exp() must stay finite
    orders = [[0, 1, 2, 3]] * 20_000
    mu, _ = rate_orders(orders, 4)
    assert all(m == m and abs(m) < 1e6 for m in mu)  # no NaN, no inf
    assert mu[0] > mu[1] > mu[2] > mu[3]


def test_winner_gains_and_loser_loses() -> None:
    mu, sigma = rate_orders([[2, 0, 1]], 3)
    assert mu[2] > 25.0 > mu[1]
    assert all(s < 25.0 / 3.0 + 0.1 for s in sigma)
