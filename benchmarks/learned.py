"""What ``learned`` is worth: its strength against the built-ins, and its think time.

**Strength** (``--against greedy mc expert``): for each preset ``learned`` was trained for
and each baseline, the sequential test of ``arena ab learned BASELINE --preset P --jobs 1``
(duplicate sets, seed 0, H1 at +20 Elo against H0 at 0), its verdict line with the Elo
interval, its wall time and the load average beside it. ``--against`` with no name skips
this half.

**Think time**: every decision of whole matches (``learned`` in the even seats, ``greedy``
in the odd ones, at the table size each network was trained for) is timed in the process's
CPU time, for each preset ``learned`` was trained for; the median and the 90th percentile
of each bot's decisions are printed, ``greedy``'s being the floor measured in the same
run, with the machine's load average (the machine may be shared).

    python benchmarks/learned.py [--matches 20] [--against greedy mc] [--max-sets 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from arena.bot import Bot, MatchInfo
from arena.game import Match, Rules
from arena.seeds import bot_rng, derive
from bots import GreedyBot
from bots.learned import WEIGHTS, LearnedBot, load_network, supported


def think_times(preset: str, matches: int) -> dict[str, list[float]]:
    """CPU seconds of each decision per bot name, over ``matches`` matches."""
    rules = Rules.preset(preset)
    players = seats(preset)
    times: dict[str, list[float]] = {"learned": [], "greedy": []}
    for k in range(matches):
        seed = derive(7, "think", k)
        bots: list[Bot] = [GreedyBot() if seat % 2 else LearnedBot() for seat in range(players)]
        names = ["greedy" if seat % 2 else "learned" for seat in range(players)]
        for seat, bot in enumerate(bots):
            bot.bind(seat, rules, players, bot_rng(seed, seat))
            bot.start_match(MatchInfo(seat, players, rules, f"think-{k}", names))
        match = Match(rules, players, seed)
        while (decision := match.pending) is not None:
            seat = decision.seat
            view = match.view(seat)
            start = time.process_time()
            if decision.kind == "exchange":
                gift = bots[seat].exchange(view, decision.count)
                times[names[seat]].append(time.process_time() - start)
                match.give(gift)
            else:
                move = bots[seat].play(view)
                times[names[seat]].append(time.process_time() - start)
                match.play(move)
    return times


def seats(preset: str) -> int:
    """The table size the shipped network of ``preset`` was trained for."""
    return load_network(WEIGHTS / f"learned-{preset}.npz").players


def strength(preset: str, baseline: str, max_sets: int) -> str:
    """The verdict line of ``arena ab learned BASELINE`` under ``preset``, with its time."""
    arena = Path(sys.executable).with_name("arena")
    start = time.perf_counter()
    done = subprocess.run([str(arena), "ab", "learned", baseline, "--preset", preset,
                           "--players", str(seats(preset)), "--jobs", "1",
                           "--max-sets", str(max_sets)],
                          capture_output=True, text=True, check=False)
    verdict = (done.stdout.strip().splitlines() or [done.stderr.strip()[-200:]])[-1]
    return (f"{preset:8} vs {baseline:7} {verdict} [{time.perf_counter() - start:.0f} s, "
            f"load {os.getloadavg()[0]:.1f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--against", nargs="*", default=["greedy", "mc", "expert"],
                        help="the baselines of the strength half (none: skip it)")
    parser.add_argument("--max-sets", type=int, default=200)
    args = parser.parse_args()
    for baseline in args.against:
        for preset in supported():
            print(strength(preset, baseline, args.max_sets), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}; CPU ms per decision, {args.matches} "
          "matches per preset")
    print(f"{'preset':10} {'bot':8} {'decisions':>9} {'median':>8} {'p90':>8}")
    for preset in supported():
        for name, spent in think_times(preset, args.matches).items():
            ms = sorted(1000 * s for s in spent)
            print(f"{preset:10} {name:8} {len(ms):9} {statistics.median(ms):8.3f} "
                  f"{ms[int(0.9 * (len(ms) - 1))]:8.3f}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
