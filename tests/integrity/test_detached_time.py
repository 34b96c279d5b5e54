"""A bot's time is all its time: every process of its sandbox counts."""

from __future__ import annotations

import os

import pytest
import trio

from arena.records import deal_moves
from arena.referee import make_host, play_match
from arena.referee._spec import MatchSpec

from .test_hostile import MECHANISM, NO_SANDBOX

pytestmark = pytest.mark.skipif(MECHANISM is None, reason=NO_SANDBOX)


@pytest.mark.skipif(not os.path.exists("/proc/thread-self/schedstat"),
                    reason="fair clocks need Linux scheduler accounting in /proc")
def test_detached_workers_that_spend_the_bots_time_make_it_time_out() -> None:
    """Workers that leave the bot's session and exit before the answer still count: under
    the sandbox they are in its pid namespace; and the wait for the CPU they held is the
    bot's own, not forgiven."""
    seats = [{"label": "burner", "name": "tests.integrity.sandbox_bots:DetachedBurner",
              "params": {"cpu_ms": 300}, "host": "process"},
             {"label": "q", "name": "greedy"}, {"label": "r", "name": "lowest"}]
    spec = MatchSpec.from_dict({
        "match_id": "burn", "seed": 7, "rules": {"rounds": 1, "on_fault": "forfeit"},
        "seats": seats,
        "limits": {"move_ms": 100, "grace_ms": 50, "lag_ms": 60000, "start_ms": 20000,
                   "sandbox": True}})
    hosts = [make_host(seat, spec.limits) for seat in spec.seats]
    record = trio.run(lambda: play_match(spec, hosts=hosts))
    [deal] = record["deals"]
    # its very first decision is late: no move of its own was accepted before the fault
    assert [f["kind"] for f in deal["faults"] if f["seat"] == 0] == ["timeout"], deal["faults"]
    assert [m for m in deal_moves(deal) if m.seat == 0] == [], deal["faults"]
