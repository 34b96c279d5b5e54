"""Plackett-Luce strengths: the posterior under a prior on the field's spread, and its draws."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.ratings import Results, simulate_records
from arena.ratings._stages import StageCounts, stage_counts
from arena.ratings._strength import StrengthFit, fit_strengths, posterior_mode

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


def _log_posterior(theta: np.ndarray, orders: list[list[int]], scale: float) -> float:
    """The objective written out: every stage of every deal, plus each bot's normal prior
    of spread ``scale`` around 0."""
    total = 0.0
    for order in orders:
        for j in range(len(order) - 1):
            rest = order[j:]
            total += theta[order[j]] - math.log(sum(math.exp(theta[i]) for i in rest))
    return total - float(theta @ theta) / (2 * scale * scale)


def _orders_data() -> tuple[list[list[int]], StageCounts]:
    rng = np.random.default_rng(3)
    orders = [list(rng.permutation(5)[: int(rng.integers(2, 5))]) for _ in range(40)]
    orders += [[0, 1, 2, 3], [0, 2, 1, 4], [0, 4, 3]]  # bot 0 a little ahead
    flat = np.asarray([b for o in orders for b in o], dtype=np.int64)
    sizes = np.asarray([len(o) for o in orders], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    clusters = np.arange(len(orders), dtype=np.int64) // 3
    return orders, stage_counts(5, flat, starts, sizes, clusters)


@pytest.mark.parametrize("scale", [0.1, 0.7, 4.0])
def test_the_mode_maximises_the_log_posterior(scale: float) -> None:
    orders, data = _orders_data()
    mode, precision, _ = posterior_mode(data, scale)
    peak = _log_posterior(mode, orders, scale)
    for i in range(5):
        for step in (-0.01, 0.01):
            moved = mode.copy()
            moved[i] += step
            assert _log_posterior(moved, orders, scale) < peak
    # the precision is the curvature there: compare with finite differences
    h = 1e-4
    for i, k in [(0, 0), (0, 1), (2, 4)]:
        a, b = np.eye(5)[i] * h, np.eye(5)[k] * h
        def at(t: np.ndarray) -> float:
            return _log_posterior(t, orders, scale)

        second = (at(mode + a + b) - at(mode + a) - at(mode + b) + peak) / (h * h)
        assert -second == pytest.approx(precision[i, k], rel=1e-3, abs=1e-3)


def test_the_spread_of_the_prior_is_learnt_from_the_records() -> None:
    # nearly equal bots: the spread of the maximum-likelihood fit is mostly noise, and the
    # posterior pulls it in; bots far apart: the records rule out a small spread, and the
    # posterior keeps nearly all of the fit's scale
    near = {x: 0.03 * s for x, s in zip("abcdef", [1, -1, 0.5, 0, -0.5, 0.2], strict=True)}
    far = {x: 40 * s for x, s in near.items()}
    kept = {}
    for name, field in (("near", near), ("far", far)):
        _, data = _data(field, sets=30, seed=4)
        fit = fit_strengths(data, resamples=0, seed=0)
        unshrunk = posterior_mode(data, 1e3)[0]
        kept[name] = float(np.std(fit.theta)) / float(np.std(unshrunk))
    assert kept["near"] < 0.8 and kept["far"] > 0.97, kept


def test_an_anchor_pins_the_scale_and_changes_no_rank() -> None:
    labels, data = _data(STRENGTHS, sets=60, seed=8)
    plain = fit_strengths(data, resamples=50, seed=1)
    anchored = fit_strengths(data, resamples=50, seed=1, anchors=[labels.index("d")])
    d = labels.index("d")
    assert anchored.theta[d] == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(anchored.draws[:, d], 0.0)
    assert anchored.order() == plain.order()
    assert np.allclose(anchored.theta - anchored.theta.mean(), plain.theta - plain.theta.mean())


def test_the_draws_are_seeded() -> None:
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


def _model_sd(data: StageCounts) -> np.ndarray:
    """Per bot: the posterior's own standard deviation at a broad prior (every deal an
    independent draw of the model), centred on the bots' mean as the fit's draws are."""
    _, precision, _ = posterior_mode(data, 5.0)
    n = data.bots
    centre = np.eye(n) - np.ones((n, n)) / n
    return np.sqrt(np.diag(centre @ np.linalg.inv(precision) @ centre))


def test_the_draws_spread_as_the_sets_results_vary() -> None:
    # Without set noise the deals are the model's independent draws, and the draws' spread is
    # the posterior's own; a shift shared by the deals of a set (as a table's quirks are)
    # makes sets vary more than the model says, and the draws widen with them.
    ratio = {}
    for noise in (0.0, 0.5):
        results = Results()
        results.extend(simulate_records(STRENGTHS, sets=120, deals=3, seed=6, set_noise=noise,
                                        round_robin=True))
        arrays = results.arrays()
        data = stage_counts(len(arrays.labels), arrays.label, arrays.deal_start,
                            arrays.deal_size, arrays.deal_cluster)
        fit = fit_strengths(data, resamples=2000, seed=1)
        ratio[noise] = float(np.median(fit.draws.std(axis=0) / _model_sd(data)))
    assert 0.85 < ratio[0.0] < 1.15 and ratio[0.5] > 1.3, ratio


def test_a_newcomer_with_one_set_is_not_sure_of_its_strength() -> None:
    # one duplicate set says little: the newcomer's interval is far wider than the others'
    results = Results()
    results.extend(simulate_records(STRENGTHS, sets=60, deals=3, seed=9, round_robin=True))
    newcomer = {"a": 0.9, "b": 0.5, "c": 0.1, "new": 0.0}
    results.extend(simulate_records(newcomer, sets=1, deals=3, seed=10, tournament="late"))
    arrays = results.arrays()
    data = stage_counts(len(arrays.labels), arrays.label, arrays.deal_start, arrays.deal_size,
                        arrays.deal_cluster)
    fit = fit_strengths(data, resamples=400, seed=2)
    low, high = fit.interval(0.95)
    width = high - low
    new = arrays.labels.index("new")
    assert fit.sets[new] == 1
    assert width[new] > 2.5 * float(np.median(np.delete(width, new))), width
