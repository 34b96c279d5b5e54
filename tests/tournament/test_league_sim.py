"""Planted leagues, small and fast: the schedule saves deals, and it does not bias the fit.

The full-size checks (12 entrants, 95% of runs right at ``confident: 0.95``, the benchmark's
deal counts) are in benchmarks/league.py and docs/league.md; these are scaled down to seconds
and still fail on a schedule or a fit that is wrong.
"""

from __future__ import annotations

import statistics

import numpy as np

from arena.tournament._league import LeagueRules
from arena.tournament._league_sim import PlantedLeague, top_right, true_order

FIELD = [0.3 * (3.5 - i) for i in range(8)]


def _mean_scores(league: PlantedLeague) -> np.ndarray:
    """Per entrant: mean per-deal score, 1 first .. 0 last (the leaderboard's score)."""
    total = np.zeros(len(league.strengths))
    deals = np.zeros(len(league.strengths))
    for rows in league._orders:
        players = rows.shape[1]
        for place in range(players):
            np.add.at(total, rows[:, place], (players - 1 - place) / (players - 1))
            np.add.at(deals, rows[:, place], 1)
    return total / np.maximum(deals, 1)


def test_information_orders_the_top_with_fewer_deals_than_uniform() -> None:
    needed: dict[str, list[int]] = {"information": [], "uniform": []}
    for seed in range(3):
        for choice in needed:
            rules = LeagueRules(table_choice=choice, confident=0.9, top=2, min_sets=4,
                                tables_per_round=2, resamples=60)
            league = PlantedLeague(list(FIELD), rules, seed=seed)
            final = league.run(max_deals=8000)
            assert final.stop == "confident", (choice, seed)
            assert top_right(final, FIELD, 2), (choice, seed, final.order)
            needed[choice].append(league.deals)
    ratio = statistics.median(needed["information"]) / statistics.median(needed["uniform"])
    assert ratio < 0.8, needed


def test_adaptive_scheduling_keeps_the_fit_near_the_truth_but_not_the_mean_score() -> None:
    # Leagues scheduled by information and uniform ones, the same planted field, without the
    # cards' luck (luck=0: the Plackett-Luce model is then exactly true, so its strengths are
    # the truth to compare with; luck compresses the fitted scale under any schedule). The
    # fit's mean error stays small under both schedules, the mean fitted strengths keep the
    # planted order, and the information schedule does not stretch the scale (maximum
    # likelihood with a bootstrap over sets did: slope 1.08 here, benchmarks/league.py
    # --bias, docs/ratings.md); the mean score of the strongest entrant does not stay near
    # the truth, because the information schedule gives it strong opponents (this half shows
    # the check can fail).
    runs = 24
    errors: dict[str, list[np.ndarray]] = {"information": [], "uniform": []}
    scores: dict[str, list[np.ndarray]] = {"information": [], "uniform": []}
    truth = np.asarray(FIELD) - np.mean(FIELD)
    for seed in range(runs):
        for choice in errors:
            rules = LeagueRules(table_choice=choice, confident=0.95, top=2, min_sets=2,
                                deals=320, tables_per_round=3, resamples=10)
            league = PlantedLeague(list(FIELD), rules, seed=100 + seed, luck=0.0)
            final = league.run()
            errors[choice].append(final.fit.theta - truth)
            scores[choice].append(_mean_scores(league))
    for choice, rows in errors.items():
        err = np.asarray(rows)
        se = err.std(axis=0, ddof=1) / np.sqrt(runs)
        assert np.all(np.abs(err.mean(axis=0)) < 4 * se + 0.05), (choice, err.mean(axis=0), se)
        fitted = truth + err.mean(axis=0)
        assert list(np.argsort(-fitted)) == true_order(FIELD), (choice, fitted)
        scale = float(np.polyfit(truth, fitted, 1)[0])  # 1: neither stretched nor compressed
        assert 0.9 < scale < 1.04, (choice, scale)
    best = true_order(FIELD)[0]
    gap = (np.mean([s[best] for s in scores["uniform"]])
           - np.mean([s[best] for s in scores["information"]]))
    assert gap > 0.05, gap


def test_the_floor_keeps_every_entrant_in_play() -> None:
    # Anchoring on the unsure ranks alone would leave the clearly weak entrants near min_sets
    # for ever; the floor keeps each at a quarter of the mean at least (one round of slack).
    def sets_after(floor: float) -> list[int]:
        # a rule that stops only when all 100 draws agree on the top 2, or at 640 deals
        rules = LeagueRules(confident=0.9999, top=2, min_sets=2, floor=floor, deals=640,
                            tables_per_round=2, resamples=100)
        league = PlantedLeague(list(FIELD), rules, seed=5)
        return [int(s) for s in league.run().fit.sets]

    kept = sets_after(0.25)
    assert min(kept) >= 0.25 * statistics.mean(kept) - 2 and min(kept) > 2, kept
    starved = sets_after(0.0)
    # without the floor the weak play only as far as their posterior leaves them a chance
    # of the top 2: a handful of sets, below what the floor keeps
    assert min(starved) < 0.25 * statistics.mean(starved) - 2, starved


def test_a_replayed_league_plays_the_same_tables_with_other_results() -> None:
    from arena.tournament._league_sim import _replayed

    rules = LeagueRules(confident=0.95, top=2, min_sets=2, deals=96, tables_per_round=2,
                        resamples=10)
    league = PlantedLeague(list(FIELD), rules, seed=3, luck=0.0)
    tables = []
    while (assessment := league.assess()).stop is None:
        tables += league.play_round(assessment)
    played = league.data()
    again = _replayed(tables, FIELD, league.deals_per_match, 0.0, np.random.default_rng(1))
    assert np.array_equal(again.cluster_deals, played.cluster_deals)  # same sets, same seats
    assert not np.array_equal(again.wins, played.wins)  # fresh results
