"""Train the linear agent of arena_learning_agent against arena's bots, on the CPU, in minutes.

The cross-entropy method: each generation draws a population of weight vectors around the
current mean, plays each for ``--matches`` matches in the Gymnasium environment (the learner
in a seat that moves round the table, the opponents arena bots by name, the same seeds for
every candidate so they are compared on the same cards), and moves the mean to the best
tenth. The reward is the learner's points. The result is written to weights.json.

    python examples/learning-agent/train.py [--generations 12] [--opponents random random random]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import arena.env  # noqa: F401 (registers arena/President-v0)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arena_learning_agent import FEATURES, WEIGHTS, policy_for


def fitness(env: Any, weights: np.ndarray, seeds: list[int]) -> float:
    """The learner's mean points per match with ``weights``, over the matches of ``seeds``."""
    inner = env.unwrapped
    policy = policy_for(list(weights), inner.rules, inner.players)
    total = 0.0
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            action = policy(observation["observation"], observation["action_mask"])
            observation, reward, done, _, _ = env.step(action)
            total += reward
    return total / len(seeds)


def train(opponents: list[str], preset: str, generations: int, population: int, matches: int,
          seed: int = 0, rounds: int = 2, log: bool = True) -> tuple[list[float], float]:
    """The trained weights and their last fitness."""
    env = gymnasium.make("arena/President-v0", opponents=opponents, preset=preset, seat=None,
                         rounds=rounds)
    rng = np.random.default_rng(seed)
    mean = np.zeros(len(FEATURES))
    spread = np.ones(len(FEATURES))
    elite = max(2, population // 10)
    best = 0.0
    for generation in range(generations):
        seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=matches)]
        candidates = mean + spread * rng.standard_normal((population, len(FEATURES)))
        scores = np.array([fitness(env, w, seeds) for w in candidates])
        order = np.argsort(scores)[::-1][:elite]
        mean = candidates[order].mean(axis=0)
        spread = candidates[order].std(axis=0) + 0.05
        best = float(scores[order[0]])
        if log:
            print(f"generation {generation + 1}/{generations}: best {best:.2f}, "
                  f"elite mean {scores[order].mean():.2f} points per match", flush=True)
    return [round(float(w), 4) for w in mean], best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", nargs="+", default=["random", "random", "random"])
    parser.add_argument("--preset", default="runs")
    parser.add_argument("--generations", type=int, default=12)
    parser.add_argument("--population", type=int, default=20)
    parser.add_argument("--matches", type=int, default=12, help="matches per candidate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    start = time.perf_counter()
    weights, best = train(args.opponents, args.preset, args.generations, args.population,
                          args.matches, args.seed)
    args.out.write_text(json.dumps({
        "features": list(FEATURES), "weights": weights, "preset": args.preset,
        "opponents": args.opponents, "generations": args.generations,
        "population": args.population, "matches": args.matches, "seed": args.seed,
        "points_per_match": best,
    }, indent=2) + "\n", encoding="utf-8")
    learnt = dict(zip(FEATURES, weights, strict=True))
    print(f"wrote {args.out} after {time.perf_counter() - start:.0f} s: {learnt}")


if __name__ == "__main__":
    main()
