"""Referee speed: per-decision overhead of the process host, beside a raw pipe round trip.

Plays the same matches (same bots, same seeds) with the ``inline`` host and
with the ``process`` host, twice: with every protection this machine gives
(``sandbox: true`` where there is a sandbox, each bot's memory cgroup, fair
clocks; a sandboxed process serves one match, so every match starts its four)
and with the sandbox off (``sandbox: false``, processes kept in a pool). A
match is timed from the moment its last bot had started to the moment the
first is closed: start-up and end are not a decision's cost. The overhead of
the process host is its time per decision minus the inline host's.
The baseline, measured in the same run, is the floor of the same work: a
one-line round trip to four echo processes asked in turn, the topology of a
table. Target: an overhead of at most three times the baseline, sandbox on.

On a machine shared with other work, timings swing with its load, so the
measurements are interleaved in rounds (raw, inline, process, raw, ...),
each round's overhead is divided by the baseline of the same round, and
the median round is reported with the load average before and after. Beside
them, the referee's own CPU time a decision (this process's, the bots' not
counted), which the load moves far less than the wall time.

Then, measured in this process without pipes, what a decision's request
costs to build, encode, decode and rebuild in each view encoding
(docs/protocol.md, "Views"): where the time goes.

    python benchmarks/referee.py [--rounds 5] [--matches 6] [--bots random,random,random,random]
                                 [--pinned]
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import trio

from arena.game import Match, Rules, View
from arena.records import deal_moves
from arena.referee import (
    Deadline,
    Host,
    MatchSpec,
    ProcessPool,
    StartInfo,
    make_host,
    play_match,
    sandbox_mechanism,
)
from arena.referee.lowlevel import (
    DeltaDecoder,
    DeltaEncoder,
    FullEncoder,
    decode,
    encode,
    view_from_dict,
)

_ECHO = r"""
import os, sys
r, w = int(sys.argv[1]), int(sys.argv[2])
while True:
    data = os.read(r, 65536)
    if not data:
        break
    os.write(w, data)
