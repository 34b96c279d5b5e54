"""How long ``mc`` thinks, against the move limit and against the floor of its playouts.

Plays ``mc`` against three ``greedy`` bots through ``arena.game.Match`` (no referee) and
times every ``mc`` decision. The floor is the same work without the bot around it: in the
same run, at each timed decision, as many rounds of playouts as the bot played (a guess
of the hidden hands, every candidate played out on it) are timed alone.

    python benchmarks/mc.py [--preset runs] [--matches 4] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from arena.bot import MatchInfo
from arena.game import Deal, Match, Rules
from bots import GreedyBot, McBot
from bots._mc import play_out, sample_hands  # timed here: the floor is mc's own playouts


def main() -> None:
    """Play the matches and print the think times."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="runs")
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    load_before = os.getloadavg()
    think: list[float] = []
    floor: list[float] = []
    cut = decisions = 0
    for k in range(args.matches):
        mc = McBot()
        bots = [mc, GreedyBot(), GreedyBot(), GreedyBot()]
        seed = args.seed + k
        for seat, bot in enumerate(bots):
            bot.bind(seat, rules, 4, random.Random(f"{seed}:{seat}"))
            bot.start_match(MatchInfo(seat, 4, rules, "bench", ["mc", "g", "g", "g"]))
        match = Match(rules, 4, seed)
        while (decision := match.pending) is not None:
            view = match.view(decision.seat)
            bot = bots[decision.seat]
            if decision.kind == "exchange":
                match.give(bot.exchange(view, decision.count))
                continue
            if bot is not mc:
                match.play(bot.play(view))
                continue
            start = time.perf_counter()
            move = mc.play(view)
            elapsed = time.perf_counter() - start
            decisions += 1
            if mc.rounds_played:
                think.append(elapsed)
                cut += mc.rounds_played < mc.playouts
                candidates = mc._candidates(  # the same candidates, timed alone
                    view, [m for m in view.legal_moves() if m.kind != "pass"],
                    view.pile is not None)
                rng = random.Random(0)
                t0 = time.perf_counter()
                for _ in range(mc.rounds_played):
                    deal = Deal.from_view(view, sample_hands(view, rng))
                    for candidate in candidates:
                        trial = deal.copy()
                        trial.play(candidate)
                        play_out(trial, view.seat, rng)
                floor.append(time.perf_counter() - t0)
            match.play(move)
    ratio = statistics.median(t / f for t, f in zip(think, floor, strict=True))
    think.sort()
    print(f"preset {args.preset}: {args.matches} matches, {decisions} mc decisions, "
          f"{len(think)} with playouts ({cut} cut short by the time share)")
    print(f"think time ms: median {statistics.median(think) * 1000:.1f}, "
          f"p99 {think[int(len(think) * 0.99)] * 1000:.1f}, max {think[-1] * 1000:.1f} "
          f"(time share {mc.budget_s * 1000:.0f}, move limit 1000)")
    print(f"floor, the same playouts alone, ms: median {statistics.median(floor) * 1000:.1f}; "
          f"think time / floor, median {ratio:.2f}")
    load = " ".join(f"{x:.2f}" for x in load_before)
    print(f"load average before: {load}; after: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
