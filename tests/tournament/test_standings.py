"""Standings: score is the share of table-mates beaten; documented tie-breaks in order."""

from __future__ import annotations

from typing import Any

import pytest

from arena.tournament import Standings


def _record(
    labels: list[str], ranking: list[int], scores: list[int] | None = None
) -> dict[str, Any]:
    return {
        "seats": [{"seat": s, "label": label} for s, label in enumerate(labels)],
        "ranking": ranking,
        "scores": scores if scores is not None else [0] * len(labels),
    }


def test_score_is_the_share_of_table_mates_beaten() -> None:
    standings = Standings(["a", "b", "c", "d"])
    standings.add(_record(["a", "b", "c", "d"], [2, 0, 3, 1]))  # c, a, d, b
    rows = {row.label: row for row in standings.rows()}
    assert rows["c"].score == pytest.approx(1.0)
    assert rows["a"].score == pytest.approx(2 / 3)
    assert rows["d"].score == pytest.approx(1 / 3)
    assert rows["b"].score == 0.0
    assert rows["c"].wins == 1 and rows["a"].wins == 0


def test_tables_of_different_sizes_count_alike() -> None:
    standings = Standings(["a", "b", "c", "x", "y"])
    standings.add(_record(["a", "b", "c"], [0, 1, 2]))
    standings.add(_record(["x", "y"], [0, 1]))
    rows = {row.label: row for row in standings.rows()}
    assert rows["a"].mean_score == rows["x"].mean_score == 1.0
    assert rows["b"].mean_score == pytest.approx(0.5)


def test_order_is_mean_score_then_win_rate_then_points_then_label() -> None:
    standings = Standings(["p", "q", "r", "s", "t", "u"])
    # p and q: same mean score (0.5) over two 3-seat matches; p won one, q none.
    standings.add(_record(["p", "x1", "x2"], [0, 1, 2]))
    standings.add(_record(["p", "x1", "x2"], [1, 2, 0]))
    standings.add(_record(["q", "x1", "x2"], [1, 0, 2]))
    standings.add(_record(["q", "x1", "x2"], [1, 0, 2]))
    # r and s: same score and no wins; r has more game points.
    standings.add(_record(["r", "z"], [1, 0], scores=[0, 1]))
    standings.add(_record(["s", "z"], [1, 0], scores=[0, 1]))
    standings.add(_record(["r", "z"], [1, 0], scores=[5, 1]))
    standings.add(_record(["s", "z"], [1, 0], scores=[2, 1]))
    # t and u: identical in everything: by label.
    standings.add(_record(["u", "t"], [0, 1]))
    standings.add(_record(["t", "u"], [0, 1]))
    order = [label for label in standings.order() if label in "pqrstu"]
    # p, t, u: mean 0.5 and half their matches won, no points: by label. q: mean 0.5, no win.
    # r, s: mean 0, no win; r has more points per match.
    assert order == ["p", "t", "u", "q", "r", "s"]


def test_byes_are_not_matches() -> None:
    standings = Standings(["a", "b"])
    standings.add(_record(["a", "b"], [0, 1]))
    standings.add_bye("b")
    rows = {row["label"]: row for row in standings.to_list()}
    assert rows["b"]["matches"] == 1 and rows["b"]["byes"] == 1 and rows["b"]["score"] == 0


def test_time_losses_are_counted_apart_from_other_faults() -> None:
    record = _record(["a", "b"], [0, 1])
    record["deals"] = [{"faults": [{"seat": 1, "kind": "timeout"}, {"seat": 1, "kind": "crash"},
                                   {"seat": 0, "kind": "illegal"}]},
                       {"faults": [{"seat": 1, "kind": "timeout"}]}]
    standings = Standings(["a", "b"])
    standings.add(record)
    rows = {row["label"]: row for row in standings.to_list()}
    assert (rows["b"]["faults"], rows["b"]["timeouts"]) == (3, 2)
    assert (rows["a"]["faults"], rows["a"]["timeouts"]) == (1, 0)


@pytest.mark.parametrize(("faulted", "matches", "flagged"), [
    (2, 3, True), (3, 3, True), (2, 4, False), (3, 5, True), (2, 2, False), (1, 1, False),
    (0, 6, False)])
def test_a_bot_that_faults_in_most_of_at_least_three_matches_is_flagged(
        faulted: int, matches: int, flagged: bool) -> None:
    standings = Standings(["a", "b"])
    for number in range(matches):
        record = _record(["a", "b"], [0, 1])
        faults = [{"seat": 1, "kind": "crash"}, {"seat": 1, "kind": "illegal"}]  # one match
        record["deals"] = [{"faults": faults if number < faulted else []}, {"faults": []}]
        standings.add(record)
    rows = {row["label"]: row for row in standings.to_list()}
    assert rows["b"]["faulted_matches"] == faulted and rows["b"]["faults"] == 2 * faulted
    assert rows["b"]["flagged"] is flagged
    assert (rows["a"]["faulted_matches"], rows["a"]["flagged"]) == (0, False)
