"""Inline speed: a whole tournament of inline bots against bare random playouts, same run.

    python benchmarks/inline.py            # about 40 s
    python benchmarks/inline.py --quick    # a smoke run

1. Floor: bare random playouts through ``arena.game`` (``Deal.new``, then a
   random one of ``legal_moves()`` until the deal ends), Runs preset, four
   players: deals per second.
2. The same work as a tournament: four inline ``random`` bots, Runs preset,
   duplicate round robin, one worker (``jobs: 1``), the referee's one match
   loop, records written to a file: deals per second over the whole run
   (schedule, referee, records and standings included).

Each figure is the median of ``--runs`` runs, interleaved so that a change of
load hits both alike. Target: the tournament at least 0.5x the floor.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time

from arena.game import Deal, Rules
from arena.tournament import parse_config, run_tournament

RULES = Rules.preset("runs")
CONFIG = """\
name: inline
seed: 1
rules: {preset: runs}
players: 4
format: {type: round_robin}
duplicate: true
repeat: REPEAT
jobs: 1
bots:
  - {name: random}
  - {name: random, label: random-2}
  - {name: random, label: random-3}
  - {name: random, label: random-4}
"""


def playouts(deals: int, seed: int = 1) -> float:
    """Bare random playouts: deals per second."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(deals):
        deal = Deal.new(RULES, 4, rng.getrandbits(63))
        while not deal.finished:
            moves = deal.legal_moves()
            deal.play(moves[rng.randrange(len(moves))])
    return deals / (time.perf_counter() - start)


def tournament(repeat: int) -> tuple[float, int]:
    """A tournament of four inline random bots, records written: deals per second."""
    config = parse_config(CONFIG.replace("REPEAT", str(repeat)), source="inline.yaml")
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        result = run_tournament(config, out=out, jobs=1)
        wall = time.perf_counter() - start
    deals = result.played * RULES.rounds
    return deals / wall, deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    repeat = 5 if args.quick else 60  # 4 matches a set, 5 deals a match
    bare_deals = 200 if args.quick else 1500
    bare, referee = [], []
    deals = 0
    for _ in range(runs):
        bare.append(playouts(bare_deals))
        rate, deals = tournament(repeat)
        referee.append(rate)
    floor, ours = statistics.median(bare), statistics.median(referee)
    load = os.getloadavg()[0]
    print(f"inline tournament vs bare playouts (Runs preset, 4 players; median of {runs} "
          f"runs; load {load:.2f} on {os.cpu_count()} cores)")
    print(f"  floor: bare random playouts        {floor:8.0f} deals/s")
    print(f"  tournament: 4 inline random bots   {ours:8.0f} deals/s ({deals} deals a run, "
          f"jobs 1, records written)")
    print(f"  ratio: {ours / floor:.2f}x the floor (target >= 0.5x)")


if __name__ == "__main__":
    main()
