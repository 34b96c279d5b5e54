"""Invariants of the leaderboard on arbitrary records (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ratings import rate

from .helpers import record

LABELS = ["a", "b", "c", "d", "e"]


@st.composite
def matches(draw: st.DrawFn) -> list[dict]:
    out = []
    for m in range(draw(st.integers(1, 8))):
        seats = draw(st.lists(st.sampled_from(LABELS), min_size=2, max_size=5, unique=True))
        orders = draw(st.lists(st.permutations(range(len(seats))), min_size=1, max_size=4))
        set_id = draw(st.sampled_from([None, "s1", "s2"]))
        out.append(record(f"m{m}", seats, [list(o) for o in orders], set_id=set_id))
    return out


@settings(max_examples=60, deadline=None)
@given(matches())
def test_counts_add_up_and_stay_in_range(records: list[dict]) -> None:
    board = rate(records, resamples=50)
    seats_played = sum(len(r["seats"]) * len(r["deals"]) for r in records)
    assert sum(line.deals for line in board.bots) == seats_played
    firsts = sum(line.first_rate * line.deals for line in board.bots)
    assert firsts == pytest.approx(sum(len(r["deals"]) for r in records))
    for line in board.bots:
        assert 0.0 <= line.score_low <= line.score <= line.score_high <= 1.0
        assert 1 <= line.rank_best <= line.rank <= line.rank_worst <= len(board.bots)
        assert 1.0 <= line.mean_place <= 5.0
    for pair in board.head_to_head.pairs():
        assert pair.a_ahead + pair.b_ahead == pair.shared
    shared = sum(p.shared for p in board.head_to_head.pairs())
    assert shared == sum(len(r["seats"]) * (len(r["seats"]) - 1) // 2 * len(r["deals"])
                         for r in records)
