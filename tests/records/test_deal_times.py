"""``deal_times``, the seats and think times of a deal's moves, is ``deal_moves`` without an
object a move: the same values, the same errors, in both schemas."""

from __future__ import annotations

from typing import Any

import pytest

from arena.records import deal_moves, deal_times

DEALS: list[dict[str, Any]] = [
    {"movers": [0, 1, 2], "moves": ["3C", "pass", "4D 4H"], "think_us": [1500, 2, 7.5]},
    {"movers": [0, 1], "moves": ["3C", "pass"]},  # no times
    {"movers": [], "moves": [], "think_us": []},
    {"movers": [1, 0], "moves": ["3C", "pass"], "think_us": ["x", 10**400]},  # no time
    {"moves": [{"seat": 2, "move": "5S", "ms": 3}, {"seat": 3, "move": "pass"}]},  # schema 1
    {"movers": [0, 1], "moves": ["3C"]},
    {"movers": [0, 1], "moves": ["3C", "pass"], "think_us": [1]},
    {"movers": [0, "1"], "moves": ["3C", "pass"], "think_us": [1, 2]},
    {"movers": [0, 1], "moves": ["3C", 4]},
    {"movers": [0, True], "moves": ["3C", "pass"]},
    {"movers": "01", "moves": ["3C", "pass"]},
    {"moves": [{"seat": 2, "move": "5S"}, "pass"]},
    {"moves": [{"seat": "2", "move": "5S"}]},
]


@pytest.mark.parametrize("deal", DEALS)
def test_deal_times_are_deal_moves_seats_and_times(deal: dict[str, Any]) -> None:
    try:
        moves = deal_moves(deal)
    except ValueError as exc:
        with pytest.raises(ValueError) as raised:
            deal_times(deal)
        assert str(raised.value) == str(exc)
        return
    seats, times = deal_times(deal)
    assert list(seats) == [move.seat for move in moves]
    assert list(times) == [move.ms for move in moves]


def test_the_times_are_milliseconds_and_none_for_what_is_no_time() -> None:
    assert deal_times(DEALS[0]) == ([0, 1, 2], [1.5, 0.002, 0.0075])
    assert deal_times(DEALS[3])[1] == [None, None]
    assert deal_moves(DEALS[0])[2] == (2, "4D 4H", 0.0075)
