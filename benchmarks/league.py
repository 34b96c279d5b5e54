"""Benchmark: deals a league needs to order its top 3, against a uniform round robin.

    nice .venv/bin/python benchmarks/league.py [--seeds 5] [--spacing 0.2] [--late 0.1]
    nice .venv/bin/python benchmarks/league.py --bias 40 [--deals 480]
    nice .venv/bin/python benchmarks/league.py --right 100

Twelve planted entrants (strengths ``spacing`` apart, duplicate sets of 4 rotations x 2 deals
with the cards' luck, arena/tournament/_league_sim.py) play

- as a league, ``table_choice: information`` with ``stop: {confident: 0.95, top: 3}``;
- as the floor of the same work: a uniform duplicate round robin (``table_choice: uniform``,
  every entrant as often as every other) stopped by the same rule, checked after each round of
  the same size (3 tables).

Per seed: deals until each stops and whether its top 3 is the planted top 3 in order; then
the medians over the seeds and the league's share of the round robin's deals (the target: at
most 0.5). Then a late entrant of planted strength ``--late`` joins each converged league,
which goes on without a stopping rule (so every rank counts in its schedule, not only the top
3 the rule was about): deals until its 95% interval is as narrow as the median of the
others' (counted once it has ``min_sets`` sets: its interval's width rests on the spread of
its sets' results, which one or two sets do not measure). The machine's load
average is printed before and after: the figures are counts of deals, not times, so load
changes only how long the benchmark takes.

``--bias N`` checks instead that the adaptive schedule leaves the ratings unbiased
(docs/ratings.md, "A league's leaderboard"): N planted leagues per schedule (information,
uniform) for a fixed budget of ``--deals`` deals, without the cards' luck (the model then
exactly true), each fitted from its records alone with 200 posterior draws: per schedule,
the largest mean error of an entrant's strength and its size in standard errors, the scale
(slope of the mean fitted strengths on the planted ones), the share of 95% intervals that
hold the planted strength, and the mean error at each planted rank. A third row fits the
information schedule's tables played again with fresh results (``information replayed``):
the same unequal design, chosen from results the fit does not see.

``--right N`` checks the stopping rule (docs/league.md, "When to stop"): N leagues (seeds 100
on) with ``stop: {confident: 0.95, top: 3}``, and how many stopped with the planted top 3 in
order.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small products: threads only cost here

import argparse
import statistics
import time
from dataclasses import replace

import numpy as np

from arena.tournament._league import Assessment, LeagueRules, TableChoice
from arena.tournament._league_sim import PlantedLeague, fit_bias, top_right

TOP = 3
MAX_DEALS = 40_000


def widths(assessment: Assessment) -> dict[int, float]:
    """Width of every active entrant's 95% interval of theta."""
    low, high = assessment.fit.interval(0.95)
    return {i: float(high[i] - low[i]) for i in assessment.active}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--spacing", type=float, default=0.2)
    parser.add_argument("--late", type=float, default=0.1, help="the late entrant's strength")
    parser.add_argument("--bias", type=int, default=0, metavar="N",
                        help="check the fit's bias and coverage over N leagues per schedule")
    parser.add_argument("--deals", type=int, default=480, help="budget of each --bias league")
    parser.add_argument("--right", type=int, default=0, metavar="N",
                        help="count the leagues of N stopped with their top 3 right")
    args = parser.parse_args()
    strengths = [args.spacing * (5.5 - i) for i in range(12)]
    if args.bias:
        bias(strengths, args.bias, args.deals)
        return
    if args.right:
        stops_right(strengths, args.right)
        return
    print(f"12 entrants, strengths {strengths[0]:+.2f} .. {strengths[-1]:+.2f}; "
          f"load before {os.getloadavg()[0]:.2f}")
    started = time.perf_counter()
    league_deals: list[int] = []
    uniform_deals: list[int] = []
    late_deals: list[int] = []
    for seed in range(args.seeds):
        row = []
        for choice in ("information", "uniform"):
            rules = LeagueRules(table_choice=choice, confident=0.95, top=TOP, tables_per_round=3)
            league = PlantedLeague(list(strengths), rules, seed=seed)
            final = league.run(max_deals=MAX_DEALS)
            right = top_right(final, strengths, TOP)
            (league_deals if choice == "information" else uniform_deals).append(league.deals)
            row.append(f"{choice} {league.deals:6d} deals (top {TOP} "
                       f"{'right' if right else 'WRONG'}, stop {final.stop})")
            if choice == "information":
                # the season goes on (no stopping rule, so every rank counts) and one joins
                league.rules = replace(rules, confident=None)
                newcomer = league.add(args.late)
                joined = league.deals

                def narrow(a: Assessment, who: int = newcomer, least: int = rules.min_sets) -> bool:
                    # the width counts once the entrant has min_sets: the spread of its sets'
                    # results is measured from its sets, and from one or two it is not
                    w = widths(a)
                    others = statistics.median(v for k, v in w.items() if k != who)
                    return int(a.fit.sets[who]) >= least and w[who] <= others

                league.run(until=narrow, max_deals=joined + MAX_DEALS)
                late_deals.append(league.deals - joined)
                row.append(f"late entrant {league.deals - joined:5d} deals")
        print(f"seed {seed}: " + "; ".join(row), flush=True)
    ratio = statistics.median(league_deals) / statistics.median(uniform_deals)
    print(f"median deals: league {statistics.median(league_deals):.0f}, uniform round robin "
          f"{statistics.median(uniform_deals):.0f} (the floor): ratio {ratio:.2f} (target <= 0.5)")
    print(f"per seed ratio: {np.round(np.divide(league_deals, uniform_deals), 2).tolist()}")
    print(f"late entrant: median {statistics.median(late_deals):.0f} deals until its interval "
          f"is the others' median width")
    print(f"load after {os.getloadavg()[0]:.2f}; {time.perf_counter() - started:.0f} s")


