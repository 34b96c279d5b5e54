"""What an entrant's page costs: the league's strengths over its rounds (RatingHistory).

``arena run`` plays a small league of built-in bots (3 seats, one deal a match) to
``--deals`` deals into a temporary folder; then, on its records, the history is computed
cold (every chosen round fitted), again with the records unchanged (every fit kept), and
again after one more round is added (the records of all rounds but the last, then all):
the cost of a look at the page of a running league. The floor is one fit of the whole
league (``rate_league``, what ``/api/standings`` computes at each new record), measured in
the same run. Medians of ``--repeat``.

    .venv/bin/python benchmarks/entrant_history.py [--deals 600] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.competition._history import RatingHistory
from arena.ratings import Results, rate_league, read_many

CONFIG = """\
name: history
seed: 3
players: 3
rules: {{preset: runs, rounds: 1}}
format: {{type: league, min_sets: 1, resamples: 20, stop: {{deals: {deals}}}}}
bots: [greedy, random, lowest, highest, passer, {{name: greedy, label: greedy-2}}]
"""


def median_s(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "league.yaml"
        config.write_text(CONFIG.format(deals=options.deals), encoding="utf-8")
        arena = Path(sys.executable).parent / "arena"
        subprocess.run([str(arena), "run", str(config), "--out", f"{folder}/out", "-q",
                        "-j", "1"], check=True)
        records = list(read_many([Path(folder) / "out" / "records.jsonl"]))
    last = max(r["round"] for r in records)
    before = [r for r in records if r["round"] < last]
    print(f"load average {os.getloadavg()[0]:.1f}; {len(records)} matches, {last + 1} rounds")

    def floor() -> None:
        results = Results()
        results.extend(records)
        rate_league(results)

    def cold() -> None:
        RatingHistory().get(records)

    warm = RatingHistory()
    warm.get(records)

    def grown() -> None:
        history = RatingHistory()
        history.get(before)
        started = time.perf_counter()
        history.get(records)
        grown_times.append(time.perf_counter() - started)

    grown_times: list[float] = []
    for _ in range(options.repeat):
        grown()
    points = len(warm.get(records)["rounds"])
    print(f"one fit of the whole league (floor): {median_s(floor, options.repeat):.3f} s")
    print(f"history cold ({points} rounds fitted): {median_s(cold, options.repeat):.3f} s")
    unchanged = median_s(lambda: warm.get(records), options.repeat)
    print(f"history, records unchanged: {unchanged:.3f} s")
    print(f"history after one more round: {statistics.median(grown_times):.3f} s")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
