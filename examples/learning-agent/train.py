"""Train the linear agent of arena_learning_agent against arena's bots, on the CPU, in minutes.

The cross-entropy method: each generation draws a population of weight vectors around the
current mean, plays each for ``--matches`` matches in the Gymnasium environment (the learner
in a seat that moves round the table, the opponents arena bots by name, the same seeds for
every candidate so they are compared on the same cards), and moves the mean to the best
tenth. The reward is the learner's points. Each generation's mean is then played on the same
held-out matches (``--held-out``, 240, the same for every generation), and the mean that did
best there is kept: a generation's best candidate scores on its own few matches, which
flatters it, and a later mean is not always a better one. The kept weights are written to
weights.json with their held-out score.

    python examples/learning-agent/train.py [--generations 12] [--opponents random random random]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import arena.env  # noqa: F401 (registers arena/President-v0)
from arena.seeds import derive

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


@dataclass
class Trained:
    """The kept weights, their held-out points per match and generation (from 1), and every
    generation's mean weights with their held-out score."""

    weights: list[float]
    score: float
    generation: int
    history: list[tuple[list[float], float]] = field(default_factory=list)


def train(opponents: list[str], preset: str, generations: int, population: int, matches: int,
          seed: int = 0, rounds: int = 2, log: bool = True, held_out: int = 240) -> Trained:
    """The generation's mean weights that did best on the held-out matches."""
    env = gymnasium.make("arena/President-v0", opponents=opponents, preset=preset, seat=None,
                         rounds=rounds)
    rng = np.random.default_rng(seed)
    checks = [derive(seed, "held-out", i) for i in range(held_out)]
    mean = np.zeros(len(FEATURES))
    spread = np.ones(len(FEATURES))
    elite = max(2, population // 10)
    kept = Trained([], -np.inf, 0)
    for generation in range(generations):
        seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=matches)]
        candidates = mean + spread * rng.standard_normal((population, len(FEATURES)))
        scores = np.array([fitness(env, w, seeds) for w in candidates])
        order = np.argsort(scores)[::-1][:elite]
        mean = candidates[order].mean(axis=0)
        spread = candidates[order].std(axis=0) + 0.05
        weights = [round(float(w), 4) for w in mean]
        score = fitness(env, np.asarray(weights), checks)
        kept.history.append((weights, score))
        if score >= kept.score:  # a tie goes to the later, longer trained
            kept.weights, kept.score, kept.generation = weights, score, generation + 1
        if log:
            print(f"generation {generation + 1}/{generations}: best candidate "
                  f"{scores[order[0]]:.2f}, elite {scores[order].mean():.2f}, the mean on "
                  f"the held-out matches {score:.2f} points per match"
                  f"{' (kept)' if kept.generation == generation + 1 else ''}", flush=True)
    return kept


def _installed() -> str | None:
    """Where the installed arena_learning_agent is (its ``__init__.py``), found as it would be
    without this folder on the path (an editable install finds this folder), or None."""
    here = str(Path(__file__).resolve().parent)
    path = [p for p in sys.path if str(Path(p or ".").resolve()) != here]
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find("arena_learning_agent", path) if find is not None else None
        if spec is not None:
            return spec.origin
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", nargs="+", default=["random", "random", "random"])
    parser.add_argument("--preset", default="runs")
    parser.add_argument("--generations", type=int, default=12)
    parser.add_argument("--population", type=int, default=20)
    parser.add_argument("--matches", type=int, default=12, help="matches per candidate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--held-out", type=int, default=240,
                        help="matches each generation's mean is judged on")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    start = time.perf_counter()
    kept = train(args.opponents, args.preset, args.generations, args.population,
                 args.matches, args.seed, held_out=args.held_out)
    args.out.write_text(json.dumps({
        "features": list(FEATURES), "weights": kept.weights, "preset": args.preset,
        "opponents": args.opponents, "generations": args.generations,
        "population": args.population, "matches": args.matches, "seed": args.seed,
        "held_out": args.held_out, "generation": kept.generation,
        "points_per_match": kept.score,
    }, indent=2) + "\n", encoding="utf-8")
    learnt = dict(zip(FEATURES, kept.weights, strict=True))
    print(f"wrote {args.out} after {time.perf_counter() - start:.0f} s: generation "
          f"{kept.generation}'s weights, {kept.score:.2f} points per match on the held-out "
          f"matches: {learnt}")
    origin = _installed()
    if origin is None:
        return
    read = Path(origin).resolve().with_name(WEIGHTS.name)
    if read != WEIGHTS.resolve():
        print(f"note: the installed bot trained-agent is a copy, which reads {read}: install "
              "this folder editable to play the weights trained here (pip install -e "
              "examples/learning-agent)")
    elif read != args.out.resolve():
        print(f"note: the bot trained-agent reads {read}, not {args.out}")


if __name__ == "__main__":
    main()
