"""Benchmark: rate one million deal results (leaderboard, intervals, head-to-head).

    .venv/bin/python benchmarks/ratings.py [--deals 1000000] [--bots 8] [--file]

Builds planted-strength records in memory (8 bots at 4-seat tables, 5 deals a match, duplicate
sets of 4 matches), then times ``arena.ratings.rate`` on them: reading the deals, the
Plackett-Luce ratings in match order, the bootstrap intervals (1000 resamples over the sets)
and the head-to-head table. ``--file`` also writes the records as JSON lines and times
``rate_files`` on the file, JSON parsing included. A second figure times openskill's own
``PlackettLuce.rate`` on a sample of the same deals, for the record of why arena carries its
own update (docs/ratings.md).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from openskill.models import PlackettLuce

from arena.ratings import Results, rate, rate_files, rate_results, simulate_records
from arena.ratings._plackett_luce import rate_deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--file", action="store_true", help="also time rating from a file")
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
