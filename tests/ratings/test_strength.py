"""Plackett-Luce strengths by maximum likelihood and their bootstrap over sets."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.ratings import Results, simulate_records
from arena.ratings._strength import PRIOR, StageCounts, StrengthFit, fit_strengths, stage_counts

STRENGTHS = {"a": 0.9, "b": 0.5, "c": 0.1, "d": -0.2, "e": -0.6, "f": -0.7}


def _data(strengths: dict[str, float], sets: int, seed: int) -> tuple[list[str], StageCounts]:
    results = Results()
    results.extend(simulate_records(strengths, sets=sets, deals=3, seed=seed, round_robin=True))
    arrays = results.arrays()
    return arrays.labels, stage_counts(len(arrays.labels), arrays.label, arrays.deal_start,
                                       arrays.deal_size, arrays.deal_cluster)


def test_fit_recovers_planted_strengths() -> None:
    labels, data = _data(STRENGTHS, sets=600, seed=5)
    fit = fit_strengths(data, resamples=0, seed=0)
    truth = np.asarray([STRENGTHS[x] for x in labels])
    truth -= truth.mean()
    assert np.max(np.abs(fit.theta - truth)) < 0.12
    assert [labels[i] for i in fit.order()] == sorted(STRENGTHS, key=lambda x: -STRENGTHS[x])


def _penalised_loglik(theta: np.ndarray, orders: list[list[int]]) -> float:
    """The objective written out: every stage of every deal, plus each bot's PRIOR virtual
    win and PRIOR virtual loss against a bot of strength 1 (log-strength 0)."""
    total = 0.0
    for order in orders:
        for j in range(len(order) - 1):
            rest = order[j:]
            total += theta[order[j]] - math.log(sum(math.exp(theta[i]) for i in rest))
    for t in theta:
        total += PRIOR * (t - math.log(math.exp(t) + 1.0)) + PRIOR * (0.0 - math.log(
            math.exp(t) + 1.0))
    return total


def test_the_fit_maximises_the_penalised_likelihood() -> None:
    rng = np.random.default_rng(3)
    orders = [list(rng.permutation(5)[: int(rng.integers(2, 5))]) for _ in range(40)]
    orders += [[0, 1, 2, 3], [0, 2, 1, 4], [0, 4, 3]]  # bot 0 a little ahead
    flat = np.asarray([b for o in orders for b in o], dtype=np.int64)
    sizes = np.asarray([len(o) for o in orders], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    clusters = np.arange(len(orders), dtype=np.int64) // 3
    data = stage_counts(5, flat, starts, sizes, clusters)
    fit = fit_strengths(data, resamples=0, seed=0)
    # the reported theta is centred: undo the shift by refitting the free scale on the prior
    best = max((fit.theta + c for c in np.linspace(-1, 1, 2001)),
               key=lambda t: _penalised_loglik(t, orders))
    peak = _penalised_loglik(best, orders)
    for i in range(5):
        for step in (-0.01, 0.01):
            moved = best.copy()
            moved[i] += step
            assert _penalised_loglik(moved, orders) < peak


def test_an_anchor_pins_the_scale_and_changes_no_rank() -> None:
    labels, data = _data(STRENGTHS, sets=60, seed=8)
    plain = fit_strengths(data, resamples=50, seed=1)
    anchored = fit_strengths(data, resamples=50, seed=1, anchors=[labels.index("d")])
    d = labels.index("d")
    assert anchored.theta[d] == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(anchored.draws[:, d], 0.0)
    assert anchored.order() == plain.order()
    assert np.allclose(anchored.theta - anchored.theta.mean(), plain.theta - plain.theta.mean())


def test_the_bootstrap_is_seeded_and_resamples_sets() -> None:
    _, data = _data(STRENGTHS, sets=30, seed=2)
    one = fit_strengths(data, resamples=40, seed=7)
    again = fit_strengths(data, resamples=40, seed=7)
    other = fit_strengths(data, resamples=40, seed=8)
    assert np.array_equal(one.draws, again.draws)
    assert not np.array_equal(one.draws, other.draws)
    assert one.draws.shape == (40, 6)
    low, high = one.interval(0.95)
    assert np.all(low <= one.theta) and np.all(one.theta <= high) and np.all(high > low)


def test_rank_probabilities_and_the_top_order_read_the_draws() -> None:
    draws = np.asarray([[3.0, 2.0, 1.0, 0.0], [2.0, 3.0, 1.0, 0.0], [3.0, 2.0, 0.0, 1.0],
                        [3.0, 1.0, 2.0, 0.0]])
    fit = StrengthFit(theta=np.asarray([3.0, 2.0, 1.0, 0.0]), draws=draws,
                      deals=np.ones(4, np.int64), sets=np.ones(4, np.int64))
    assert fit.p_top_ordered(1) == 0.75
    assert fit.p_top_ordered(2) == 0.5  # draw 2 swaps the top two, draw 4 the second
    assert fit.p_top_ordered(3) == 0.25
    assert fit.p_top_ordered(2, among=[0, 2, 3]) == 0.75  # ranks among three: draw 3 swaps
    probs = fit.rank_probabilities()
    assert probs[0].tolist() == [0.75, 0.25, 0.0, 0.0]
    assert np.allclose(probs.sum(axis=0), 1.0) and np.allclose(probs.sum(axis=1), 1.0)


def test_a_bot_without_deals_has_no_sets_and_a_finite_strength() -> None:
    results = Results()
    results.extend(simulate_records({"a": 0.5, "b": 0.0, "c": -0.5, "d": 0.0}, sets=8, deals=3,
                                    seed=1))
    arrays = results.arrays()
    # a fifth bot, index 4, entered but never seated
    data = stage_counts(5, arrays.label, arrays.deal_start, arrays.deal_size, arrays.deal_cluster)
    fit = fit_strengths(data, resamples=20, seed=0)
    assert fit.sets.tolist() == [8, 8, 8, 8, 0] and fit.deals[4] == 0
    assert np.all(np.isfinite(fit.theta)) and np.all(np.isfinite(fit.draws))
