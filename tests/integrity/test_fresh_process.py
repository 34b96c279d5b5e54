"""A pooled process carries nothing across matches: under the sandbox every match gets a
fresh one, and a process that faulted (an ``error`` answer included) is never reused."""

from __future__ import annotations

import pytest
import trio

from arena.referee import Limits, ProcessPool, make_host, play_match

from .test_containment import _spec
from .test_hostile import MECHANISM, NO_SANDBOX

needs_sandbox = pytest.mark.skipif(MECHANISM is None, reason=NO_SANDBOX)


def _pids_over_matches(sandbox: bool, bot: str = "random") -> list[list[int]]:
    pool = ProcessPool()
    try:
        served = []
        for i in range(2):
            spec = _spec(f"m{i}", sandbox, bot)
            hosts = [make_host(seat, spec.limits, pool) for seat in spec.seats]
            record = trio.run(lambda: play_match(spec, hosts=hosts))  # noqa: B023
            assert record["deals"]
            served.append(hosts[0].pids())
        return served
    finally:
        pool.close()


@needs_sandbox
def test_a_sandboxed_process_bot_gets_a_fresh_process_for_every_match() -> None:
    first, second = _pids_over_matches(sandbox=True)
    assert first and second and not set(first) & set(second)
    plain = _pids_over_matches(sandbox=False)  # the pool's point, where it may keep them
    assert plain[0] == plain[1]


def test_a_process_that_answered_an_error_is_not_reused() -> None:
    limits = Limits(move_ms=5000, start_ms=20000)
    pool = ProcessPool()
    try:
        spec = _spec("err", False, "tests.integrity.sandbox_bots:FailsOnce")
        hosts = [make_host(seat, limits, pool) for seat in spec.seats]
        record = trio.run(lambda: play_match(spec, hosts=hosts))
        faults = [f for deal in record["deals"] for f in deal["faults"] if f["seat"] == 0]
        assert faults and faults[0]["kind"] == "crash"
        assert pool.pids() == [], "a faulted process went back to the pool"
    finally:
        pool.close()
