"""The spectators' frames wait on one clock of the run (arena.web._frame_clock)."""

from __future__ import annotations

import trio
import trio.testing

from arena.web._frame_clock import GRAIN, sleep_until


def _woken(deadlines: list[float], late: float | None = None) -> list[tuple[float, float]]:
    """(deadline, time woken) of sleepers on the clock, started at once; with ``late``, one
    more that starts at time 0.01 for that deadline (while the clock sleeps for the others)."""
    woken: list[tuple[float, float]] = []

    async def sleeper(deadline: float, start: float = 0.0) -> None:
        await trio.sleep_until(start)
        await sleep_until(deadline)
        woken.append((deadline, trio.current_time()))

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for deadline in deadlines:
                nursery.start_soon(sleeper, deadline)
            if late is not None:
                nursery.start_soon(sleeper, late, 0.01)

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    return woken


def test_sleepers_wake_within_a_grain_of_their_deadline_together() -> None:
    deadlines = [0.801 + i * 0.001 for i in range(40)] + [1.7, 0.0]
    woken = _woken(deadlines)
    assert sorted(d for d, _ in woken) == sorted(deadlines)
    for deadline, at in woken:
        assert deadline <= at + 1e-9 and at < deadline + GRAIN + 1e-9, (deadline, at)
    # the 40 deadlines of one grain wake at one time (one event), not 40
    assert len({at for d, at in woken if 0.8 < d < 0.85}) == 1


def test_an_earlier_deadline_wakes_the_clock_sooner() -> None:
    woken = dict(_woken([5.0], late=0.3))
    assert 0.3 <= woken[0.3] < 0.3 + GRAIN + 1e-9
    assert 5.0 <= woken[5.0] < 5.0 + GRAIN + 1e-9
