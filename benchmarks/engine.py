"""Rules engine speed: random playouts, decisions per second, deals per second, copies.

Plays random deals (4 players; runs, 2 jokers, revolution and eight_stop on) for a fixed
time on one core: at each decision the seat to move lists its legal moves and plays one at
random. When OpenSpiel is installed, the same loop over its C++ ``dou_dizhu`` runs too, in
turns with arena's (each loop ``--rounds`` times; medians, ranges and their ratio printed),
timed in the process's CPU time so that a shared machine's other work counts less. The
engine that runs (``arena.game.engine()``: compiled with mypyc, or pure Python) and the load
average are printed beside the figures; ``ARENA_PURE=1`` measures the pure engine.

    python benchmarks/engine.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from arena.game import Deal, Rules, engine

RULES = Rules.preset("runs", jokers=2, revolution=True, eight_stop=True)


def playouts(seconds: float, seed: int = 1) -> tuple[float, float]:
    """Decisions and deals per second of random playouts."""
    rng = random.Random(seed)
    decisions = deals = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        deal = Deal.new(RULES, 4, rng.getrandbits(63))
        while not deal.finished:
            moves = deal.legal_moves()
            deal.play(moves[rng.randrange(len(moves))])
            decisions += 1
        deals += 1
    elapsed = time.process_time() - start
    return decisions / elapsed, deals / elapsed


def copies(seconds: float, seed: int = 2) -> float:
    """``Deal.copy()`` per second, on a deal in mid-play."""
    rng = random.Random(seed)
    deal = Deal.new(RULES, 4, rng.getrandbits(63))
    for _ in range(12):
        moves = deal.legal_moves()
        deal.play(moves[rng.randrange(len(moves))])
    count = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        for _ in range(1000):
            deal.copy()
        count += 1000
    return count / (time.process_time() - start)


def open_spiel_decisions(seconds: float, seed: int = 1) -> float | None:
    """The same random-playout loop over OpenSpiel's ``dou_dizhu``, if installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    rng = random.Random(seed)
    game = pyspiel.load_game("dou_dizhu")
    decisions = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="measurements per loop")
    args = parser.parse_args()
    print(f"engine: {engine()}")
    print(f"rules: {RULES.to_dict()}")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")
    rows: dict[str, list[float]] = {"arena decisions": [], "open_spiel dou_dizhu decisions": []}
    deals: list[float] = []
    for _ in range(args.rounds):
        decisions, per_deal = playouts(args.seconds)
        rows["arena decisions"].append(decisions)
        deals.append(per_deal)
        figure = open_spiel_decisions(args.seconds)
        if figure is not None:
            rows["open_spiel dou_dizhu decisions"].append(figure)
    copy_rate = copies(args.seconds / 2)
    print(f"load average after:  {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"medians of {args.rounds} runs of {args.seconds:g} s (CPU time) each, in turns:")
    for name, values in rows.items():
        if values:
            print(f"  {name + ' per second:':<44} {statistics.median(values):>10,.0f}   "
                  f"(range {min(values):,.0f} .. {max(values):,.0f})")
    print(f"  {'arena deals per second:':<44} {statistics.median(deals):>10,.0f}")
    print(f"  {'arena copy() per second:':<44} {copy_rate:>10,.0f}")
    spiel = rows["open_spiel dou_dizhu decisions"]
    if not spiel:
        print("open_spiel: not installed (pip install open_spiel to compare)")
    else:
        ratio = statistics.median(rows["arena decisions"]) / statistics.median(spiel)
        print(f"arena / open_spiel: {ratio:.2f}  (target: at least 1.0)")


if __name__ == "__main__":
    main()
