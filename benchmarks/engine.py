"""Rules engine speed: random playouts, decisions per second, deals per second, copies.

Plays random deals (4 players; runs, 2 jokers, revolution and eight_stop on) for a fixed
time on one core: at each decision the seat to move lists its legal moves and plays one at
random. When OpenSpiel is installed, the same loop over its C++ ``dou_dizhu`` runs too and
the ratio is printed.

    python benchmarks/engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from arena.game import Deal, Rules

RULES = Rules.preset("runs", jokers=2, revolution=True, eight_stop=True)


def playouts(seconds: float, seed: int = 1) -> tuple[float, float]:
    """Decisions and deals per second of random playouts."""
    rng = random.Random(seed)
    decisions = deals = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        deal = Deal.new(RULES, 4, rng.getrandbits(63))
        while not deal.finished:
            moves = deal.legal_moves()
            deal.play(moves[rng.randrange(len(moves))])
            decisions += 1
        deals += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, deals / elapsed


def copies(seconds: float, seed: int = 2) -> float:
    """``Deal.copy()`` per second, on a deal in mid-play."""
    rng = random.Random(seed)
    deal = Deal.new(RULES, 4, rng.getrandbits(63))
    for _ in range(12):
        moves = deal.legal_moves()
        deal.play(moves[rng.randrange(len(moves))])
    count = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(1000):
            deal.copy()
        count += 1000
    return count / (time.perf_counter() - start)


def open_spiel_decisions(seconds: float, seed: int = 1) -> float | None:
    """The same random-playout loop over OpenSpiel's ``dou_dizhu``, if installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    rng = random.Random(seed)
    game = pyspiel.load_game("dou_dizhu")
    decisions = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    decisions, deals = playouts(args.seconds)
    print(f"rules: {RULES.to_dict()}")
    print(f"decisions per second: {decisions:,.0f}")
    print(f"deals per second:     {deals:,.0f}")
    print(f"copy() per second:    {copies(args.seconds / 2):,.0f}")
    spiel = open_spiel_decisions(args.seconds)
    if spiel is None:
        print("open_spiel: not installed (pip install open_spiel to compare)")
    else:
        print(f"open_spiel dou_dizhu decisions per second: {spiel:,.0f}")
        print(f"arena / open_spiel: {decisions / spiel:.2f}")


if __name__ == "__main__":
    main()
