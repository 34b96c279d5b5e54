"""Fair clocks: a bot is charged its own time, not the machine's, and never gets unbounded time.

The loaded machine is made, not hoped for: a bot that ``starve``s moves
itself to CPU 0 at the lowest priority beside a process that spins there,
so its process waits for the CPU most of the time it thinks. The tests
then assert on what the clock decided (faults in the record), never on
how long anything took, except for generous upper bounds on a hung bot.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.game import Match, Rules
from arena.records import deal_moves
from arena.referee import (
    NO_DEADLINE,
    Deadline,
    Limits,
    MatchSpec,
    ProcessHost,
    Seat,
    StartInfo,
    make_host,
    play_match,
    sandbox_mechanism,
)
from arena.referee.lowlevel import Clock
from arena.referee.sandbox._cputime import Meter
from arena.referee.sandbox._proctimes import (
    TaskTimes,
    _bot_task_scanned,
    bot_task,
    process_clock,
    process_cpu,
    task_times,
)

sys.path.insert(0, str(Path(__file__).parent))  # child processes find the bots there too
from arena_hostile_bots import Sleeper, Spinner, ref
from clock_bots import CpuThinker, SlowSleeper, WorkerForker

from tests.recordtools import record_faults

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/thread-self/schedstat"),
                                reason="needs Linux scheduler accounting in /proc")

TIGHT = {"move_ms": 100, "grace_ms": 50, "start_ms": 20000, "memory_mb": 512}


@pytest.fixture
def hog() -> Iterator[None]:
    """A process that spins on CPU 0 for as long as the test runs."""
    code = ("import os\nos.sched_setaffinity(0, {0})\nprint('spinning', flush=True)\n"
            "while True: pass")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "spinning\n"
        yield
    finally:
        proc.kill()
        proc.wait()


def play(bot: type, params: dict[str, Any], limits: dict[str, Any],
         rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """One match of ``bot`` (seat 1, a process) against three ``random`` process bots."""
    seats: list[dict[str, Any]] = [
        {"label": f"random-{i}", "name": "random", "host": "process"} for i in range(3)
    ]
    seats.insert(1, {"label": "bot", "name": ref(bot), "params": params, "host": "process"})
    spec = MatchSpec.from_dict({"match_id": "fair-clock", "seed": 7,
                                "rules": rules or {"rounds": 1}, "seats": seats,
                                "limits": {**limits, "sandbox": False}})
    hosts = [make_host(seat, spec.limits) for seat in spec.seats]
    return trio.run(lambda: play_match(spec, hosts=hosts))


def fault_kinds(record: dict[str, Any], seat: int = 1) -> list[str]:
    return [f["kind"] for f in record_faults(record, seat)]


def slowest_move_ms(record: dict[str, Any], seat: int = 1) -> float:
    return max(m.ms or 0.0 for deal in record["deals"] for m in deal_moves(deal) if m.seat == seat)


# -- the readers --------------------------------------------------------------------------


def test_process_cpu_counts_a_processs_cpu_time_and_not_its_sleep() -> None:
    code = ("import sys, time\nuntil = time.process_time() + 0.3\n"
            "while time.process_time() < until: pass\nprint('spun', flush=True)\n"
            "time.sleep(0.5)\nprint('slept', flush=True)\ntime.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "spun\n"
        spun = process_cpu(proc.pid)
        assert proc.stdout.readline() == "slept\n"
        slept = process_cpu(proc.pid)
    finally:
        proc.kill()
        proc.wait()
    assert spun is not None and slept is not None
    assert spun >= 0.29  # 0.3 s of CPU, rounded down to whole clock ticks
    assert slept - spun < 0.1  # half a second asleep costs (almost) no CPU
    assert process_cpu(proc.pid) is None  # gone: nothing to read


def test_task_times_count_what_this_thread_ran() -> None:
    before = task_times("/proc/thread-self/schedstat")
    until = time.thread_time() + 0.05
    while time.thread_time() < until:
        pass
    after = task_times("/proc/thread-self/schedstat")
    assert before is not None and after is not None
    assert after.ran - before.ran >= 0.049
    assert after.waited >= before.waited >= 0


def test_the_bot_task_is_the_leader_or_the_bot_under_its_sandbox_launcher() -> None:
    kinds = [False] + ([True] if sandbox_mechanism() is not None else [])
    for sandbox in kinds:
        host = ProcessHost("random", limits=Limits(sandbox=sandbox))
        info = StartInfo(0, 4, Rules(), "m", ["a", "b", "c", "d"], 1)
        trio.run(host.start, info, NO_DEADLINE)
        try:
            assert host.process is not None
            leader = host.process.pid
            task = bot_task(leader)
            with open(f"/proc/{task}/cmdline", "rb") as f:
                cmdline = f.read()
            assert b"arena.referee.child" in cmdline, (sandbox, cmdline)
            assert (task != leader) is sandbox
            assert task == _bot_task_scanned(leader)  # the kernel's lists of children or a scan
        finally:
            trio.run(host.aclose)


def test_a_meter_is_started_only_for_a_live_process_and_only_with_fair_clocks() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                            start_new_session=True)
    try:
        assert isinstance(Clock(Limits(), 1).meter([proc.pid]), Meter)
        assert Clock(Limits(lag_ms=0), 1).meter([proc.pid]) is None
        assert Clock(Limits(), 1).meter([]) is None
    finally:
        proc.kill()
        proc.wait()
    assert Meter.start(proc.pid) is None  # gone: its files, kept open, no longer read


def test_the_referees_own_wait_for_a_cpu_is_taken_off_the_bots_time() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                            start_new_session=True)
    try:
        time.sleep(0.2)  # the child has started and sleeps: it runs no more and waits for nothing
        cpu0, bot0 = process_clock(proc.pid), task_times(f"/proc/{proc.pid}/schedstat")
        mine = task_times("/proc/thread-self/schedstat")
        assert cpu0 is not None and bot0 is not None and mine is not None
        # As if the referee's thread had waited 200 ms for a CPU since the decision started.
        waited = TaskTimes(mine.ran, mine.waited - 0.2)
        meter = Meter(proc.pid, proc.pid, cpu0, bot0, waited)
        own = meter.own_time(0.3)
        assert meter.lag >= 0.2 - 1e-6 and meter.cpu < 0.05  # nanoseconds in floating point
        assert own == pytest.approx(0.1, abs=0.05)
        unmeasured = Meter(proc.pid, proc.pid, cpu0, bot0, None)
        assert unmeasured.own_time(0.3) == pytest.approx(0.3, abs=0.05)
    finally:
        proc.kill()
        proc.wait()


def test_time_before_a_late_started_meter_counts_as_the_bots_cpu_time() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                            start_new_session=True)
    try:
        time.sleep(0.2)  # asleep: it spends no CPU time during the decision
        on_time, late = Meter.start(proc.pid), Meter.start(proc.pid, head=0.25)
        assert on_time is not None and late is not None
        on_time.own_time(0.3)
        late.own_time(0.3)
        assert on_time.cpu < 0.05
        assert late.cpu == pytest.approx(on_time.cpu + 0.25, abs=0.01)
    finally:
        proc.kill()
        proc.wait()


def test_a_process_host_starts_its_meter_when_it_waits_for_the_answer() -> None:
    """A bot that is not there at once (it sleeps 50 ms) gets a meter, started once the
    referee waited for it, with the time since its request out as its ``head``; with fair
    clocks off, none."""
    async def decide(lag_ms: int) -> tuple[object, Meter | None]:
        limits = Limits(lag_ms=lag_ms, start_ms=20000)
        host = make_host(Seat("p", name=ref(SlowSleeper), params={"sleep_ms": 50},
                              host="process"), limits)
        assert host.meter is None
        match = Match(Rules(rounds=1), 2, 3)
        try:
            await host.start(StartInfo(0, 2, match.rules, "meter", ["p", "q"], 3,
                                       limits.to_dict()), Deadline.after(trio.current_time(), 20))
            answer = await host.play(match.view(match.deal.to_move or 0), 1000,
                                     Deadline.after(trio.current_time(), 2))
            meter = host.meter
            if meter is not None:
                meter.own_time(1.0)  # read again: the sleep spent (almost) no CPU time
            return answer, meter
        finally:
            await host.aclose()

    answer, meter = trio.run(decide, 500)
    assert isinstance(answer, str) and isinstance(meter, Meter)
    assert meter.cpu < 0.04  # the head (a write, no wait) and the bot's few ms of CPU
    assert trio.run(decide, 0)[1] is None  # fair clocks off: no meter


# -- the clock ----------------------------------------------------------------------------


class FakeMeter(Meter):
    """A meter that reports a fixed own time, and counts how often it was asked."""

    def __init__(self, own: float) -> None:
        self.own = own
        self.asked = 0

    def own_time(self, elapsed: float) -> float:
        self.asked += 1
        return min(elapsed, self.own)


def test_the_clock_charges_its_own_time_up_to_the_ceiling_and_the_wall_time_past_it() -> None:
    clock = Clock(Limits(move_ms=100, grace_ms=50, lag_ms=300, bank_ms=200), players=2)
    assert clock.allowed(0) == pytest.approx(0.35) and clock.ceiling(0) == pytest.approx(0.65)
    assert clock.charge(0, 0.6, FakeMeter(0.15))  # late by the wall clock, 150 ms its own
    assert clock.charged[0] == pytest.approx(0.15) and clock.bank(0) == pytest.approx(0.15)
    assert not clock.charge(0, 0.6, FakeMeter(0.4))  # its own time is over the deadline
    assert clock.bank(0) == 0
    meter = FakeMeter(0.0)
    assert not clock.charge(1, 0.66, meter)  # past the ceiling: the wall time decides
    assert meter.asked == 0
    quick = FakeMeter(0.0)
    assert clock.charge(1, 0.12, quick) and quick.asked == 0  # in time: /proc is not read


def test_lag_ms_zero_turns_fair_clocks_off() -> None:
    clock = Clock(Limits(move_ms=100, grace_ms=50, lag_ms=0), players=1)
    assert clock.ceiling(0) == clock.allowed(0)
    assert not clock.charge(0, 0.16, FakeMeter(0.0))


def test_lag_ms_must_be_a_number_at_least_zero() -> None:
    assert Limits.from_dict({"lag_ms": 0}).lag_ms == 0
    for bad in (-1, "x", True):
        with pytest.raises(ValueError, match="lag_ms"):
            Limits.from_dict({"lag_ms": bad})


# -- the referee with real processes ------------------------------------------------------


@pytest.mark.usefixtures("hog")
def test_a_bot_that_thinks_in_time_but_waits_for_the_cpu_is_not_timed_out() -> None:
    params = {"cpu_ms": 5, "moves": 2, "starve": True}
    rules = {"rounds": 1, "on_fault": "forfeit"}
    fair = play(CpuThinker, params, {**TIGHT, "lag_ms": 60000}, rules)
    assert slowest_move_ms(fair) > 150, "the bot was not starved: the test proves nothing"
    assert fault_kinds(fair) == []
    unfair = play(CpuThinker, params, {**TIGHT, "lag_ms": 0}, rules)
    assert "timeout" in fault_kinds(unfair)


def test_a_bot_that_sleeps_past_its_deadline_times_out_with_fair_clocks() -> None:
    record = play(SlowSleeper, {"sleep_ms": 400}, {**TIGHT, "lag_ms": 60000},
                  {"rounds": 1, "on_fault": "forfeit"})
    assert fault_kinds(record) == ["timeout"]


def test_a_bot_whose_workers_spend_its_time_times_out_with_fair_clocks() -> None:
    record = play(WorkerForker, {"cpu_ms": 100}, {**TIGHT, "lag_ms": 60000},
                  {"rounds": 1, "on_fault": "forfeit"})
    assert fault_kinds(record) == ["timeout"]


@pytest.mark.parametrize("bot", [Sleeper, Spinner])
def test_a_bot_that_hangs_is_stopped_at_the_ceiling(bot: type) -> None:
    limits = {**TIGHT, "lag_ms": 1000}  # ceiling: 100 + 50 + 1000 ms
    record = play(bot, {}, limits, {"rounds": 1, "on_fault": "forfeit"})
    assert fault_kinds(record) == ["timeout"]
    assert record["wall_s"] < 30  # it would hang 60 s (Sleeper) or for ever
