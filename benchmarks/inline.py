"""Inline speed: a whole ``arena run`` of inline bots against bare random playouts, same run.

    python benchmarks/inline.py            # 5 runs of 12,000 deals each side, about 2 minutes
    python benchmarks/inline.py --quick    # a smoke run: 1,200 deals, once

1. Floor: bare random playouts through ``arena.game`` (``Deal.new``, then a
   random one of ``legal_moves()`` until the deal ends), Runs preset, four
   players, in this process: deals per second.
2. The same deals as a tournament: ``arena run CONFIG --out DIR --jobs 1 --quiet``
   in a process of its own, four inline ``random`` bots, Runs preset, duplicate
   round robin: deals per second over the whole command, start-up included
   (the imports, the schedule, the referee, the records written, the standings
   and their files). The child writes and reuses compiled bytecode in a folder of
   the benchmark's own (``PYTHONPYCACHEPREFIX``), warmed before the first timed
   run, as an installed arena's imports do, whatever ``PYTHONDONTWRITEBYTECODE`` says.
3. What any referee must do at least, for scale: the same deals played as matches
   of ``arena.game`` (``Match``, its card exchanges, five deals) by ``random`` bot
   objects, each asked with its seat's view, in this process, with no clock, no
   checks, no records: the ceiling of the ratio above.

Each side is timed on the wall clock and in CPU seconds (user and system, of this
process for the floor and of the child for the run): on a machine shared with other
work the wall clock counts the others' time too, the CPU seconds only each side's
own. Each figure is the median of ``--runs`` runs, interleaved so that a change of
load hits both alike. Target: the run at least 0.6x the floor, start-up included.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import arena.game as game
from arena.game import Deal, Match, Rules
from bots import RandomBot

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
SET = 4 * RULES.rounds
"""Deals a set of the round robin plays: 4 matches (the duplicate seatings) of 5 deals."""


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def playouts(deals: int, seed: int = 1) -> tuple[float, float]:
    """Bare random playouts: (wall, CPU) seconds for ``deals`` deals."""
    rng = random.Random(seed)
    wall, cpu = time.perf_counter(), _cpu_self()
    for _ in range(deals):
        deal = Deal.new(RULES, 4, rng.getrandbits(63))
        while not deal.finished:
            moves = deal.legal_moves()
            deal.play(moves[rng.randrange(len(moves))])
    return time.perf_counter() - wall, _cpu_self() - cpu


def bare_matches(deals: int) -> tuple[float, float]:
    """Matches of ``arena.game`` played by ``random`` bots asked with their views, no
    referee: (wall, CPU) seconds for ``deals`` deals."""
    wall, cpu = time.perf_counter(), _cpu_self()
    for number in range(deals // RULES.rounds):
        match = Match(RULES, 4, number)
        bots = []
        for seat in range(4):
            bot = RandomBot()
            bot.rng = random.Random(number * 4 + seat)
            bots.append(bot)
        while (decision := match.pending) is not None:
            view = match.deal.view(decision.seat)
            bot = bots[decision.seat]
            if decision.kind == "play":
                match.play(bot.play(view))
            else:
                match.give(bot.exchange(view, decision.count))
    return time.perf_counter() - wall, _cpu_self() - cpu


def arena_run(config: Path, work: Path) -> tuple[float, float]:
    """The whole ``arena run`` command in a process of its own: (wall, CPU) seconds."""
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    program = Path(sys.executable).with_name("arena")
    command = [str(program), "run", str(config), "--out", str(out), "--jobs", "1", "--quiet"]
    environment = {key: value for key, value in os.environ.items()
                   if key != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    wall, cpu = time.perf_counter(), _cpu_children()
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    wall, cpu = time.perf_counter() - wall, _cpu_children() - cpu
    if done.returncode:
        sys.exit(f"arena run failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,200 deals, one run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deals", type=int, default=12_000, help="a multiple of 20")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    deals = 1_200 if args.quick else args.deals
    sets = max(1, deals // SET)
    deals = sets * SET
    before = os.getloadavg()[0]
    floor: list[tuple[float, float]] = []
    run: list[tuple[float, float]] = []
    least: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        config = work / "inline.yaml"
        config.write_text(CONFIG.replace("REPEAT", "1"))
        arena_run(config, work)  # writes the bytecode the timed runs read
        config.write_text(CONFIG.replace("REPEAT", str(sets)))
        for _ in range(runs):
            floor.append(playouts(deals))
            run.append(arena_run(config, work))
            least.append(bare_matches(deals))
    after = os.getloadavg()[0]
    print(f"inline: a whole `arena run` against bare random playouts (Runs preset, 4 players, "
          f"{deals:,} deals each; medians of {runs} interleaved runs; load {before:.2f} before, "
          f"{after:.2f} after, {os.cpu_count()} cores; arena.game {game.engine()})")
    for what, index in (("wall clock", 0), ("CPU (user+sys)", 1)):
        bare = statistics.median(deals / times[index] for times in floor)
        ours = statistics.median(deals / times[index] for times in run)
        ceiling = statistics.median(deals / times[index] for times in least)
        cost = (statistics.median(times[index] for times in run)
                - statistics.median(times[index] for times in floor)) / deals * 1e6
        print(f"  {what}:")
        print(f"    floor: bare random playouts           {bare:8.0f} deals/s")
        print(f"    arena run: 4 inline random bots       {ours:8.0f} deals/s (jobs 1, start-up, "
              f"records and standings included)")
        print(f"    ratio: {ours / bare:.2f}x the floor (target >= 0.6x); "
              f"the run's cost beyond the floor {cost:.0f} us a deal")
        print(f"    a referee's least work: bare matches, views, bot calls {ceiling:8.0f} deals/s "
              f"({ceiling / bare:.2f}x the floor: the ceiling of the ratio)")


if __name__ == "__main__":
    main()
