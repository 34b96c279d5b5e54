"""How much better than chance is ``greedy``? Its average finishing place against three
``random`` bots over seeded deals, played inline through the referee (``arena.referee.compare``).

    python benchmarks/greedy_vs_random.py [--deals 1000] [--preset runs] [--seed 0]

Place 1 is first out, 4 is last; three random bots among themselves average 2.5, so the
lower greedy's figure, the stronger it is. Matches are the preset's length (5 deals for
``runs``), with the exchange between deals, and every bot sits in every seat equally
often; the per-deal figures for the first deal of each match (no exchange yet) are
printed too.
"""

from __future__ import annotations

import argparse
import statistics
import time

from arena.game import Rules
from arena.referee import compare


def main() -> None:
    """Play the deals and print the average places."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--preset", default="runs")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    matches = -(-args.deals // rules.rounds)
    names = ["greedy", "random", "random", "random"]

    start = time.perf_counter()
    result = compare(names, rules, matches, seed=args.seed)
    wall = time.perf_counter() - start
    first = compare(names, rules.replace(rounds=1), args.deals, seed=args.seed)

    greedy, rand = result.places["greedy"], result.places["random"]
    print(f"preset {args.preset}: {result.deals} deals in {matches} matches of "
          f"{rules.rounds}, seed {args.seed}, {wall:.1f} s")
    print(f"greedy average place: {statistics.fmean(greedy):.3f} "
          f"(± {1.96 * statistics.stdev(greedy) / len(greedy) ** 0.5:.3f}, 95%)")
    print(f"random average place: {statistics.fmean(rand):.3f}")
    print("greedy places 1..4:   " + "  ".join(
        f"{greedy.count(p) / len(greedy):.1%}" for p in range(1, 5)))
    print(f"first deals only ({first.deals} one-deal matches, no exchange): "
          f"greedy {first.mean('greedy'):.3f}, random {first.mean('random'):.3f}")


if __name__ == "__main__":
    main()
