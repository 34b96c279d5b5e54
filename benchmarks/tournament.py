"""Tournament speed and scale: parallel speed-up, Swiss pairing time, flat memory.

    python benchmarks/tournament.py            # everything (a few minutes on 2 cores)
    python benchmarks/tournament.py --quick    # smaller sizes, for a smoke run

1. Peak memory (resident set) while scheduling and running a 101,270-match
   round robin (41 bots at tables of 4) through the runner, streamed to a
   records file, sampled as the matches go: flat means it does not grow
   with the number of matches. Matches are played by ``dry_run_match`` (a
   ranking drawn from the seed) so the run measures the tournament layer,
   not the game.
2. Matches per second of the same tournament (configs/demo.yaml with fewer
   repeats, the real referee, built-in bots) with jobs=1 and jobs=2, and
   the speed-up (target: at least 1.8x on 2 free cores). Rates are given
   over the whole run and in steady state (the last three quarters of the
   records, leaving out the workers' start-up).
3. Time to pair one Swiss round of 1,000 bots at tables of 4 (target: under
   5 s), over 8 rounds and over 60 rounds (where the bounded search gives
   up and swaps repair the pairing), with results drawn at random; and how
   well seats stay balanced: the share of bots whose seat counts are more
   than one apart, at the end, on average over the rounds and in the worst
   round, with seat-balancing swaps and without them (each table's seats
   assigned by least use either way).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from collections.abc import Mapping
from itertools import combinations
from pathlib import Path
from typing import Any

from _records import demo_config

from arena.tournament import (
    Reporter,
    SerialExecutor,
    Standings,
    dry_run_match,
    run_tournament,
)
from arena.tournament._swiss import pair_round  # timed here: the pairing is internal


class _Clock(Reporter):
    def __init__(self) -> None:
        self.times: list[float] = []

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        self.times.append(time.perf_counter())


def speedup(repeat: int) -> None:
    config = demo_config(repeat)
    rates: dict[int, tuple[float, float]] = {}
    print(f"2. configs/demo.yaml with repeat={repeat}: real referee, inline built-in bots")
    for jobs in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            clock = _Clock()
            start = time.perf_counter()
            result = run_tournament(config, out=tmp, jobs=jobs, reporter=clock)
            wall = time.perf_counter() - start
        # Steady state: the last three quarters of the run, once every worker is up.
        quarter = len(clock.times) // 4
        steady = (len(clock.times) - 1 - quarter) / (clock.times[-1] - clock.times[quarter])
        rates[jobs] = (result.played / wall, steady)
        print(
            f"   jobs={jobs}: {result.played} matches in {wall:.1f} s = "
            f"{rates[jobs][0]:.1f} matches/s (steady state {steady:.1f} matches/s)"
        )
    print(
        f"   speed-up jobs=2 / jobs=1: {rates[2][0] / rates[1][0]:.2f}x whole run, "
        f"{rates[2][1] / rates[1][1]:.2f}x steady state (target >= 1.8x)"
    )


def swiss_pairing(n: int, rounds: int, *, balance_seats: bool = True) -> None:
    k = 4
    rng = random.Random(1)
    met: list[set[int]] = [set() for _ in range(n)]
    seats = [[0] * k for _ in range(n)]
    score = [0] * n
    worst = 0.0
    repeats = 0
    unbalanced: list[int] = []
    for _ in range(rounds):
        order = sorted(range(n), key=lambda b: (-score[b], b))
        start = time.perf_counter()
        tables = pair_round(order, [k] * (n // k), met, seats, scores=score,
                            balance_seats=balance_seats)
        worst = max(worst, time.perf_counter() - start)
        for table in tables:
            repeats += sum(b in met[a] for a, b in combinations(table, 2))
            ranking = list(table)
            rng.shuffle(ranking)
            for place, bot in enumerate(ranking):
                score[bot] += k - 1 - place
            for s, bot in enumerate(table):
                seats[bot][s] += 1
                met[bot].update(b for b in table if b != bot)
        unbalanced.append(sum(max(c) - min(c) > 1 for c in seats))
    swaps = "with" if balance_seats else "without"
    print(
        f"3. Swiss pairing, {n} bots at tables of {k}, {rounds} rounds, {swaps} seat swaps: "
        f"slowest round {worst * 1000:.1f} ms (target < 5 s), repeat meetings: {repeats}; "
        f"seat counts more than one apart: {unbalanced[-1] / n:.1%} of the bots at the "
        f"end, {sum(unbalanced) / (n * rounds):.1%} on average over the rounds, "
        f"{max(unbalanced) / n:.1%} in the worst round"
    )


class _Memory(Reporter):
    def __init__(self, every: int) -> None:
        self.every = every
        self.count = 0
        self.samples: list[tuple[int, float, float | None]] = []

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        self.count += 1
        if self.count % self.every == 0:
            self.samples.append((self.count, _peak_mb(), _current_mb()))


def _current_mb() -> float | None:
    """Resident memory now (Linux), or None."""
    try:
        with open("/proc/self/statm") as file:
            pages = int(file.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * resource.getpagesize() / (1024 * 1024)


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def streamed_memory(bots: int) -> None:
    config = {
        "name": "big",
        "seed": 1,
        "players": 4,
        "format": {"type": "round_robin"},
        "bots": [{"name": "random", "label": f"bot{i:03d}"} for i in range(bots)],
    }
    before = _peak_mb()
    with tempfile.TemporaryDirectory() as tmp:
        reporter = _Memory(every=10_000)
        start = time.perf_counter()
        result = run_tournament(
            config, out=tmp, executor=SerialExecutor(dry_run_match), reporter=reporter
        )
        wall = time.perf_counter() - start
        size = (Path(tmp) / "records.jsonl").stat().st_size / 1e6
    print(
        f"1. streamed round robin, {bots} bots at tables of 4: {result.played} matches in "
        f"{wall:.1f} s ({result.played / wall:,.0f}/s), records file {size:.0f} MB"
    )
    print(f"   peak resident memory before the run: {before:.1f} MB")
    for count, peak, now in reporter.samples:
        current = "" if now is None else f", resident now {now:.1f} MB"
        print(f"   after {count:>7,} matches: peak {peak:.1f} MB{current}")
    growth = reporter.samples[-1][1] - reporter.samples[0][1]
    print(f"   growth from the first sample to the last: {growth:+.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    # Memory first: peak RSS only grows over a process's life, so it is measured before
    # anything else has had a chance to raise it.
    streamed_memory(bots=25 if args.quick else 41)
    speedup(repeat=3 if args.quick else 10)
    swiss_pairing(1000, rounds=3 if args.quick else 8)
    swiss_pairing(1000, rounds=4 if args.quick else 10)
    swiss_pairing(1000, rounds=4 if args.quick else 10, balance_seats=False)
    if not args.quick:
        swiss_pairing(1000, rounds=60)  # late rounds: the search gives up, swaps repair


if __name__ == "__main__":
    main()
