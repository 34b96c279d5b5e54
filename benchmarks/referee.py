"""Referee speed: per-decision overhead of the process host, beside a raw pipe round trip.

Plays the same matches (same bots, same seeds) with the ``inline`` host and
with the ``process`` host (processes kept in a pool, so start-up is paid
once and excluded), and measures in the same run a raw round trip between
two Python processes over a pipe. Target: the process host's overhead per
decision is at most twice the raw round trip.

    python benchmarks/referee.py [--matches N] [--bots random,random,random,random]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import trio

from arena.referee import Limits, ProcessPool, make_host, play_match

_ECHO = r"""
import os, sys
r, w = int(sys.argv[1]), int(sys.argv[2])
while True:
    data = os.read(r, 65536)
    if not data:
        break
    os.write(w, data)
"""


def raw_round_trip(n: int, size: int = 0) -> float:
    """Seconds per round trip of a one-line message between two Python processes."""
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-c", _ECHO, str(to_child_r), str(from_child_w)],
        pass_fds=(to_child_r, from_child_w),
    )
    os.close(to_child_r)
    os.close(from_child_w)
    line = b'{"type":"move","id":1,"move":"5H 5S"}\n'
    if size:
        line = b'{"pad":"' + b"x" * size + b'"}\n'
    for _ in range(200):  # warm up
        os.write(to_child_w, line)
        os.read(from_child_r, 65536)
    t0 = time.perf_counter()
    for _ in range(n):
        os.write(to_child_w, line)
        os.read(from_child_r, 65536)
    elapsed = time.perf_counter() - t0
    os.close(to_child_w)
    proc.wait()
    os.close(from_child_r)
    return elapsed / n


def spec(seed: int, bots: list[str], host: str) -> dict[str, object]:
    return {
        "match_id": f"bench-{seed}", "seed": seed, "rules": {"rounds": 5},
        "seats": [{"label": f"{b}-{i}", "name": b, "host": host} for i, b in enumerate(bots)],
        "limits": {"move_ms": 5000},
    }


def run_matches(host: str, bots: list[str], matches: int, pool: ProcessPool | None) -> tuple[
    float, int, list[float]
]:
    """Total seconds, decisions and move think times (ms) over ``matches`` matches."""
    limits = Limits.from_dict({"move_ms": 5000})
    total = 0.0
    decisions = 0
    think: list[float] = []
    for seed in range(1, matches + 1):
        s = spec(seed, bots, host)
        hosts = [make_host(seat, limits, pool) for seat in s["seats"]]  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        record = trio.run(lambda s=s, hosts=hosts: play_match(s, hosts=hosts, pool=pool))
        total += time.perf_counter() - t0
        decisions += record["decisions"]
        think += [m["ms"] for deal in record["deals"] for m in deal["moves"]]
    return total, decisions, think


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--bots", default="random,random,random,random")
    parser.add_argument("--round-trips", type=int, default=20000)
    args = parser.parse_args()
    bots = args.bots.split(",")

    raw = raw_round_trip(args.round_trips)
    raw_view = raw_round_trip(args.round_trips, size=1400)
    inline_s, inline_n, _ = run_matches("inline", bots, args.matches, None)
    pool = ProcessPool()
    try:
        run_matches("process", bots, 1, pool)  # start the processes once
        process_s, process_n, think = run_matches("process", bots, args.matches, pool)
    finally:
        pool.close()
    assert inline_n == process_n, "the hosts played different matches"
    per_inline = inline_s / inline_n
    per_process = process_s / process_n
    overhead = per_process - per_inline
    print(f"bots: {', '.join(bots)}; {args.matches} matches of 5 deals; {inline_n} decisions")
    print(f"raw pipe round trip (python <-> python): {raw * 1e6:8.1f} us")
    print(f"raw round trip, view-sized line (1.4 KB): {raw_view * 1e6:7.1f} us")
    print(f"inline host, per decision:               {per_inline * 1e6:8.1f} us")
    print(f"process host, per decision:              {per_process * 1e6:8.1f} us")
    print(f"process host, request->answer:           {statistics.median(think) * 1e3:8.1f} us "
          f"median, {statistics.mean(think) * 1e3:.1f} us mean")
    print(f"process host overhead per decision:      {overhead * 1e6:8.1f} us "
          f"= {overhead / raw:.2f}x the raw round trip (target <= 2x)")


if __name__ == "__main__":
    main()