def stops_right(strengths: list[float], leagues: int) -> None:
    """How many leagues stopped at ``confident: 0.95`` have the planted top 3 in order."""
    print(f"{leagues} leagues, seeds 100-{99 + leagues}; load before {os.getloadavg()[0]:.2f}")
    started = time.perf_counter()
    good = 0
    deals: list[int] = []
    for seed in range(100, 100 + leagues):
        rules = LeagueRules(confident=0.95, top=TOP, tables_per_round=3)
        league = PlantedLeague(list(strengths), rules, seed=seed)
        final = league.run(max_deals=MAX_DEALS)
        ok = final.stop == "confident" and top_right(final, strengths, TOP)
        good += ok
        deals.append(league.deals)
        if not ok:
            print(f"seed {seed}: {league.deals} deals, stop {final.stop}, order {final.order}")
    print(f"top {TOP} right in {good} of {leagues}, median {statistics.median(deals):.0f} deals")
    print(f"load after {os.getloadavg()[0]:.2f}; {time.perf_counter() - started:.0f} s")


def bias(strengths: list[float], leagues: int, deals: int) -> None:
    """The fit's bias and interval coverage under each schedule (see the module's doc)."""
    print(f"{leagues} leagues per schedule, {deals} deals each, no luck; "
          f"load before {os.getloadavg()[0]:.2f}")
    started = time.perf_counter()
    runs: list[tuple[TableChoice, bool]] = [("information", False), ("uniform", False),
                                            ("information", True)]
    for choice, replay in runs:
        figures = fit_bias(strengths, choice, leagues=leagues, deals=deals, seed=7,
                           replay=replay)
        worst = int(np.argmax(np.abs(figures.bias)))
        z = np.abs(figures.bias) / figures.se
        # the scale: slope of the mean fitted strengths on the planted ones (1: not stretched)
        slope = float(np.polyfit(figures.truth, figures.truth + figures.bias, 1)[0])
        print(f"{figures.table_choice:20s}: largest mean error {figures.bias[worst]:+.3f} "
              f"(entrant {worst}, {z[worst]:.1f} SE; largest in SE {z.max():.1f} of 12), "
              f"mean |error| {np.mean(np.abs(figures.bias)):.3f}, scale {slope:.3f}; 95% "
              f"intervals hold the truth {figures.coverage:.1%}, mean width {figures.width:.2f}",
              flush=True)
        print(f"{'':20s}  mean error by planted rank: "
              + " ".join(f"{b:+.2f}" for b in figures.bias), flush=True)
    print(f"load after {os.getloadavg()[0]:.2f}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
