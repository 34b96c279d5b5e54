"""Benchmark: the HTML report of a 100,000-match run: build time, size on disk, load time.

    .venv/bin/python benchmarks/report.py [--matches 100000] [--keep DIR]

Plays a small real tournament (the demo's six bots and rules, 120 matches, inline bots), then
copies its records under new match and set ids up to ``--matches``: every record is a real
one that replays through the rules. Times ``arena.report.write_report`` on the file, prints
the sizes of the records and of the report, then opens the report in headless Chromium
(Playwright, Debian's /usr/bin/chromium) five times and prints the median time until the page
is ready, and the median time to open one replay by deep link. The floor is the same page
built from the 120 original matches, loaded in the same browser. The machine's load average
is printed with the figures, since the CPU may be shared.

First, the demo tournament itself (configs/demo.yaml, 1,800 matches, every core) against the
report of its records, with one worker and with every core (``--demo-runs``, medians): the
report should build at least as fast as the run that made the records.

The build replays every move through the rules engine, with every core: at the ~220
matches/s the demo built at on one, 100,000 matches take some 8 minutes of one core, and
1.7 GB of records in a temporary folder (``--matches 10000`` for a quick look;
``--matches 0`` for the demo's figures alone). docs/report.md holds the figures it gave.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from _records import demo_config, replicate

from arena.report import write_report
from arena.tournament import default_jobs, run_tournament

CONFIG = demo_config(2)
DEMO = Path(__file__).resolve().parents[1] / "configs" / "demo.yaml"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def size(path: Path) -> int:
    """Bytes on disk of a file, or of every file under a folder."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def load_times(folder: Path, match_id: str, runs: int = 5) -> tuple[float, float] | None:
    """Median seconds until the report is ready, and until a replay opened by deep link is."""
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if chromium is None:
        return None
    url = (folder / "report" / "index.html").resolve().as_uri()
    pages, replays = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        for _ in range(runs):
            page = browser.new_page()
            t0 = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-ready]")
            pages.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            page.evaluate("id => { location.hash = 'match=' + encodeURIComponent(id)"
                          " + '&deal=4&move=30'; }", match_id)
            page.wait_for_selector("#r-seats .seat")
            replays.append(time.perf_counter() - t0)
            page.close()
        browser.close()
    return statistics.median(pages), statistics.median(replays)


def demo_against_its_run(root: Path, runs: int) -> None:
    """The demo tournament (configs/demo.yaml, every core) and the report of its records,
    with one worker and with every core, each the median of ``runs``: the report should
    build at least as fast as the run that made its records (the floor it is measured
    against)."""
    jobs = default_jobs()
    played, one, every = [], [], []
    for run in range(runs):
        folder = root / f"demo-{run}"
        t0 = time.perf_counter()
        result = run_tournament(DEMO, out=folder, jobs=jobs)
        played.append(time.perf_counter() - t0)
        for workers, times in ((1, one), (jobs, every)):
            shutil.rmtree(folder / "report", ignore_errors=True)  # no batch reused
            t0 = time.perf_counter()
            write_report(folder, jobs=workers)
            times.append(time.perf_counter() - t0)
    load = os.getloadavg()
    run_s, one_s, every_s = (statistics.median(x) for x in (played, one, every))
    print(f"demo: {result.played} matches played in {run_s:.2f} s on {jobs} worker(s) (the "
          f"floor); their report built in {every_s:.2f} s on {jobs} worker(s) "
          f"({every_s / run_s:.2f}x the run), {one_s:.2f} s on one ({one_s / run_s:.2f}x); "
          f"median of {runs}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
          f"{os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000,
                        help="Matches of the large report (0: only the demo's figures).")
    parser.add_argument("--demo-runs", type=int, default=3,
                        help="Runs of the demo tournament and its report (0: none).")
    parser.add_argument("--keep", type=Path, default=None,
                        help="Build in this folder and keep it (default: a temporary one).")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="arena-report-bench-"))
    try:
        if args.demo_runs:
            demo_against_its_run(root, args.demo_runs)
        if not args.matches:
            return
        small = root / "small"
        t0 = time.perf_counter()
        run_tournament(CONFIG, out=small, jobs=1)
        print(f"played {sum(1 for _ in (small / 'records.jsonl').open())} real matches "
              f"in {time.perf_counter() - t0:.1f} s")
        big = root / "big"
        big.mkdir(exist_ok=True)
        shutil.copy(small / "config.yaml", big / "config.yaml")
        replicate(small / "records.jsonl", big / "records.jsonl", matches=args.matches)
        write_report(small)
        t0 = time.perf_counter()
        result = write_report(big, jobs=default_jobs())
        built = time.perf_counter() - t0
        load = os.getloadavg()
        records_mb = (big / "records.jsonl").stat().st_size / 1e6
        report = big / "report"
        print(f"{result.matches} matches: records {records_mb:,.0f} MB; report built in "
              f"{built:.0f} s ({result.matches / built:,.0f} matches/s), "
              f"{size(report) / 1e6:,.1f} MB on disk in {result.batches} replay files "
              f"(page data: {size(report / 'data' / 'matches.js') / 1e6:.1f} MB match list, "
              f"{size(report / 'data' / 'summary.js') / 1e3:.0f} kB summary)")
        with (small / "records.jsonl").open("rb") as file:
            first = json.loads(file.readline())["match_id"]
        with (big / "records.jsonl").open("rb") as file:
            file.seek(-200_000, os.SEEK_END)
            last = json.loads(file.read().splitlines()[-1])["match_id"]
        floor = load_times(small, first)
        times = load_times(big, last)  # the last match: its replay file is the last one
        if floor is None or times is None:
            print("no Chromium or Playwright: load times not measured")
        else:
            print(f"load in headless Chromium, median of 5: {times[0]:.2f} s to ready "
                  f"(floor, 120 matches: {floor[0]:.2f} s); a replay by deep link "
                  f"{times[1]:.2f} s (floor {floor[1]:.2f} s)")
        print(f"load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
              f"on {os.cpu_count()} cores")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
