"""How large a league's field a round can be planned for in a second.

A round's planning is the league's fit of every deal so far (``assess``: Plackett-Luce
strengths and their posterior's draws) and the choice of its tables (``choose_round``).
For each field size, a planted league (arena.tournament._league_sim, no referee) of that
many entrants plays ``--rounds`` rounds of the default rules (a table of 4 per 4 entrants),
then the next round is planned ``--repeat`` times; the median is printed beside the
12-entrant field of the league's own benchmark (the floor of the same work, measured in the
same run), and the largest size planned within ``--budget`` seconds. docs/league.md
("Bounds") gives the figures.

    .venv/bin/python benchmarks/league_planner.py [--sizes 12,64,128,256,512] [--rounds 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

# arena is imported before numpy: it sets the BLAS threads (arena/_threads.py)
from arena.tournament._league import MAX_FIELD, LeagueRules, assess, choose_round
from arena.tournament._league_sim import PlantedLeague


def plan_seconds(size: int, rounds: int, repeat: int) -> tuple[float, int]:
    """Median seconds to plan the next round of a planted league of ``size`` entrants after
    ``rounds`` rounds, and the duplicate sets it was fitted on."""
    rules = LeagueRules()
    strengths = [1.0 - 2.0 * i / (size - 1) for i in range(size)]  # +1 .. -1
    league = PlantedLeague(strengths, rules, seed=size)
    for _ in range(rounds):
        league.play_round(league.assess())
    data = league.data()
    active = list(range(size))
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        state = assess(data, active, rules, seed=0, round_index=league.rounds)
        choose_round(state, rules, seed=0, round_index=league.rounds, played=league.played)
        times.append(time.perf_counter() - started)
    return statistics.median(times), data.clusters


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=f"12,64,128,256,{MAX_FIELD}")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=1.0)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}; BLAS threads "
          f"{os.environ.get('OPENBLAS_NUM_THREADS', 'default')}; {args.rounds} rounds played, "
          f"median of {args.repeat}", flush=True)
    within = 0
    for size in sorted(int(s) for s in args.sizes.split(",")):
        seconds, sets = plan_seconds(size, args.rounds, args.repeat)
        print(f"{size:5d} entrants, {sets:5d} sets: a round planned in {seconds:7.3f} s",
              flush=True)
        if seconds <= args.budget:
            within = size
    print(f"largest field planned within {args.budget:g} s: {within} entrants "
          f"(a league's field holds at most {MAX_FIELD}); load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
