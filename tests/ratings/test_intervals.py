"""Bootstrap intervals cover planted true scores at about their stated rate."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from arena.ratings import _leaderboard, rate, simulate_records
from arena.ratings._bootstrap import MIN_PER_STRATUM, balanced_strata, bootstrap_ratio

STRENGTHS = {"a": 0.6, "b": 0.2, "c": 0.0, "d": -0.5}
SET_NOISE = 1.0  # per-set strength shifts: deals within a set are correlated
DEALS = 3


def _true_scores(strengths: dict[str, float], set_noise: float, draws: int) -> dict[str, float]:
    """Expected per-deal score with every bot at the table, averaged over the set shifts:
    exact Plackett-Luce order probabilities per shift, Monte Carlo over shifts."""
    labels = list(strengths)
    n = len(labels)
    rng = np.random.default_rng(123)
    theta = np.asarray([strengths[x] for x in labels]) + rng.normal(0, set_noise, (draws, n))
    w = np.exp(theta)
    score = np.zeros((draws, n))
    for order in itertools.permutations(range(n)):
        prob = np.ones(draws)
        left = w.sum(axis=1)
        for i in order:
            prob *= w[:, i] / left
            left = left - w[:, i]
        for place, i in enumerate(order):
            score[:, i] += prob * (n - 1 - place) / (n - 1)
    return dict(zip(labels, score.mean(axis=0).tolist(), strict=True))


def test_true_scores_helper_agrees_with_simulation() -> None:
    truth = _true_scores(STRENGTHS, SET_NOISE, 100_000)
    records = simulate_records(STRENGTHS, sets=3000, deals=DEALS, set_noise=SET_NOISE, seed=99)
    board = rate(records, resamples=200)
    for line in board.bots:
        # within a whole interval width: about four standard errors
        assert abs(line.score - truth[line.label]) < line.score_high - line.score_low


def test_intervals_cover_the_truth_at_about_95_percent() -> None:
    # 150 replications x 4 bots = 600 intervals from 30-set tournaments. Expanded percentile
    # intervals from 30 skewed clusters still run a little narrow (92-93% measured on other
    # seeds); 600 intervals that are not independent (bots of one replication share deals)
    # give the coverage a standard error of about 1.5 points, so 0.90..0.985 fails only on a
    # real miscalibration, such as resampling deals instead of sets (about 72% here, see the
    # next test).
    truth = _true_scores(STRENGTHS, SET_NOISE, 200_000)
    covered = total = 0
    for rep in range(150):
        records = simulate_records(STRENGTHS, sets=30, deals=DEALS, set_noise=SET_NOISE,
                                   seed=1000 + rep)
        board = rate(records, resamples=400, seed=rep)
        for line in board.bots:
            covered += line.score_low <= truth[line.label] <= line.score_high
            total += 1
    assert 0.90 <= covered / total <= 0.985


def test_resampling_deals_instead_of_sets_would_undercover() -> None:
    # The same check with every match its own set: intervals then ignore the correlation the
    # set shifts create and must fall clearly short; this shows the test above can fail.
    truth = _true_scores(STRENGTHS, SET_NOISE, 200_000)
    covered = total = 0
    for rep in range(60):
        records = []
        for r in simulate_records(STRENGTHS, sets=30, deals=DEALS, set_noise=SET_NOISE,
                                   seed=1000 + rep):
            records.append({**r, "set": None})
        board = rate(records, resamples=400, seed=rep)
        for line in board.bots:
            covered += line.score_low <= truth[line.label] <= line.score_high
            total += 1
    assert covered / total < 0.85


# A round robin: six bots of widely spread strengths at tables of four, every table played by
# as many duplicate sets. Which tables a bot met is fixed by the design, not drawn by chance.
RR_STRENGTHS = {"a": 2.0, "b": 1.0, "c": 0.3, "d": 0.0, "e": -0.3, "f": -2.0}
RR_NOISE = 0.3
RR_TABLES = list(itertools.combinations(RR_STRENGTHS, 4))


@functools.cache
def _round_robin_truth() -> dict[str, float]:
    """A bot's expected per-deal score: the mean of its exact expected score at each of its
    tables, since each table holds the same number of its deals."""
    per_bot: dict[str, list[float]] = {label: [] for label in RR_STRENGTHS}
    for table in RR_TABLES:
        strengths = {label: RR_STRENGTHS[label] for label in table}
        for label, value in _true_scores(strengths, RR_NOISE, 40_000).items():
            per_bot[label].append(value)
    return {label: float(np.mean(values)) for label, values in per_bot.items()}


def _round_robin_coverage(
    reps: int, per_table: int, monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[float, float]:
    """Coverage and mean width of the intervals over ``reps`` planted round robins."""
    truth = _round_robin_truth()
    if monkeypatch is not None:  # the old way: all sets in one pool
        monkeypatch.setattr(_leaderboard, "balanced_strata", lambda tables: None)
    covered = total = 0
    widths = []
    for rep in range(reps):
        records = simulate_records(RR_STRENGTHS, sets=per_table * len(RR_TABLES), deals=DEALS,
                                   set_noise=RR_NOISE, seed=5000 + rep, round_robin=True)
        board = rate(records, resamples=400, seed=rep)
        for line in board.bots:
            covered += line.score_low <= truth[line.label] <= line.score_high
            total += 1
            widths.append(line.score_high - line.score_low)
    return covered / total, float(np.mean(widths))


def test_round_robin_intervals_resample_within_tables_narrower_with_the_same_coverage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 60 round robins x 6 bots = 360 intervals, 4 sets per table (40 sets per bot). Measured:
    # stratified 93.9% covered (mean width 0.058), pooled 97.8% (0.077: a third wider, the
    # stratified 25% narrower); the pool counts as chance the mix of tables the design fixed.
    # Coverage bounds as in the test above (standard error about 1.5 points).
    coverage, width = _round_robin_coverage(60, 4)
    pooled_coverage, pooled_width = _round_robin_coverage(60, 4, monkeypatch)
    assert 0.90 <= coverage <= 0.985
    assert pooled_coverage > coverage
    assert width < 0.85 * pooled_width


def test_strata_only_for_tables_played_equally_often_and_often_enough() -> None:
    four_each = np.repeat(np.array([7, 3, 5]), MIN_PER_STRATUM)
    strata = balanced_strata(four_each)
    assert strata is not None and strata.tolist() == np.repeat([2, 0, 1], MIN_PER_STRATUM).tolist()
    assert balanced_strata(np.zeros(10, dtype=np.int64)) is None  # one table
    assert balanced_strata(np.array([1, 1, 1, 1, 2, 2, 2, 2, 2])) is None  # unequal
    assert balanced_strata(np.repeat(np.array([1, 2]), MIN_PER_STRATUM - 1)) is None  # too few
    assert balanced_strata(np.arange(40)) is None  # Swiss-like: every table once


def test_stratified_resampling_keeps_each_tables_share() -> None:
    # Two tables, each 5 clusters: one always scores 1, the other 0. Pooled resampling varies
    # the mix; within tables the ratio never moves.
    totals = np.array([3.0] * 5 + [0.0] * 5)
    counts = np.full(10, 3.0)
    strata = np.array([0] * 5 + [1] * 5)
    rng = np.random.default_rng(1)
    assert bootstrap_ratio(totals, counts, 500, 0.95, rng, strata) == (0.5, 0.5)
    low, high = bootstrap_ratio(totals, counts, 500, 0.95, rng)
    assert low < 0.3 and high > 0.7
