"""Limits and the chess clock."""

from __future__ import annotations

import pytest

from arena.referee import Limits
from arena.referee.lowlevel import Clock


def test_defaults_are_the_documented_ones() -> None:
    limits = Limits.from_dict(None)
    assert (limits.move_ms, limits.bank_ms, limits.start_ms, limits.memory_mb) == (
        1000, None, 5000, 1024
    )
    assert Limits.from_dict({"move_ms": 50, "bank_ms": None, "memory_mb": None}).memory_mb is None


@pytest.mark.parametrize(
    "data, match",
    [({"move_ms": 0}, "move_ms"), ({"move_ms": "fast"}, "move_ms"), ({"bank_ms": -1}, "bank_ms"),
     ({"memory_mb": True}, "memory_mb"), ({"time": 3}, "unknown limit 'time'")],
)
def test_bad_limits_are_refused_by_name(data: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Limits.from_dict(data)


def test_the_clock_spends_the_bank_only_beyond_move_ms() -> None:
    clock = Clock(Limits(move_ms=100, bank_ms=300, grace_ms=50), players=2)
    assert clock.budget(0) == pytest.approx(0.4) and clock.allowed(0) == pytest.approx(0.45)
    assert clock.charge(0, 0.09) and clock.bank(0) == pytest.approx(0.3)
    assert clock.charge(0, 0.25) and clock.bank(0) == pytest.approx(0.15)
    assert clock.bank(1) == pytest.approx(0.3)  # seats have their own banks
    assert clock.charge(0, 0.28) and clock.bank(0) == 0.0  # within grace: accepted, bank empty
    assert not clock.charge(0, 0.16)  # 100 ms + 0 bank + 50 grace
