"""Bootstrap intervals cover planted true scores at about their stated rate."""

from __future__ import annotations

import itertools

import numpy as np

from arena.ratings import rate, simulate_records

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