"""

_LINE = b'{"type":"move","id":1,"move":"5H 5S"}\n'


def raw_round_trip(n: int, children: int = 1, cpus: tuple[int, int] | None = None) -> float:
    """Seconds per round trip of a one-line message to Python echo processes, asked in turn.

    With one child this is the plain pipe round trip; with one child per seat
    each child sleeps while the others answer, as bots at a table do.
    ``cpus`` pins this process to the first CPU and the children to the
    second (the same one or another) for the measurement.
    """
    if cpus is not None:
        _pinned(cpus[0])
    try:
        return _raw_round_trip(n, children, cpus[1] if cpus is not None else None)
    finally:
        if cpus is not None:
            _pinned(None)


def _raw_round_trip(n: int, children: int, child_cpu: int | None) -> float:
    channels = []
    for _ in range(children):
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        proc = subprocess.Popen(
            [sys.executable, "-c", _ECHO, str(to_child_r), str(from_child_w)],
            pass_fds=(to_child_r, from_child_w),
        )
        os.close(to_child_r)
        os.close(from_child_w)
        if child_cpu is not None:
            os.sched_setaffinity(proc.pid, {child_cpu})
        channels.append((proc, to_child_w, from_child_r))
    try:
        for i in range(200):  # warm up
            _, w, r = channels[i % children]
            os.write(w, _LINE)
            os.read(r, 65536)
        t0 = time.perf_counter()
        for i in range(n):
            _, w, r = channels[i % children]
            os.write(w, _LINE)
            os.read(r, 65536)
        return (time.perf_counter() - t0) / n
    finally:
        for proc, w, r in channels:
            os.close(w)
            proc.wait()
            os.close(r)


def spec(seed: int, bots: Sequence[str], host: str, sandbox: bool = False) -> MatchSpec:
    return MatchSpec.from_dict({
        "match_id": f"bench-{seed}", "seed": seed, "rules": {"rounds": 5},
        "seats": [{"label": f"{b}-{i}", "name": b, "host": host} for i, b in enumerate(bots)],
        "limits": {"move_ms": 5000, "sandbox": sandbox},
    })


def run_matches(
    host: str, bots: Sequence[str], seeds: Sequence[int], pool: ProcessPool | None,
    sandbox: bool = True,
) -> tuple[float, int, list[dict[str, Any]], float]:
    """Seconds and decisions over the matches of ``seeds``, their records, and the referee's
    CPU seconds, from the moment the last bot had started to the moment the first is closed
    (a sandboxed process serves one match: its start and end are not a decision's cost);
    ``sandbox``: the bots run in the sandbox, where this machine has one."""
    sandboxed = sandbox and sandbox_mechanism() is not None
    total, cpu, decisions, records = 0.0, 0.0, 0, []
    for seed in seeds:
        s = spec(seed, bots, host, sandboxed)
        hosts = [make_host(seat, s.limits, pool) for seat in s.seats]
        started: list[tuple[float, float]] = []
        closed: list[tuple[float, float]] = []
        for h in hosts:
            _time_calls(h, started, closed)
        t0, cpu0 = time.perf_counter(), time.process_time()
        record = trio.run(functools.partial(play_match, s, hosts=hosts, pool=pool))
        t1, cpu1 = min(closed, default=(time.perf_counter(), time.process_time()))
        t0, cpu0 = max(started, default=(t0, cpu0))
        total += t1 - t0
        cpu += cpu1 - cpu0
        decisions += record["decisions"]
        records.append(record)
    return total, decisions, records, cpu


def _time_calls(host: Host, started: list[tuple[float, float]],
                closed: list[tuple[float, float]]) -> None:
    """Have ``host`` note the wall and CPU clocks once started, and as it is closed."""
    start, aclose = host.start, host.aclose

    async def timed_start(info: StartInfo, deadline: Deadline) -> None:
        await start(info, deadline)
        started.append((time.perf_counter(), time.process_time()))

    async def timed_close() -> None:
        closed.append((time.perf_counter(), time.process_time()))
        await aclose()

    host.start = timed_start  # type: ignore[method-assign]
    host.aclose = timed_close  # type: ignore[method-assign]


def _moves_only(record: dict[str, Any]) -> list[list[tuple[int, str]]]:
    return [[(m.seat, m.move) for m in deal_moves(d)] for d in record["deals"]]


def sample_views(players: int = 4, decisions: int = 3000, seed: int = 5) -> list[View]:
    """Views of the decisions of seeded random matches (standard rules)."""
    rng = random.Random(seed)
    views: list[View] = []
    rules = Rules.preset("standard")
    while len(views) < decisions:
        match = Match(rules, players, rng.randrange(1 << 32))
        while (pending := match.pending) is not None and len(views) < decisions:
            view = match.view(pending.seat)
            views.append(view)
            if pending.kind == "exchange":
                match.give(view.hand[: pending.count])
            else:
                moves = view.legal_moves()
                match.play(moves[rng.randrange(len(moves))])
    return views


def breakdown(views: list[View]) -> list[tuple[str, float, float]]:
    """(step, full view us, delta view us) per decision, measured in this process."""
    rules = views[0].rules

    def per_view(fn: Callable[[Any], object], items: Sequence[Any]) -> float:
        t0 = time.perf_counter()
        for item in items:
            fn(item)
        return (time.perf_counter() - t0) / len(items) * 1e6

    def encoders(kind: type[FullEncoder] | type[DeltaEncoder]) -> Callable[[View], Any]:
        by_seat: dict[int, FullEncoder | DeltaEncoder] = {}
        return lambda v: by_seat.setdefault(v.seat, kind()).encode(v)

    full_build = per_view(encoders(FullEncoder), views)
    delta_build = per_view(encoders(DeltaEncoder), views)
    full_encode, delta_encode = encoders(FullEncoder), encoders(DeltaEncoder)
    full_fields = [full_encode(v) for v in views]
    delta_fields = [delta_encode(v) for v in views]
    full_lines = [encode({"type": "play", "id": 1, "time_ms": 900, "view": f}) for f in full_fields]
    delta_lines = [encode({"type": "play", "id": 1, "time_ms": 900, "delta": d})
                   for d in delta_fields]
    full_json = per_view(lambda f: encode({"type": "play", "id": 1, "time_ms": 900, "view": f}),
                         full_fields)
    delta_json = per_view(lambda d: encode({"type": "play", "id": 1, "time_ms": 900, "delta": d}),
                          delta_fields)
    full_decode = per_view(lambda line: decode(line[:-1]), full_lines)
    delta_decode = per_view(lambda line: decode(line[:-1]), delta_lines)
    full_messages = [decode(line[:-1])["view"] for line in full_lines]
    delta_messages = [decode(line[:-1])["delta"] for line in delta_lines]
    full_rebuild = per_view(lambda f: view_from_dict(f, rules), full_messages)
    decoders: dict[int, DeltaDecoder] = {}
    delta_rebuild = per_view(
        lambda pair: decoders.setdefault(pair[0], DeltaDecoder(rules, pair[0])).view(pair[1]),
        [(v.seat, d) for v, d in zip(views, delta_messages, strict=True)],
    )
    return [
        ("referee: build the view field", full_build, delta_build),
        ("referee: encode the request line", full_json, delta_json),
        ("bot process: decode the line", full_decode, delta_decode),
        ("bot process: rebuild the View", full_rebuild, delta_rebuild),
        ("request line, bytes (mean)", statistics.mean(map(len, full_lines)),
         statistics.mean(map(len, delta_lines))),
    ]


def _pinned(cpu: int | None) -> None:
    """Run this process (and the processes it starts from now on) on ``cpu``, or anywhere."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu} if cpu is not None else _ALL_CPUS)


_ALL_CPUS = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--matches", type=int, default=6, help="matches per host per round")
    parser.add_argument("--bots", default="random,random,random,random")
    parser.add_argument("--round-trips", type=int, default=5000, help="raw round trips per round")
    parser.add_argument("--pinned", action="store_true",
                        help="also measure with the referee and its bots pinned to one CPU")
    args = parser.parse_args()
    bots = args.bots.split(",")
    print(f"bots: {', '.join(bots)}; {args.rounds} rounds of {args.matches} matches of 5 deals "
          f"per host; {os.cpu_count()} cores; load average {_load()}")

    pin = max(_ALL_CPUS) if args.pinned and len(_ALL_CPUS) > 1 else None
    pool = ProcessPool()
    pinned_pool = ProcessPool()
    bare_pool = ProcessPool()
    rows = []
    try:
        run_matches("process", bots, [0], pool)  # start the processes once
        run_matches("process", bots, [0], bare_pool, sandbox=False)
        if pin is not None:
            _pinned(pin)
            run_matches("process", bots, [0], pinned_pool)  # bots started on one CPU stay there
            _pinned(None)
        for r in range(args.rounds):
            seeds = range(1 + r * args.matches, 1 + (r + 1) * args.matches)
            raw = raw_round_trip(args.round_trips)
            raw_table = raw_round_trip(args.round_trips, children=len(bots))
            inline_s, inline_n, inline_records, inline_cpu = run_matches(
                "inline", bots, seeds, None)
            process_s, process_n, process_records, process_cpu = run_matches(
                "process", bots, seeds, pool)
            bare_s, bare_n, _, bare_cpu = run_matches(
                "process", bots, seeds, bare_pool, sandbox=False)
            if inline_n != process_n or list(map(_moves_only, inline_records)) != list(
                map(_moves_only, process_records)
            ):
                sys.exit("the hosts played different matches: the benchmark compares nothing")
            think = [m.ms for rec in process_records for d in rec["deals"] for m in deal_moves(d)]
            one_cpu = raw_same = float("nan")
            if pin is not None:
                raw_same = raw_round_trip(args.round_trips, children=len(bots), cpus=(pin, pin))
                _pinned(pin)
                try:
                    one_cpu_s, one_cpu_n, _, _ = run_matches("process", bots, seeds,
                                                             pinned_pool)
                finally:
                    _pinned(None)
                one_cpu = one_cpu_s / one_cpu_n
            rows.append(_Round(raw, raw_table, inline_s / inline_n, process_s / process_n,
                               statistics.median(think) / 1e3, inline_n, raw_same, one_cpu,
                               bare_s / bare_n, inline_cpu / inline_n, process_cpu / process_n,
                               bare_cpu / bare_n))
    finally:
        pool.close()
        pinned_pool.close()
        bare_pool.close()

    print()
    sandbox = sandbox_mechanism() or "none on this machine"
    print(f"per decision, in microseconds (think: the process host's median request-to-answer "
          f"time; overhead: process minus inline; ratio: overhead / table; sandbox: {sandbox}; "
          f"off: the process host unsandboxed, and its ratio):")
    print(f"{'round':>5} {'raw rt':>6} {'table':>6} | {'inline':>6} {'process':>7} "
          f"{'overhead':>8} {'ratio':>6} {'think':>5} {'off':>6} {'ratio':>6}"
          + (f" | {'table':>6} {'process':>7} {'overhead':>8} {'ratio':>6}" if pin else ""))
    for i, row in enumerate(rows, 1):
        line = (f"{i:>5} {row.raw * 1e6:>6.1f} {row.table * 1e6:>6.1f} | "
                f"{row.inline * 1e6:>6.1f} {row.process * 1e6:>7.1f} "
                f"{(row.process - row.inline) * 1e6:>8.1f} "
                f"{row.ratio(row.process):>5.1f}x {row.think * 1e6:>5.0f} {row.bare * 1e6:>6.1f} "
                f"{row.ratio(row.bare):>5.1f}x")
        if pin is not None:
            line += (f" | {row.table_one_cpu * 1e6:>6.1f} {row.one_cpu * 1e6:>7.1f} "
                     f"{(row.one_cpu - row.inline) * 1e6:>8.1f} "
                     f"{row.ratio(row.one_cpu, row.table_one_cpu):>5.1f}x")
        print(line)
    print()
    print(f"raw rt: a one-line round trip between two Python processes over a pipe; table: "
          f"the same to {len(bots)} echo processes in turn (each sleeps while the others "
          f"answer, as bots at a table do), the baseline."
          + (f" Right of the bar: the referee and its bots pinned to CPU {pin}." if pin else ""))

    median = statistics.median
    table = median([row.table for row in rows])
    overhead = median([row.process - row.inline for row in rows])
    ratio = median([row.ratio(row.process) for row in rows])
    print(f"baseline (raw round trip to {len(bots)} echo processes in turn), median of "
          f"{len(rows)} rounds: {table * 1e6:.1f} us")
    print(f"process host overhead per decision (process minus inline), median: "
          f"{overhead * 1e6:.1f} us ({rows[0].decisions} decisions a round)")
    print(f"ratio (each round's overhead / its baseline), median: {ratio:.1f}x (target <= 3x) "
          f"with the sandbox ({sandbox}), {median([row.ratio(row.bare) for row in rows]):.1f}x "
          f"without it ({median([row.bare - row.inline for row in rows]) * 1e6:.1f} us overhead)")
    if pin is not None:
        pinned = median([r.ratio(r.one_cpu, r.table_one_cpu) for r in rows])
        print(f"pinned to one CPU, median ratio: {pinned:.1f}x")
    print(f"the referee's own CPU time a decision (this process, its bots' processes not "
          f"counted), median: inline {median([r.inline_cpu for r in rows]) * 1e6:.1f} us, "
          f"process {median([r.process_cpu for r in rows]) * 1e6:.1f} us with the sandbox, "
          f"{median([r.bare_cpu for r in rows]) * 1e6:.1f} us without it")
    print(f"load average after: {_load()}")

    print()
    print("where a decision's request goes, per decision (this process, no pipes):")
    print(f"{'step':<36} {'full view':>10} {'delta':>10}")
    for label, full, delta in breakdown(sample_views()):
        print(f"{label:<36} {full:>10.1f} {delta:>10.1f}")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@dataclasses.dataclass(frozen=True)
class _Round:
    """One round's figures, in seconds per decision or per round trip."""

    raw: float
    table: float
    inline: float
    process: float
    think: float
    decisions: int
    table_one_cpu: float
    one_cpu: float
    bare: float  # the process host with the sandbox off
    inline_cpu: float  # the referee's CPU time a decision: inline, process, sandbox off
    process_cpu: float
    bare_cpu: float

    def ratio(self, process: float, table: float | None = None) -> float:
        """The overhead of ``process`` (seconds a decision) over inline, divided by ``table``
        (the round's baseline by default)."""
        return (process - self.inline) / (table or self.table)


if __name__ == "__main__":
    main()
