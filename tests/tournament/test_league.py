"""The league's pure core: matchmaking by information, the uniform schedule, the stopping rule."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from arena.tournament._league import Assessment, LeagueRules, assess, choose_round
from arena.tournament._league_sim import PlantedLeague

STRENGTHS = [0.2 * (3.5 - i) for i in range(8)]


def _assessment(theta: list[float], sets: list[int], unsure: list[float],
                active: list[int] | None = None) -> Assessment:
    from arena.ratings._strength import StrengthFit

    n = len(theta)
    pool = list(range(n)) if active is None else active
    fit = StrengthFit(theta=np.asarray(theta), draws=np.zeros((0, n)),
                      deals=np.asarray(sets, np.int64) * 8, sets=np.asarray(sets, np.int64))
    return Assessment(fit=fit, active=pool, order=fit.order(pool), p_top=None, deals=0,
                      stop=None, unsure={i: unsure[i] for i in pool})


def test_rules_refuse_bad_parameters_by_name() -> None:
    with pytest.raises(ValueError, match="tables_per_round"):
        LeagueRules(tables_per_round=0)
    with pytest.raises(ValueError, match="confident"):
        LeagueRules(confident=1.5)
    with pytest.raises(ValueError, match="floor"):
        LeagueRules(floor=1.0)
    with pytest.raises(ValueError, match="min_sets"):
        LeagueRules(min_sets=0)


def test_a_new_entrant_plays_first() -> None:
    theta = [1.0, 0.8, 0.6, 0.4, 0.2, 0.0, -0.2, -0.4, 0.0]
    sets = [20] * 8 + [0]
    unsure = [0.5] * 8 + [0.0]
    rules = LeagueRules(tables_per_round=1)
    tables = choose_round(_assessment(theta, sets, unsure), rules, seed=1, round_index=3,
                          played={})
    assert len(tables) == 1 and 8 in tables[0]


def test_the_least_sure_anchor_tables_of_close_ratings() -> None:
    theta = [1.4, 1.0, 0.6, 0.25, -0.2, -0.6, -1.0, -1.5]
    unsure = [0.0, 0.0, 0.0, 0.0, 0.0, 0.9, 0.0, 0.0]  # only entrant 5's rank is unsure
    rules = LeagueRules(tables_per_round=1, min_sets=1)
    tables = choose_round(_assessment(theta, [10] * 8, unsure), rules, seed=1, round_index=0,
                          played={})
    # the three closest to -0.6: -0.2 and -1.0 (0.4 away), then 0.25 (0.85; -1.5 is 0.9)
    assert sorted(tables[0]) == [3, 4, 5, 6]


def test_no_table_twice_in_a_round_and_anchors_may_share_entrants() -> None:
    theta = [1.4, 1.0, 0.6, 0.2, -0.2, -0.6, -1.0, -1.4]
    unsure = [0.9, 0.8, 0.7, 0.6, 0.0, 0.0, 0.0, 0.0]
    rules = LeagueRules(tables_per_round=4, min_sets=1)
    tables = choose_round(_assessment(theta, [10] * 8, unsure), rules, seed=1, round_index=0,
                          played={})
    keys = [tuple(sorted(t)) for t in tables]
    assert len(set(keys)) == 4
    seats = Counter(e for t in tables for e in t)
    assert max(seats.values()) > 1  # the top four sit at more than one table
    assert all(0 in t or 1 in t or 2 in t or 3 in t for t in tables)


def test_the_exploration_floor_seats_a_starved_entrant() -> None:
    theta = [1.4, 1.0, 0.6, 0.2, -0.2, -0.6, -1.0, -1.4]
    unsure = [0.9, 0.8, 0.7, 0.6, 0.0, 0.0, 0.0, 0.0]
    sets = [40, 40, 40, 40, 40, 40, 40, 3]  # entrant 7 below a tenth of the mean (the floor)
    rules = LeagueRules(tables_per_round=1, min_sets=1)
    tables = choose_round(_assessment(theta, sets, unsure), rules, seed=1, round_index=0,
                          played={})
    assert 7 in tables[0]
    loose = LeagueRules(tables_per_round=1, min_sets=1, floor=0.0)
    tables = choose_round(_assessment(theta, sets, unsure), loose, seed=1, round_index=0,
                          played={})
    assert 7 not in tables[0]


def test_retired_entrants_are_not_seated_and_a_small_field_waits() -> None:
    theta = [0.5, 0.4, 0.3, 0.2, 0.1, 0.0]
    rules = LeagueRules(tables_per_round=3, min_sets=1)
    tables = choose_round(_assessment(theta, [5] * 6, [0.5] * 6, active=[0, 2, 3, 5]), rules,
                          seed=2, round_index=1, played={})
    assert {e for t in tables for e in t} == {0, 2, 3, 5}
    assert choose_round(_assessment(theta, [5] * 6, [0.5] * 6, active=[0, 2, 3]), rules,
                        seed=2, round_index=1, played={}) == []


def test_uniform_tables_keep_every_entrant_equally_busy() -> None:
    league = PlantedLeague(list(STRENGTHS), LeagueRules(table_choice="uniform", resamples=10),
                           seed=4)
    for _ in range(6):
        league.play_round(league.assess())
    sets = league.assess().fit.sets.tolist()
    assert max(sets) - min(sets) <= 1 and sum(sets) == 6 * 2 * 4
    assert len(league.played) > 6  # the tables are drawn, not one fixed pairing


def test_a_round_is_a_function_of_seed_and_records() -> None:
    def rounds(seed: int) -> list[list[tuple[int, ...]]]:
        league = PlantedLeague(list(STRENGTHS), LeagueRules(resamples=20), seed=seed)
        return [league.play_round(league.assess()) for _ in range(8)]

    assert rounds(11) == rounds(11)
    assert rounds(11) != rounds(12)


def test_the_stopping_rules() -> None:
    budget = PlantedLeague(list(STRENGTHS), LeagueRules(deals=100, resamples=10), seed=1)
    final = budget.run()
    assert final.stop == "deals" and 100 <= budget.deals < 100 + 2 * 8

    rules = LeagueRules(confident=0.9, top=2, min_sets=12, resamples=50)
    league = PlantedLeague([2.0, 1.0, 0.0, -1.0, -1.0, -1.0, -1.0, -1.0], rules, seed=3)
    final = league.run(max_deals=20_000)
    assert final.stop == "confident" and final.p_top is not None and final.p_top >= 0.9
    assert min(final.fit.sets[i] for i in final.active) >= 12
    assert final.order[:2] == [0, 1]


def test_assess_counts_deals_and_reports_p_top_only_when_asked() -> None:
    league = PlantedLeague(list(STRENGTHS), LeagueRules(resamples=10), seed=1)
    league.play_round(league.assess())
    data = league.data()
    plain = assess(data, range(8), LeagueRules(resamples=10), seed=1, round_index=1)
    asked = assess(data, range(8), LeagueRules(resamples=10, confident=0.9), seed=1,
                   round_index=1)
    assert plain.p_top is None and asked.p_top is not None and plain.deals == 2 * 8
    assert asked.stop is None  # one set each is below min_sets


@pytest.mark.parametrize("choice", ["information", "uniform"])
def test_team_mates_never_share_a_table(choice: str) -> None:
    theta = [1.4, 1.3, 1.2, 1.1, -0.2, -0.6, -1.0, -1.4]
    unsure = [0.9, 0.8, 0.7, 0.6, 0.0, 0.0, 0.0, 0.0]
    teams = {0: "red", 1: "red", 2: "blue", 3: "blue"}  # the four closest, in two teams
    rules = LeagueRules(tables_per_round=4, min_sets=1, table_choice=choice)  # type: ignore[arg-type]
    assessment = _assessment(theta, [10] * 8, unsure)
    for round_index in range(5):
        tables = choose_round(assessment, rules, seed=1, round_index=round_index, played={},
                              teams=teams)
        assert tables
        for table in tables:
            named = [teams[e] for e in table if e in teams]
            assert len(named) == len(set(named)), table
    # without teams the closest four do sit together
    free = choose_round(assessment, rules, seed=1, round_index=0, played={})
    assert choice == "uniform" or any(sorted(t) == [0, 1, 2, 3] for t in free)


def test_a_table_that_teams_cannot_fill_is_left_out() -> None:
    theta = [0.5, 0.4, 0.3, 0.2, 0.1]
    teams = {0: "a", 1: "a", 2: "a", 3: "a"}  # one team of four and one free entrant
    rules = LeagueRules(tables_per_round=2, min_sets=1)
    assert choose_round(_assessment(theta, [3] * 5, [0.5] * 5), rules, seed=1, round_index=0,
                        played={}, teams=teams) == []
