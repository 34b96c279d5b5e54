"""Benchmark: a page of a served run's match list, against the whole list cut to it.

    .venv/bin/python benchmarks/match_page.py [--sizes 10000,100000,1000000] [--runs 7]

For each size N, a match list (``arena.web.MatchIndex``) of N finished matches in sets of
four, one in seven an error, the last set's matches waiting, and 200 matches in play; then,
each the median of ``--runs``: ``/api/matches``' pages as ``MatchIndex.page`` finds them
(``last=200``, what the run's page asks; ``offset=N/2&limit=50``; ``state=error&last=200``)
against the same answer made as ``/api/matches`` made it before pages, the whole list built
(``MatchIndex.entries``) and cut. Each answer is checked equal to the cut list's. The list's
entries are made from small records: what a page costs does not depend on what the records
hold (the server's first read of real records is ``benchmarks/growth.py``'s).
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.web._in_play import InPlay
from arena.web._match_list import MatchIndex


@dataclass
class _Run:
    """What the list reads of a run folder, held in memory."""

    generation: int = 0
    added: list[str] = field(default_factory=list)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    people_added: list[str] = field(default_factory=list)
    people: dict[str, dict[str, Any]] = field(default_factory=dict)
    live: dict[str, InPlay] = field(default_factory=dict)
    config: None = None
    open_set: str = ""

    def waiting_for_set(self, match_id: str) -> bool:
        return bool(self.records[match_id]["set"] == self.open_set)

    def held(self, match_id: str) -> bool:
        return False

    def recorded(self, match_id: str) -> bool:
        return match_id in self.records


def _run(size: int) -> _Run:
    run = _Run()
    for n in range(size):
        match_id = f"m{n}"
        run.added.append(match_id)
        run.records[match_id] = {"set": f"s{n // 4}", "round": None,
                                 "type": "error" if n % 7 == 3 else "match",
                                 "seats": [{"label": f"bot{(n + k) % 6}"} for k in range(4)],
                                 "scores": [3, 2, 1, 0], "ranking": [0, 1, 2, 3]}
    run.open_set = f"s{(size - 1) // 4}"
    for n in range(200):
        run.live[f"x{n}"] = InPlay(f"x{n}", None, ["a", "b", "c", "d"], None)
    return run


def _cut(index: MatchIndex, states: list[str] | None, offset: int, limit: int | None,
         last: int | None) -> tuple[list[dict[str, Any]], int]:
    """``/api/matches``' answer as it was made before pages: the whole list, cut."""
    entries = index.entries(states)
    if last is not None:
        entries = entries[len(entries) - min(last, len(entries)):]
    return entries[offset:None if limit is None else offset + limit], len(entries)


def _median_ms(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"medians of {options.runs}, ms")
    print(f"{'matches':>8} {'query':<22} {'page':>8} {'cut':>8}")
    for size in [int(n) for n in options.sizes.split(",")]:
        index = MatchIndex(_run(size))
        index.entries()  # every entry computed once, as the server's first list does
        for name, query in (("last=200", (None, 0, None, 200)),
                            ("offset=N/2&limit=50", (None, size // 2, 50, None)),
                            ("state=error&last=200", (["error"], 0, None, 200))):
            assert index.page(*query) == _cut(index, *query)
            page = _median_ms(functools.partial(index.page, *query), options.runs)
            cut = _median_ms(functools.partial(_cut, index, *query), options.runs)
            print(f"{size:>8} {name:<22} {page:>8.3f} {cut:>8.1f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
