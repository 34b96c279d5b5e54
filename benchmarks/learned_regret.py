"""Where ``learned`` loses its points: each of its choices judged by an independent search.

Whole matches are played by ``mc`` in every seat (its default 48 rounds of playouts, the
clock too long to matter, so the matches replay from ``--seed``). At every decision where
``mc`` searched (more than one candidate), a judge, ``mc`` at ``--judge`` rounds with a
generator of its own, gives each candidate move its average points; each bot's choice in
that position (``learned``'s, ``greedy``'s, and the choice ``mc`` made) then loses the
judge's best average less its own: its *regret* in points, 0 for the judge's best. A move
outside the judge's candidates is charged the worst candidate's (and counted). The table
gives the mean regret a decision by situation: leading or answering, how many seats
still hold cards, how many cards the seat holds; and the share of ``learned``'s excess
over ``mc`` (its regret less ``mc``'s, summed) each situation holds. The judge's own noise
lifts every bot's figure alike, so the differences are what count.

    python benchmarks/learned_regret.py [--preset daifugo] [--matches 20] [--judge 192]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from arena.bot import Bot, MatchInfo
from arena.game import Match, Move, Rules, View
from arena.seeds import bot_rng, derive
from bots import GreedyBot, McBot
from bots.learned import LearnedBot, network_for

BOTS = ("learned", "mc", "greedy")
Situation = tuple[str, Callable[[View], bool]]
SITUATIONS: list[Situation] = [
    ("all", lambda v: True),
    ("leading", lambda v: v.pile is None),
    ("answering", lambda v: v.pile is not None),
    *((f"{n} seats hold cards", lambda v, n=n: sum(1 for c in v.counts if c) == n)
      for n in (4, 3, 2)),
    *((f"holding {lo} to {hi}", lambda v, lo=lo, hi=hi: lo <= len(v.hand) <= hi)
      for lo, hi in ((1, 3), (4, 6), (7, 9), (10, 99))),
]


B = TypeVar("B", bound=Bot)


def _bound(bot: B, seat: int, rules: Rules, seed: int) -> B:
    bot.bind(seat, rules, 4, bot_rng(seed, seat))
    bot.start_match(MatchInfo(seat, 4, rules, "regret", [*BOTS, "judge"]))
    return bot


def judged(preset: str, matches: int, judge_rounds: int, seed: int
           ) -> list[tuple[View, dict[str, float], dict[str, bool]]]:
    """Each searched decision's view, the regret of each bot's choice there and whether its
    choice lay outside the judge's candidates."""
    rules = Rules.preset(preset)
    out = []
    for k in range(matches):
        match_seed = derive(seed, "regret", k)
        searching = [_bound(McBot(move_ms=3_600_000), s, rules, match_seed) for s in range(4)]
        others: dict[str, list[Bot]] = {
            "learned": [_bound(LearnedBot(), s, rules, match_seed) for s in range(4)],
            "greedy": [_bound(GreedyBot(), s, rules, match_seed) for s in range(4)]}
        judges = [_bound(McBot(playouts=judge_rounds, share=1.0, move_ms=3_600_000), s,
                         rules, derive(match_seed, "judge")) for s in range(4)]
        match = Match(rules, 4, match_seed)
        while (decision := match.pending) is not None:
            view = match.view(decision.seat)
            mc = searching[decision.seat]
            if decision.kind == "exchange":
                match.give(mc.exchange(view, decision.count))
                continue
            move = mc.play(view)
            judge = judges[decision.seat]
            if mc.values:
                judge.play(view)
                values: dict[Move, float] = dict(judge.values)
                if len(values) > 1:
                    best, worst = max(values.values()), min(values.values())
                    choices = {"mc": Move.parse(move), **{
                        b: Move.parse(bots[decision.seat].play(view))
                        for b, bots in others.items()}}
                    out.append((view, {b: best - values.get(m, worst)
                                       for b, m in choices.items()},
                                {b: m not in values for b, m in choices.items()}))
            match.play(move)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="daifugo")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--judge", type=int, default=192, help="The judge's rounds.")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if network_for(Rules.preset(args.preset), 4) is None:
        sys.exit(f"learned has no network for {args.preset} at 4 seats")
    started = time.process_time()
    rows = judged(args.preset, args.matches, args.judge, args.seed)
    load = os.getloadavg()[0]
    excess = sum(r["learned"] - r["mc"] for _, r, _ in rows) or 1.0
    print(f"{args.preset}: {len(rows)} decisions of {args.matches} matches judged by mc at "
          f"{args.judge} rounds, {time.process_time() - started:.0f} CPU s, load {load:.1f}")
    print(f"{'situation':22} {'decisions':>9} {'learned':>8} {'mc':>8} {'greedy':>8} "
          f"{'excess':>7}")
    for name, holds in SITUATIONS:
        chosen = [r for view, r, _ in rows if holds(view)]
        if not chosen:
            continue
        mean = {b: sum(r[b] for r in chosen) / len(chosen) for b in BOTS}
        share = sum(r["learned"] - r["mc"] for r in chosen) / excess
        print(f"{name:22} {len(chosen):9d} {mean['learned']:8.4f} {mean['mc']:8.4f} "
              f"{mean['greedy']:8.4f} {share:7.0%}")
    outside = {b: sum(o[b] for _, _, o in rows) for b in BOTS}
    print("choices outside the judge's candidates: "
          + ", ".join(f"{b} {n}" for b, n in outside.items()))


if __name__ == "__main__":
    main()
