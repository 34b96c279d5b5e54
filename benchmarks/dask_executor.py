"""Matches per second on a Dask cluster against the local executor, and Dask's cost per match.

    python benchmarks/dask_executor.py            # about two minutes on 2 cores
    python benchmarks/dask_executor.py --quick    # smaller sizes, for a smoke run

1. Real matches: configs/demo.yaml with fewer repeats (the trio referee, inline
   built-in bots), run through ``run_tournament`` with the local executor
   (jobs=1: in this process, the floor; jobs=2: two worker processes) and with
   Dask LocalClusters of 1 and 2 single-threaded worker processes, one match per
   task, eight, and the automatic batch (grown until a task plays about 0.2 s).
   Each figure is the median of several runs; the clusters are started (and
   their workers warmed by one small run) before the clock starts, and their
   start-up time is given apart.
2. Dask's cost per match: the same schedule played by ``dry_run_match`` (a
   ranking drawn from the seed, microseconds of work), so the time per match on
   Dask local:1 minus the time per match in this process is what Dask adds to
   each match (scheduling, pickling, the round trip), with one match per task,
   with batches of 8 and 64, and with the automatic batch.

The machine's load average is printed first and last: figures from a shared,
busy machine are lower than on free cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from _records import demo_config

from arena.tournament import (
    DaskExecutor,
    Executor,
    LocalExecutor,
    MatchFn,
    SerialExecutor,
    TournamentConfig,
    dry_run_match,
    referee_match,
    run_tournament,
)


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def _seconds(config: TournamentConfig, executor: Executor, runs: int) -> tuple[float, int]:
    """Median wall time of ``runs`` whole tournaments, and their match count."""
    times: list[float] = []
    played = 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            result = run_tournament(config, out=tmp, executor=executor)
            times.append(time.perf_counter() - start)
            played = result.played
    return statistics.median(times), played


def _cluster(
    workers: int, batch: int | None, match_fn: MatchFn, warm: TournamentConfig
) -> tuple[DaskExecutor, float]:
    executor = DaskExecutor(f"local:{workers}", batch=batch, match_fn=match_fn)
    start = time.perf_counter()
    executor.start()
    started = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:  # workers import arena and play once
        run_tournament(warm, out=tmp, executor=executor)
    return executor, started


def real_matches(repeat: int, runs: int) -> None:
    config = demo_config(repeat)
    warm = config.model_copy(update={"repeat": 1})
    print(f"1. configs/demo.yaml with repeat={repeat}: real referee, inline built-in bots, "
          f"median of {runs} runs")
    rates: dict[str, float] = {}
    for jobs in (1, 2):
        with LocalExecutor(jobs) as local:
            if jobs > 1:
                local.start()
            seconds, played = _seconds(config, local, runs)
        rates[f"local jobs={jobs}"] = played / seconds
        print(f"   local jobs={jobs}:            {played} matches in {seconds:5.2f} s = "
              f"{played / seconds:6.1f} matches/s")
    for workers in (1, 2):
        for batch in (1, 8, None):
            executor, started = _cluster(workers, batch, referee_match, warm)
            with executor:
                seconds, played = _seconds(config, executor, runs)
            name = f"dask local:{workers} batch={batch or 'auto'}"
            rates[name] = played / seconds
            print(f"   {name}: {played} matches in {seconds:5.2f} s = "
                  f"{played / seconds:6.1f} matches/s (cluster start {started:.1f} s)")
    floor = rates["local jobs=1"]
    print(f"   dask local:1 / local jobs=1: {rates['dask local:1 batch=1'] / floor:.2f}x; "
          f"dask local:2 / local jobs=2: "
          f"{rates['dask local:2 batch=1'] / rates['local jobs=2']:.2f}x (batch 1), "
          f"{rates['dask local:2 batch=8'] / rates['local jobs=2']:.2f}x (batch 8), "
          f"{rates['dask local:2 batch=auto'] / rates['local jobs=2']:.2f}x (batch auto)")
    for batch in ("1", "auto"):
        extra = 1 / rates[f"dask local:1 batch={batch}"] - 1 / floor
        print(f"   Dask's cost per real match on one worker, batch {batch}: "
              f"{extra * 1000:+.2f} ms")


def overhead(tables_repeat: int, runs: int) -> None:
    config = demo_config(tables_repeat)
    warm = config.model_copy(update={"repeat": 1})
    floor_s, played = _seconds(config, SerialExecutor(dry_run_match), runs)
    per_floor = floor_s / played
    print(f"2. Dask's cost per match: {played} dry-run matches (no game), median of {runs} runs")
    print(f"   in this process: {per_floor * 1e6:8.1f} us per match")
    for batch in (1, 8, 64, None):
        executor, _ = _cluster(1, batch, dry_run_match, warm)
        with executor:
            seconds, played = _seconds(config, executor, runs)
        per = seconds / played
        print(f"   dask local:1 batch={batch or 'auto':<4}: {per * 1e6:8.1f} us per match, "
              f"Dask adds {(per - per_floor) * 1e6:8.1f} us per match")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    print(_load())
    real_matches(repeat=2 if args.quick else 4, runs=1 if args.quick else 3)
    overhead(tables_repeat=4 if args.quick else 20, runs=1 if args.quick else 3)
    print(_load())


if __name__ == "__main__":
    main()
