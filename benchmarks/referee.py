"""Referee speed: per-decision overhead of the process host, beside a raw pipe round trip.

Plays the same matches (same bots, same seeds) with the ``inline`` host and
with the ``process`` host (processes kept in a pool, so start-up is paid
once per match, not per process), and measures in the same run a raw round
trip between two Python processes over a pipe. The overhead of the process
host is its time per decision minus the inline host's. Target: at most
twice the raw round trip.

On a machine shared with other work, timings swing with its load, so the
measurements are interleaved in rounds (raw, inline, process, raw, ...) and
each round's overhead is compared with the raw round trip of the same
round; the best and the median round are reported with the load average.

Then, measured in this process without pipes, what a decision's request
costs to build, encode, decode and rebuild in each view encoding
(docs/protocol.md, "Views"): where the time goes.

    python benchmarks/referee.py [--rounds 5] [--matches 6] [--bots random,random,random,random]
"""

from __future__ import annotations

import argparse
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
from arena.referee import MatchSpec, ProcessPool, decode, encode, make_host, play_match
from arena.referee._wire import (  # timed here: the view encodings are internal
    DeltaDecoder,
    DeltaEncoder,
    FullEncoder,
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


def spec(seed: int, bots: Sequence[str], host: str) -> MatchSpec:
    return MatchSpec.from_dict({
        "match_id": f"bench-{seed}", "seed": seed, "rules": {"rounds": 5},
        "seats": [{"label": f"{b}-{i}", "name": b, "host": host} for i, b in enumerate(bots)],
        "limits": {"move_ms": 5000},
    })


def run_matches(
    host: str, bots: Sequence[str], seeds: Sequence[int], pool: ProcessPool | None
) -> tuple[float, int, list[dict[str, Any]]]:
    """Total seconds and decisions over the matches of ``seeds``, and their records."""
    total = 0.0
    decisions = 0
    records = []
    for seed in seeds:
        s = spec(seed, bots, host)
        hosts = [make_host(seat, s.limits, pool) for seat in s.seats]
        t0 = time.perf_counter()
        record = trio.run(functools.partial(play_match, s, hosts=hosts, pool=pool))
        total += time.perf_counter() - t0
        decisions += record["decisions"]
        records.append(record)
    return total, decisions, records


def _moves_only(record: dict[str, Any]) -> list[list[tuple[int, str]]]:
    return [[(m["seat"], m["move"]) for m in d["moves"]] for d in record["deals"]]


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
    args = parser.parse_args()
    bots = args.bots.split(",")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"bots: {', '.join(bots)}; {args.rounds} rounds of {args.matches} matches of 5 deals "
          f"per host; {os.cpu_count()} cores; load average {load}")

    pin = max(_ALL_CPUS) if len(_ALL_CPUS) > 1 else None
    pool = ProcessPool()
    pinned_pool = ProcessPool()
    rows = []
    try:
        run_matches("process", bots, [0], pool)  # start the processes once
        if pin is not None:
            _pinned(pin)
            run_matches("process", bots, [0], pinned_pool)  # bots started on one CPU stay there
            _pinned(None)
        for r in range(args.rounds):
            seeds = range(1 + r * args.matches, 1 + (r + 1) * args.matches)
            raw = raw_round_trip(args.round_trips)
            raw_table = raw_round_trip(args.round_trips, children=len(bots))
            raw_same = raw_across = float("nan")
            if pin is not None:
                other = min(_ALL_CPUS)
                raw_same = raw_round_trip(args.round_trips, cpus=(pin, pin))
                raw_across = raw_round_trip(args.round_trips, cpus=(pin, other))
            inline_s, inline_n, inline_records = run_matches("inline", bots, seeds, None)
            process_s, process_n, process_records = run_matches("process", bots, seeds, pool)
            if inline_n != process_n or list(map(_moves_only, inline_records)) != list(
                map(_moves_only, process_records)
            ):
                sys.exit("the hosts played different matches: the benchmark compares nothing")
            think = [m["ms"] for rec in process_records for d in rec["deals"] for m in d["moves"]]
            one_cpu = float("nan")
            if pin is not None:
                _pinned(pin)
                try:
                    one_cpu_s, one_cpu_n, _ = run_matches("process", bots, seeds, pinned_pool)
                finally:
                    _pinned(None)
                one_cpu = one_cpu_s / one_cpu_n
            rows.append((raw, raw_table, inline_s / inline_n, process_s / process_n,
                         statistics.median(think) / 1e3, one_cpu, inline_n, raw_same, raw_across))
    finally:
        pool.close()
        pinned_pool.close()

    print()
    print("per decision, in microseconds (think: the process host's median request-to-answer "
          "time):")
    print(f"{'round':>5} {'raw rt':>6} {'table':>6} {'1 CPU':>6} {'2 CPUs':>6} | {'inline':>6} "
          f"{'process':>7} {'overhead':>8} {'ratio':>5} {'think':>5} | {'1 CPU':>6} "
          f"{'overhead':>8} {'ratio':>5}")
    ratios = []
    for i, row in enumerate(rows, 1):
        raw, raw_table, inline, process, think, one_cpu, _, raw_same, raw_across = row
        overhead = process - inline
        ratios.append((overhead / raw, i))
        print(f"{i:>5} {raw * 1e6:>6.1f} {raw_table * 1e6:>6.1f} {raw_same * 1e6:>6.1f} "
              f"{raw_across * 1e6:>6.1f} | {inline * 1e6:>6.1f} {process * 1e6:>7.1f} "
              f"{overhead * 1e6:>8.1f} {overhead / raw:>4.1f}x {think * 1e6:>5.0f} | "
              f"{one_cpu * 1e6:>6.1f} {(one_cpu - inline) * 1e6:>8.1f} "
              f"{(one_cpu - inline) / raw_same:>4.1f}x")
    print()
    print(f"raw rt: a one-line round trip between two Python processes over a pipe, placed by "
          f"the scheduler; table: the same to {len(bots)} echo processes in turn (each sleeps "
          f"while the others answer, as bots at a table do); 1 CPU / 2 CPUs: both processes "
          f"pinned to one CPU / to two. process: the process host placed by the scheduler, its "
          f"overhead compared with raw rt; 1 CPU: the referee and its bots pinned to CPU {pin}, "
          f"compared with the raw rt on 1 CPU.")
    best_ratio, best = min(ratios)
    raw, _, inline, process, _, _, n, _, _ = rows[best - 1]
    median_ratio = statistics.median(r for r, _ in ratios)
    overheads = [(row[3] - row[2]) * 1e6 for row in rows]
    print(f"process host overhead per decision: {min(overheads):.1f} to {max(overheads):.1f} us; "
          f"best round {(process - inline) * 1e6:.1f} us ({n} decisions) = {best_ratio:.1f}x "
          f"its raw round trip of {raw * 1e6:.1f} us; median round {median_ratio:.1f}x "
          f"(target <= 2x)")
    if pin is not None:
        one_cpu_overheads = [(row[5] - row[2]) * 1e6 for row in rows]
        print(f"on one CPU: overhead {min(one_cpu_overheads):.1f} to "
              f"{max(one_cpu_overheads):.1f} us per decision")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    print()
    print("where a decision's request goes, per decision (this process, no pipes):")
    print(f"{'step':<36} {'full view':>10} {'delta':>10}")
    for label, full, delta in breakdown(sample_views()):
        print(f"{label:<36} {full:>10.1f} {delta:>10.1f}")


if __name__ == "__main__":
    main()
