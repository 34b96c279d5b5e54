"""Benchmark: rate one million deal results (leaderboard, intervals, head-to-head).

    .venv/bin/python benchmarks/ratings.py [--deals 1000000] [--bots 8] [--file]

Builds planted-strength records in memory (8 bots at 4-seat tables, 5 deals a match, duplicate
sets of 4 matches), then times ``arena.ratings.rate`` on them: reading the deals, the
Plackett-Luce ratings in match order, the bootstrap intervals (1000 resamples over the sets)
and the head-to-head table. ``--file`` also writes the records as JSON lines and times
``rate_files`` on the file, JSON parsing included. A second figure times openskill's own
``PlackettLuce.rate`` on a sample of the same deals, for the record of why arena carries its
own update (docs/ratings.md).

Then the same on real records (``--real-deals``, default one million; 0 skips it): a
tournament of inline bots (the demo's Runs preset, 4-seat duplicate round robin) is played
and its records, hands and moves included, are replicated under fresh match and set ids up
to the number of deals asked for, into one JSON-lines file. ``rate_files`` reads and rates
that file (the figure: under 30 s for a million deals); its baseline is today's plain path
in the same run, ``rate(read_many(...))`` (``json.loads`` of whole records); the floor is
reading the file's lines without decoding them. ``--runs`` repeats each and prints medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from _records import demo_config, replicate
from openskill.models import PlackettLuce

from arena.ratings import (
    Results,
    rate,
    rate_files,
    rate_results,
    read_many,
    simulate_records,
)

# Timed here one by one: the rating core and the fast reader behind rate_files are internal.
from arena.ratings._plackett_luce import rate_deals
from arena.ratings._scan import read_results
from arena.tournament import run_tournament

REAL_CONFIG = demo_config(8)  # 15 tables x 4 seatings x 8 = 480 matches of 5 deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--file", action="store_true", help="also time rating from a file")
    parser.add_argument("--real-deals", type=int, default=1_000_000,
                        help="deals of real records to read and rate (0: skip)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each real-records timing")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    players, deals_per_match = 4, 5
    sets = max(1, args.deals // (players * deals_per_match))
    strengths = {f"bot{i}": float(s) for i, s in enumerate(np.linspace(1.0, -1.0, args.bots))}
    t0 = time.perf_counter()
    records = list(simulate_records(strengths, sets=sets, players=players,
                                    deals=deals_per_match, seed=1))
    made = time.perf_counter() - t0
    total_deals = sum(len(r["deals"]) for r in records)
    print(f"made {len(records):,} match records, {total_deals:,} deals, in {made:.1f} s "
          "(not counted)")

    t0 = time.perf_counter()
    board = rate(records)
    elapsed = time.perf_counter() - t0
    print(f"rate(): {total_deals:,} deal results in {elapsed:.1f} s "
          f"({total_deals / elapsed:,.0f} deals/s); target: under 30 s")

    # where the time goes
    t0 = time.perf_counter()
    results = Results()
    results.extend(records)
    ingest = time.perf_counter() - t0
    t0 = time.perf_counter()
    data = results.arrays()
    arrays = time.perf_counter() - t0
    t0 = time.perf_counter()
    rate_deals(len(data.labels), data.label, data.deal_start, data.deal_size)
    ratings = time.perf_counter() - t0
    t0 = time.perf_counter()
    rate_results(results)
    everything = time.perf_counter() - t0
    print(f"  reading records {ingest:.1f} s, ordering {arrays:.1f} s, "
          f"Plackett-Luce {ratings:.1f} s, intervals + head-to-head + rest "
          f"{everything - arrays - ratings:.1f} s")
    top = board.bots[0]
    print(f"  leader {top.label}: score {top.score:.3f} [{top.score_low:.3f}, "
          f"{top.score_high:.3f}], mu {top.mu:.2f}, sigma {top.sigma:.2f}; planted order "
          f"{'recovered' if [b.label for b in board.bots] == list(strengths) else 'NOT recovered'}")

    sample = 20_000
    model = PlackettLuce()
    ratings_os = {label: model.rating() for label in data.labels}
    rows = data.label.tolist()
    starts = data.deal_start[:sample].tolist()
    sizes = data.deal_size[:sample].tolist()
    t0 = time.perf_counter()
    for start, size in zip(starts, sizes, strict=True):
        order = [data.labels[i] for i in rows[start : start + size]]
        teams = model.rate([[ratings_os[label]] for label in order], ranks=list(range(size)))
        for label, team in zip(order, teams, strict=True):
            ratings_os[label] = team[0]
    per_deal = (time.perf_counter() - t0) / sample
    print(f"openskill PlackettLuce.rate: {per_deal * 1e6:.1f} us per deal, "
          f"{per_deal * total_deals:.0f} s projected for {total_deals:,} deals; arena's own "
          f"update: {ratings / total_deals * 1e6:.1f} us per deal")

    if args.file:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "records.jsonl"
            with path.open("w") as handle:
                for record in records:
                    handle.write(json.dumps(record) + "\n")
            size_mb = path.stat().st_size / 1e6
            del records
            t0 = time.perf_counter()
            rate_files(path)
            print(f"rate_files(): {size_mb:.0f} MB of JSON lines rated in "
                  f"{time.perf_counter() - t0:.1f} s")

    if args.real_deals:
        real_records(args.real_deals, args.runs)


def _median(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    """Median wall-clock and CPU seconds of ``runs`` runs of ``work``: on a loaded machine the
    CPU time is what the work costs one core, the wall time what it took there and then."""
    walls, cpus = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


def real_records(deals: int, runs: int) -> None:
    """Read and rate ``deals`` deals of real records from a file: fast path against the plain
    one, with the bare line reading as the floor."""
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run_tournament(REAL_CONFIG, out=Path(tmp) / "run", jobs=1)
        path = Path(tmp) / "records.jsonl"
        matches, written = replicate(Path(tmp) / "run" / "records.jsonl", path, deals=deals)
        size = path.stat().st_size
        print(f"real records: {written:,} deals in {matches:,} matches, {size / 1e9:.2f} GB "
              f"({size / written / 1e3:.1f} KB a deal), played and replicated in "
              f"{time.perf_counter() - t0:.0f} s (not counted)")

        def lines() -> None:
            with path.open("rb") as f:
                for _ in f:
                    pass

        floor = _median(runs, lines)
        reading = _median(runs, lambda: read_results([path]))
        fast = _median(runs, lambda: rate_files(path))
        plain = _median(runs, lambda: rate(read_many([path])))
        print(f"  reading the lines alone (floor): {floor[0]:.1f} s ({floor[1]:.1f} s CPU); "
              f"reading the deals: {reading[0]:.1f} s ({reading[1]:.1f} s CPU)")
        print(f"rate_files() on real records, {written:,} deals, median of {runs}: "
              f"{fast[0]:.1f} s ({fast[1]:.1f} s CPU); baseline, the plain json path: "
              f"{plain[0]:.1f} s ({plain[1]:.1f} s CPU); ratio {fast[0] / plain[0]:.2f} "
              f"(CPU {fast[1] / plain[1]:.2f}); target: under 30 s")
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
