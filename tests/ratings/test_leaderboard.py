"""Leaderboard statistics on hand-checked records, planted strengths, and bad input."""

from __future__ import annotations

import itertools
import random

import pytest

from arena.ratings import RatingsError, expected_scores, rate, simulate_records

from .helpers import record


def _tiny() -> list[dict]:
    return [
        record("m1", ["a", "b", "c"], [[0, 1, 2], [1, 0, 2]], set_id="s1", faults={1: [2]}),
        record("m2", ["b", "c", "a"], [[2, 0, 1], [1, 2, 0]], set_id="s1"),
    ]


def test_counts_places_points_and_firsts_by_hand() -> None:
    board = rate(_tiny())
    a, b, c = board.bot("a"), board.bot("b"), board.bot("c")
    assert [line.label for line in board.bots] == ["a", "b", "c"]
    assert (a.matches, a.deals, a.faults) == (2, 4, 0)
    assert (c.matches, c.deals, c.faults) == (2, 4, 1)
    assert (a.mean_place, b.mean_place, c.mean_place) == (1.5, 2.0, 2.5)
    assert (a.mean_points, b.mean_points, c.mean_points) == (1.5, 1.0, 0.5)
    assert (a.first_rate, b.first_rate, c.first_rate) == (0.5, 0.25, 0.25)
    assert (a.score, b.score, c.score) == (0.75, 0.5, 0.25)
    assert board.matches == 2 and board.deals == 4
    assert board.clusters == 1 and board.cluster_kind == "set"


def test_head_to_head_by_hand() -> None:
    h2h = rate(_tiny()).head_to_head
    ab = h2h.pair("a", "b")
    assert (ab.a_ahead, ab.b_ahead, ab.shared) == (3, 1, 4)
    assert h2h.pair("c", "a").a_ahead == 1
    assert h2h.pair("b", "c").a_rate == 0.75
    assert len(h2h.pairs()) == 3
    with pytest.raises(KeyError, match="zed"):
        h2h.pair("a", "zed")


def test_head_to_head_matches_brute_force_on_mixed_tables() -> None:
    rng = random.Random(4)
    labels = list("abcdef")
    records = []
    for m in range(60):
        seats = rng.sample(labels, rng.choice([2, 3, 4, 5]))
        orders = [rng.sample(range(len(seats)), len(seats)) for _ in range(3)]
        records.append(record(f"m{m}", seats, orders))
    expected = {(x, y): 0 for x in labels for y in labels}
    for r in records:
        names = [s["label"] for s in r["seats"]]
        for deal in r["deals"]:
            for i, j in itertools.combinations(deal["finish_order"], 2):
                expected[names[i], names[j]] += 1
    h2h = rate(records, resamples=0).head_to_head
    for x, y in itertools.permutations(labels, 2):
        assert h2h.pair(x, y).a_ahead == expected[x, y]


def test_one_set_gives_a_point_interval_and_exact_ranks() -> None:
    board = rate(_tiny())
    for line in board.bots:
        assert line.score_low == line.score == line.score_high
        assert line.rank_best == line.rank == line.rank_worst


def test_without_sets_the_match_is_the_resampling_unit() -> None:
    records = [record(f"m{i}", ["a", "b"], [[0, 1], [1, 0], [0, 1]]) for i in range(8)]
    board = rate(records)
    assert board.cluster_kind == "match" and board.clusters == 8


def test_repeated_match_ids_count_once() -> None:
    records = _tiny()
    board = rate([*records, records[0]])
    assert board.duplicates == 1
    assert board.bot("a").deals == 4


def test_file_order_does_not_change_anything() -> None:
    records = list(simulate_records({"a": 0.5, "b": 0.0, "c": -0.5, "d": 0.2}, sets=30, seed=3))
    shuffled = records[:]
    random.Random(1).shuffle(shuffled)
    assert rate(records).to_dict() == rate(shuffled).to_dict()


