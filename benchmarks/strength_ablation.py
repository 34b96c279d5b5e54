"""What each part of ``expert`` is worth: points per deal of variants against one field.

Every variant of ``expert`` (the whole bot, and the bot with one part taken out) plays
the same duplicate sets against the same opponents: one match seed, played once with the
variant in each seat (the opponents in the others), through ``arena.game.Match`` with
no referee. A set is the block of the block-clustered 95% interval (the cluster
bootstrap of ``arena.ratings``, which resamples whole sets), and each variant's
difference from the whole bot is paired on the sets.

    python benchmarks/strength_ablation.py [--preset runs] [--sets 20] [--budget 200]
        [--field greedy] [--variants full,uniform,heuristic,random,no-endgame,no-exchange,mc]

The parts: ``uniform`` guesses the hidden hands uniformly (no weighting by the plays
seen), ``heuristic`` plays out with the value-greedy policy of ``bots._policy`` instead of
``mc``'s default policy,
``random`` plays out uniformly at random, ``no-endgame`` has no exact endgame,
``no-exchange`` gives ``greedy``'s exchange without searching it. ``mc`` (the bot) can
be listed as a variant too, at its default budget. The budget is a number of playouts
per decision, so the figures replay from their seed.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

from arena.bot import Bot, MatchInfo
from arena.game import Match, Rules
from arena.ratings._bootstrap import bootstrap_ratio  # the ratings' cluster bootstrap
from arena.seeds import bootstrap_rng, bot_rng, series
from bots import ExpertBot, GreedyBot, McBot

VARIANTS: dict[str, dict[str, Any]] = {
    "full": {},
    "uniform": {"estimation": False},
    "heuristic": {"playout": "heuristic"},
    "random": {"playout": "random"},
    "no-endgame": {"endgame": False},
    "no-exchange": {"exchange_search": False},
}
FIELD = {"greedy": GreedyBot, "mc": McBot}


def make(variant: str, budget: int) -> Bot:
    """A fresh bot for ``variant``."""
    if variant == "mc":
        return McBot()
    if variant == "greedy":
        return GreedyBot()
    # no referee, no clock to fear: a long move_ms lets the budget alone stop the search
    return ExpertBot(budget=budget, move_ms=10**7, **VARIANTS[variant])


def play_set(variant: str, field: str, rules: Rules, players: int, seed: int,
             budget: int) -> tuple[float, int, float, int]:
    """One duplicate set: the variant in each seat in turn. Returns its points, deals,
    think seconds and decisions."""
    points = 0.0
    deals = 0
    think = 0.0
    decisions = 0
    for seat_of_variant in range(players):
        bots = [make(variant, budget) if s == seat_of_variant else FIELD[field]()
                for s in range(players)]
        labels = [variant if s == seat_of_variant else field for s in range(players)]
        for s, bot in enumerate(bots):
            bot.bind(s, rules, players, bot_rng(seed, s))
            bot.start_match(MatchInfo(s, players, rules, f"ablation-{seed}", labels))
        match = Match(rules, players, seed)
        while (decision := match.pending) is not None:
            view = match.view(decision.seat)
            bot = bots[decision.seat]
            start = time.perf_counter()
            if decision.kind == "exchange":
                match.give(bot.exchange(view, decision.count))
            else:
                match.play(bot.play(view))
            if decision.seat == seat_of_variant:
                think += time.perf_counter() - start
                decisions += 1
        for entry in match.history:
            points += entry["points"][seat_of_variant]
            deals += 1
    return points, deals, think, decisions


def interval(totals: list[float], counts: list[int], seed: int) -> tuple[float, float]:
    """The block-clustered 95% interval of a mean per deal (sets are the blocks)."""
    return bootstrap_ratio(np.array(totals, dtype=np.float64), np.array(counts, dtype=np.float64),
                           4000, 0.95, bootstrap_rng(seed, 0))


def main() -> None:
    """Play every variant on the same sets and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="runs")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sets", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument("--field", default="greedy", choices=sorted(FIELD))
    parser.add_argument("--variants",
                        default="full,uniform,heuristic,random,no-endgame,no-exchange,mc")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    variants = args.variants.split(",")
    unknown = [v for v in variants if v not in VARIANTS and v not in ("mc", "greedy")]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; choose from "
                     f"{', '.join([*VARIANTS, 'mc', 'greedy'])}")
    load = os.getloadavg()
    per: dict[str, list[tuple[float, int, float, int]]] = {v: [] for v in variants}
    started = time.perf_counter()
    for k in range(args.sets):
        seed = series(args.seed, k)
        for variant in variants:
            per[variant].append(play_set(variant, args.field, rules, args.players, seed,
                                         args.budget))
    elapsed = time.perf_counter() - started
    print(f"preset {args.preset}, {args.players} players, field {args.field}, "
          f"{args.sets} duplicate sets of {args.players} rotations, budget {args.budget} "
          f"playouts; load {load[0]:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"{elapsed:.0f} s")
    print(f"{'variant':<12} {'deals':>6} {'points/deal':>11} {'95%':>13} "
          f"{'minus full':>10} {'95%':>15} {'ms/decision':>11}")
    base = per.get("full", per[variants[0]])
    for variant in variants:
        rows = per[variant]
        totals = [r[0] for r in rows]
        counts = [r[1] for r in rows]
        mean = sum(totals) / sum(counts)
        low, high = interval(totals, counts, args.seed)
        diffs = [r[0] - b[0] for r, b in zip(rows, base, strict=True)]
        d_mean = sum(diffs) / sum(counts)
        d_low, d_high = interval(diffs, counts, args.seed + 1)
        ms = 1000 * sum(r[2] for r in rows) / max(1, sum(r[3] for r in rows))
        print(f"{variant:<12} {sum(counts):>6} {mean:>11.3f} {low:>6.3f}-{high:<6.3f} "
              f"{d_mean:>+10.3f} {d_low:>+7.3f} {d_high:>+7.3f} {ms:>11.1f}")


if __name__ == "__main__":
    main()
