"""The sequential test: bounds, stopping, error rates on planted pairs, replay from records."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.ratings import (
    Sprt,
    elo_to_score,
    score_to_elo,
    set_score,
    simulate_records,
    sprt_from_records,
)

from .helpers import record


def _decisions(true_elo: float, elo0: float, elo1: float, alpha: float, beta: float,
               runs: int, seed: int) -> dict[str, float]:
    """Share of each decision over `runs` tests whose set scores are the mean of 12 planted
    comparisons won with the probability that `true_elo` gives."""
    rng = np.random.default_rng(seed)
    scores = rng.binomial(12, elo_to_score(true_elo), size=(runs, 3000)) / 12
    counts = {"H0": 0, "H1": 0, "inconclusive": 0}
    for row in scores.tolist():
        test = Sprt(elo0, elo1, alpha, beta, max_sets=3000)
        for x in row:
            status = test.update(x)
            if status.finished:
                break
        counts[status.decision] += 1
    return {k: v / runs for k, v in counts.items()}


# Error rates. Wald's bounds promise error rates of at most about alpha and beta; the LLR
# overshoots a bound by part of one set's step, which makes the real rates somewhat lower
# (about 0.033 for 0.05 here, measured on 2000 runs with other seeds). With 600 runs the
# standard error of a rate near 0.05 is 0.009, so the upper tolerance alpha + 0.03 is over
# three standard errors, and the lower one (alpha / 4) catches a test gone so conservative
# that it wastes sets.


def test_false_positive_rate_on_planted_equal_pair_is_near_alpha() -> None:
    rates = _decisions(0.0, 0.0, 20.0, 0.05, 0.05, runs=600, seed=1)
    assert 0.05 / 4 <= rates["H1"] <= 0.05 + 0.03


def test_false_negative_rate_on_planted_better_challenger_is_near_beta() -> None:
    rates = _decisions(20.0, 0.0, 20.0, 0.05, 0.05, runs=600, seed=2)
    assert 0.05 / 4 <= rates["H0"] <= 0.05 + 0.03


def test_alpha_and_beta_steer_their_own_error() -> None:
    # beta = 0.2 allows four times the false negatives of alpha = 0.05's false positives
    fn = _decisions(20.0, 0.0, 20.0, 0.05, 0.2, runs=400, seed=3)["H0"]
    fp = _decisions(0.0, 0.0, 20.0, 0.05, 0.2, runs=400, seed=4)["H1"]
    assert 0.2 / 4 <= fn <= 0.2 + 0.06
    assert fp <= 0.05 + 0.035
    assert fn > fp


def test_clear_differences_decide_fast() -> None:
    rates = _decisions(200.0, 0.0, 20.0, 0.05, 0.05, runs=50, seed=5)
    assert rates["H1"] == 1.0
    # identical sets far beyond elo1: each hypothesis may explain them with its own spread,
    # so the LLR grows by 0.5 log(r0 / r1) = 0.075 a set and the test needs about 40 sets
    test = Sprt(0.0, 20.0)
    while not test.status().finished:
        test.update(0.9)
    assert test.status().decision == "H1" and 35 <= test.sets <= 45


def test_bounds_are_walds() -> None:
    test = Sprt(0, 5, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))


def test_llr_is_near_zero_at_the_midpoint_and_signed_around_it() -> None:
    mid = (elo_to_score(0) + elo_to_score(40)) / 2
    for score, sign in ((mid, 0), (mid + 0.05, 1), (mid - 0.05, -1)):
        test = Sprt(0, 40)
        for x in (score - 0.1, score + 0.1, score - 0.05, score + 0.05):
            test.update(x)
        if sign == 0:
            assert abs(test.llr) < 0.01  # the small prior pulls the mean a hair towards 0.5
        else:
            assert test.llr * sign > 0.1


def test_llr_is_the_unknown_variance_likelihood_ratio() -> None:
    # 60 sets: the small prior's share of r0 and r1 is then under one percent
    scores = [0.55, 0.7, 0.45, 0.52, 0.58, 0.46] * 10
    test = Sprt(0, 40, alpha=1e-9, beta=1e-9)  # bounds far away: the test runs all 60
    for x in scores:
        test.update(x)
    s0, s1 = elo_to_score(0), elo_to_score(40)
    r0 = sum((x - s0) ** 2 for x in scores) / len(scores)
    r1 = sum((x - s1) ** 2 for x in scores) / len(scores)
    assert test.llr == pytest.approx(len(scores) / 2 * math.log(r0 / r1), rel=0.02)


def test_one_early_set_cannot_decide() -> None:
    # a variance estimated from a single set is zero; the prior keeps the LLR finite and small
    test = Sprt(0, 20)
    status = test.update(1.0)
    assert status.decision == "continue" and abs(status.llr) < 1.0


def test_stops_at_max_sets_without_decision_and_refuses_more() -> None:
    test = Sprt(0, 20, max_sets=5)
    for x in (0.5, 0.52, 0.48, 0.5, 0.51):
        status = test.update(x)
    assert status.decision == "inconclusive" and status.finished
    assert "maximum of 5 sets" in status.summary()
    with pytest.raises(RuntimeError, match="already stopped"):
        test.update(0.5)


def test_estimate_and_interval() -> None:
    test = Sprt(0, 20)
    for x in (0.6, 0.7, 0.5, 0.6):
        test.update(x)
    status = test.status()
    assert status.score == pytest.approx(0.6)
    assert status.elo == pytest.approx(score_to_elo(0.6))
    assert status.elo_low < status.elo < status.elo_high
    half = 1.959964 * math.sqrt(0.005 / 3)
    assert status.score_low == pytest.approx(0.6 - half, abs=1e-6)
    data = status.to_dict()
    assert data["decision"] == "continue" and data["sets"] == 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"elo0": 5, "elo1": 5}, "below"), ({"alpha": 0.0}, "alpha"), ({"beta": 0.7}, "beta"),
     ({"max_sets": 0}, "max_sets")],
)
def test_bad_parameters_are_named(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Sprt(**kwargs)  # type: ignore[arg-type]


def test_scores_outside_0_1_are_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        Sprt().update(1.5)


def test_set_score_against_baseline_and_against_the_field() -> None:
    records = [
        record("m1", ["new", "old", "x", "y"], [[0, 2, 1, 3], [2, 1, 3, 0]], set_id="s"),
        record("m2", ["old", "x", "y", "new"], [[3, 0, 1, 2], [0, 3, 1, 2]], set_id="s"),
    ]
    # vs old: ahead, behind, ahead, behind
    assert set_score(records, "new", "old") == 0.5
    # vs the field of three: 3/3, 0/3, 3/3, 2/3
    assert set_score(records, "new") == pytest.approx((1 + 0 + 1 + 2 / 3) / 4)
    assert set_score(records, "new", ["old", "x"]) == pytest.approx((1 + 0 + 1 + 0.5) / 4)
    assert set_score(records, "nobody", "old") is None


def test_replay_from_planted_records_decides_like_a_live_run() -> None:
    strong = simulate_records({"new": 0.8, "old": 0.0}, sets=200, players=2, deals=4, seed=7)
    status = sprt_from_records(strong, "new", "old", elo0=0, elo1=40)
    assert status.decision == "H1" and status.sets < 200
    equal = list(simulate_records({"new": 0.0, "old": 0.0}, sets=300, players=2, deals=4,
                                  seed=8))
    status = sprt_from_records(equal, "new", "old", elo0=0, elo1=40)
    assert status.decision == "H0"
    # the replay stops where a live test would: feeding the sets one by one agrees
    live = Sprt(0, 40)
    for k in range(300):
        score = set_score([r for r in equal if r["set"] == f"planted-s{k}"], "new", "old")
        assert score is not None
        if live.update(score).finished:
            break
    assert live.status() == status


def test_baseline_copies_count_as_the_baseline() -> None:
    r = record("m", ["new", "old", "old#2", "old-fan"], [[0, 1, 2, 3], [1, 0, 3, 2]], set_id="s")
    # deal 1: ahead of old and old#2; deal 2: behind old, ahead of old#2; old-fan is not a copy
    assert set_score([r], "new", "old") == 0.75
