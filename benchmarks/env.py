"""Learning-environment speed: decisions per second with random legal actions.

Five loops, measured in turns in the same run (each several times; the median is printed):

- ``arena.game``: bare random playouts of whole matches (``Match``, exchanges included): the
  floor every environment stands on;
- ``arena.game`` + observation: the same playouts, each decision also encoded as the
  environments encode it (``Encoding.observe_with_mask`` of the seat's view and legal moves)
  and its action drawn from the mask as below: what the encoding adds to a decision, without
  an environment's API around it;
- PettingZoo: ``arena.env.president_v0.env()``, the ``agent_iter`` / ``last`` / ``step``
  loop, each agent picking a random action of its ``action_mask``;
- Gymnasium: ``gymnasium.make("arena/President-v0", opponents=["random"] * 3)``, the learner
  picking a random legal action (a step also plays the opponents' moves: decisions count
  every seat's);
- RLCard's ``doudizhu`` environment (``pip install rlcard``; skipped, saying so, without it),
  each player picking a random legal action.

The President rows play the ``runs`` preset at 4 seats. Each loop is timed in the process's
CPU time, and the machine's load average and the engine that runs (compiled with mypyc, or
pure Python: ``ARENA_PURE=1``) are printed beside the figures, since the machine may be
shared.

    python benchmarks/env.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from arena.game import Match, Rules, engine, lowest_cards

RULES = Rules.preset("runs")
PLAYERS = 4


def bare(seconds: float, seed: int = 1) -> float:
    """Decisions per second of random matches played on ``arena.game`` alone."""
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        match = Match(RULES, PLAYERS, rng.getrandbits(63))
        while not match.finished:
            decision = match.pending
            assert decision is not None
            if decision.kind == "exchange":
                match.give(lowest_cards(match.deal.hand(decision.seat), decision.count))
                continue
            moves = match.deal.legal_moves()
            match.play(moves[rng.randrange(len(moves))])
            decisions += 1
    return decisions / (time.process_time() - start)


def observed(seconds: float, seed: int = 1) -> float:
    """Decisions per second of bare matches, each decision observed as an environment does."""
    from arena.env import PlayedCards, encoding

    rng = random.Random(seed)
    coder = encoding(RULES, PLAYERS)
    decisions = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        match = Match(RULES, PLAYERS, rng.getrandbits(63))
        played = PlayedCards(PLAYERS)
        while not match.finished:
            decision = match.pending
            assert decision is not None
            if decision.kind == "exchange":
                match.give(lowest_cards(match.deal.hand(decision.seat), decision.count))
                continue
            deal = match.deal
            _, mask = coder.observe_with_mask(match.view(decision.seat), deal.legal_moves(),
                                              played, deal.moves)
            legal = mask.nonzero()[0]  # the legal actions
            match.play(coder.actions[int(legal[rng.randrange(len(legal))])])
            decisions += 1
    return decisions / (time.process_time() - start)


def pettingzoo(seconds: float, seed: int = 1) -> float:
    """Decisions (agent steps) per second of the PettingZoo environment."""
    from arena.env import president_v0

    rng = random.Random(seed)
    env = president_v0.env(preset="runs", players=PLAYERS)
    decisions = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        env.reset(seed=rng.getrandbits(63))
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]  # the legal actions
            env.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
    return decisions / (time.process_time() - start)


def gymnasium_steps(seconds: float, seed: int = 1) -> tuple[float, float]:
    """Learner steps and decisions (every seat's) per second of the Gymnasium environment."""
    import gymnasium

    import arena.env  # noqa: F401 (registers arena/President-v0)

    rng = random.Random(seed)
    env = gymnasium.make("arena/President-v0", opponents=["random"] * (PLAYERS - 1),
                         preset="runs")
    steps = decisions = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        observation, _ = env.reset(seed=rng.getrandbits(63))
        done = False
        while not done:
            legal = observation["action_mask"].nonzero()[0]  # the legal actions
            observation, _, done, _, _ = env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        match = env.unwrapped.table.match  # type: ignore[attr-defined]
        decisions += sum(len(entry["moves"]) for entry in match.history)
    elapsed = time.process_time() - start
    return steps / elapsed, decisions / elapsed


def rlcard_doudizhu(seconds: float, seed: int = 1) -> float | None:
    """Decisions per second of RLCard's ``doudizhu`` environment, or None without rlcard."""
    try:
        import rlcard  # type: ignore[import-not-found, import-untyped]
    except ImportError:
        return None
    rng = random.Random(seed)
    env = rlcard.make("doudizhu", config={"seed": seed})
    decisions = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="measurements per row")
    args = parser.parse_args()
    rows: dict[str, list[float]] = {"arena.game": [], "arena.game + observation": [],
                                    "pettingzoo": [], "gymnasium steps": [],
                                    "gymnasium decisions": [], "rlcard doudizhu": []}
    loops: list[tuple[str, Callable[[float], object]]] = [
        ("arena.game", bare), ("arena.game + observation", observed), ("pettingzoo", pettingzoo),
        ("gymnasium", gymnasium_steps), ("rlcard doudizhu", rlcard_doudizhu)]
    have_rlcard = True
    print(f"engine: {engine()}")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")
    for _ in range(args.rounds):
        for name, loop in loops:
            if name == "rlcard doudizhu" and not have_rlcard:
                continue
            result = loop(args.seconds)
            if result is None:
                have_rlcard = False
            elif isinstance(result, tuple):
                rows["gymnasium steps"].append(result[0])
                rows["gymnasium decisions"].append(result[1])
            else:
                assert isinstance(result, float)
                rows[name].append(result)
    print(f"load average after:  {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"President: preset runs, {PLAYERS} players; medians of {args.rounds} runs of "
          f"{args.seconds:g} s each, in turns")
    median = {name: statistics.median(values) for name, values in rows.items() if values}
    for name, value in median.items():
        low, high = min(rows[name]), max(rows[name])
        print(f"  {name:<24} {value:>10,.0f} /s   (range {low:,.0f} .. {high:,.0f})")
    floor = median["arena.game"]
    # Where a PettingZoo step's time goes: microseconds per decision of the three loops that
    # add one layer each (the differences are the layers', within the runs' spread).
    print("microseconds per decision: " + ", ".join(
        f"{name} {1e6 / median[name]:.2f}"
        for name in ("arena.game", "arena.game + observation", "pettingzoo")))
    print(f"pettingzoo / arena.game:             {median['pettingzoo'] / floor:.2f}")
    print(f"gymnasium decisions / arena.game:    {median['gymnasium decisions'] / floor:.2f}")
    if "rlcard doudizhu" in median:
        ratio = median["pettingzoo"] / median["rlcard doudizhu"]
        print(f"pettingzoo / rlcard doudizhu:        {ratio:.1f}  (target: at least 25)")
    else:
        print("rlcard doudizhu: skipped, rlcard is not installed (pip install rlcard)")


if __name__ == "__main__":
    main()