def test_points_table_sets_the_score_and_equal_points_fall_back_on_places() -> None:
    custom = rate([record("m", ["a", "b", "c"], [[0, 1, 2]], points=[10, 8, 0])])
    assert custom.bot("b").score == pytest.approx(0.8)
    assert custom.bot("b").mean_points == 8.0
    flat = rate([record("m", ["a", "b", "c"], [[0, 1, 2]], points=[0, 0, 0])])
    assert flat.bot("b").score == 0.5 and flat.bot("a").score == 1.0


def test_other_record_types_are_skipped() -> None:
    board = rate([{"type": "tournament", "name": "x"}, *_tiny()])
    assert board.matches == 2


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"type": "match", "seats": []}, "match_id"),
        (record("m9", ["a", "b"], [[0, 0]]), "m9', deal 0: 'finish_order'"),
        ({**record("m8", ["a", "b"], [[0, 1]]), "seats": [{"seat": 0}]}, "m8': every seat"),
        ({**record("m7", ["a", "b"], [[0, 1]]), "deals": [{"points": [1, 0]}]}, "m7': malformed"),
        ([1, 2], "not a JSON object"),
    ],
)
def test_malformed_records_name_the_match(bad: object, message: str) -> None:
    with pytest.raises(RatingsError, match=message.replace("'", ".")):
        rate([*_tiny(), bad])  # type: ignore[list-item]


def test_planted_strengths_come_out_in_order_with_the_right_gaps() -> None:
    strengths = {"s5": 1.0, "s4": 0.6, "s3": 0.2, "s2": -0.2, "s1": -0.6, "s0": -1.0}
    board = rate(simulate_records(strengths, sets=250, players=4, deals=2, seed=11))
    by_score = [line.label for line in board.bots]
    by_mu = sorted(strengths, key=lambda label: -board.bot(label).mu)
    assert by_score == list(strengths)
    assert by_mu == list(strengths)
    # tables are drawn uniformly among the 15 four-bot subsets: the true score averages them
    tables = list(itertools.combinations(strengths, 4))
    truth = dict.fromkeys(strengths, 0.0)
    for table in tables:
        for label, value in expected_scores(strengths, list(table)).items():
            truth[label] += value / (len(tables) * 4 / len(strengths))
    for line in board.bots:
        # the gap to the truth is within two interval half-widths (a ~99.99% event)
        assert abs(line.score - truth[line.label]) < (line.score_high - line.score_low)
    # neighbours 0.4 apart are resolved: every rank range is a single rank
    assert all(line.rank_best == line.rank_worst for line in board.bots)


def test_close_bots_get_overlapping_rank_ranges() -> None:
    strengths = {"a": 0.02, "b": 0.0, "c": -1.5}
    board = rate(simulate_records(strengths, sets=40, players=3, seed=5))
    a, b, c = board.bot("a"), board.bot("b"), board.bot("c")
    assert (a.rank_best, a.rank_worst) == (1, 2) and (b.rank_best, b.rank_worst) == (1, 2)
    assert (c.rank_best, c.rank_worst) == (3, 3)


def test_leaderboard_is_plain_data() -> None:
    data = rate(_tiny()).to_dict()
    assert data["bots"][0]["label"] == "a"
    assert data["head_to_head"]["pairs"][0] == {
        "a": "a", "b": "b", "a_ahead": 3, "b_ahead": 1, "shared": 4, "a_rate": 0.75}


def test_no_records_and_no_deals_give_an_empty_board() -> None:
    assert rate([]).bots == []
    board = rate([record("m", ["a", "b"], [])])
    assert board.bots == [] and board.matches == 1 and board.deals == 0


def test_the_bootstrap_is_reproducible_and_its_seed_matters() -> None:
    records = list(simulate_records({"a": 0.3, "b": 0.0, "c": -0.3}, sets=20, players=3, seed=4))
    first, again, other = rate(records), rate(records), rate(records, seed=7)
    assert first.to_dict() == again.to_dict()
    # quantiles of a discrete bootstrap distribution may tie at one end: compare all bounds
    bounds = [(line.score_low, line.score_high) for line in first.bots]
    assert bounds != [(line.score_low, line.score_high) for line in other.bots]
    assert first.bot("a").score == other.bot("a").score
