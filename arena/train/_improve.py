"""Improvement by play: the cloned network tuned on its own results against the built-ins.

Cloning copies the teacher's choices; it does not ask whether they win. This stage tunes a
few numbers of the network on the points it scores: a bias added to each move feature's
weight (:data:`bots.learned.FEATURES`; the head ``bf``) and a scale of the network's own move
scores (``wm``, ``bm``), by evolution strategies with antithetic pairs. Each step draws a
direction, plays the network moved a little each way on the same deals (duplicate: each
deal once with the network in every seat, the opponents in the others), and moves the
numbers by Adam along the difference of their mean points. Every ``check`` steps the
numbers are scored on held-out deals, and the best so far is kept; the stage stops when
``patience`` checks in a row have not beaten it, or at ``steps``. Its state is saved after
every step, so a run resumes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from arena.bot import Bot
from arena.game import Rules
from arena.plugins import registry
from arena.referee import play_bots
from arena.seeds import derive
from bots import GreedyBot
from bots.learned import LearnedBot, Network

__all__ = ["Tuning", "duplicate_points", "improve", "opponents", "tuned"]

Vector = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Tuning:
    """The plan of the stage (``python -m arena.train``'s ``--steps`` and the rest)."""

    steps: int = 60
    deals: int = 8
    """Deals (each played once per seat of the network) per side of a step."""
    check: int = 20
    held: int = 64
    """Held-out deals of a check."""
    patience: int = 3
    sigma: float = 0.3
    rate: float = 0.1
    against: tuple[str, ...] = ("greedy",)
    """The opponents (:func:`opponents`), filling the other seats in turn."""


def opponents(texts: Sequence[str]) -> list[Callable[[], Bot]]:
    """A maker of a bot per text: ``NAME``, an installed bot, or ``NAME:PLAYOUTS``, the bot
    made with that ``playouts`` (``mc:8``, a cheaper ``mc``); a ``ValueError`` naming a
    bad one."""
    makers: list[Callable[[], Bot]] = []
    for text in texts:
        name, _, playouts = text.partition(":")
        params: dict[str, int] = {}
        if playouts:
            if not playouts.isdigit() or int(playouts) < 1:
                raise ValueError(f"--against {text}: PLAYOUTS must be a positive whole number")
            params["playouts"] = int(playouts)
        try:
            registry().create(name, **params)
        except Exception as error:
            raise ValueError(f"--against {text}: {error}") from None
        makers.append(partial(_make, name, params))
    if not makers:
        raise ValueError("--against: at least one opponent")
    return makers


def _make(name: str, params: dict[str, int]) -> Bot:
    return registry().create(name, **params)


def tuned(network: Network, theta: Vector) -> Network:
    """``network`` with ``theta[:-1]`` added to its feature biases and its move scores
    scaled by ``1 + theta[-1]``."""
    assert network.bf is not None
    arrays = {"w0": network.w0, "b0": network.b0, "w1": network.w1, "b1": network.b1,
              "wm": network.wm * (1 + theta[-1]), "bm": network.bm * (1 + theta[-1]),
              "wg": network.wg, "bg": network.bg, "wf": network.wf,
              "bf": network.bf + theta[:-1].astype(np.float32)}
    return Network(arrays, network.meta)


def duplicate_points(network: Network, rules: Rules, seeds: list[int],
                     against: Sequence[Callable[[], Bot]] = (GreedyBot,)) -> float:
    """The network's mean points a match over ``seeds``, each played once with the network
    in every seat and the makers ``against`` filling the others in turn from the seat
    after it."""
    total = 0.0
    players = network.players
    for seed in seeds:
        for seat in range(players):
            bots: list[Bot] = [against[(j - seat - 1) % players % len(against)]()
                               for j in range(players)]
            bots[seat] = LearnedBot.playing(network)
            total += play_bots(bots, rules, seed)["scores"][seat]
    return total / (len(seeds) * network.players)


def _state(path: Path, size: int, basis: str) -> dict[str, object]:
    if path.exists():
        saved: dict[str, object] = json.loads(path.read_text())
        if saved.get("basis") == basis:
            return saved
    return {"basis": basis, "step": 0, "theta": [0.0] * size, "m": [0.0] * size, "v": [0.0] * size,
            "best": None, "best_theta": [0.0] * size, "stale": 0, "done": False}


def _adam(theta: Vector, m: Vector, v: Vector, gradient: Vector, rate: float,
          step: int) -> tuple[Vector, Vector, Vector]:
    """One ascent step of Adam at ``step`` (from 0): the new numbers and moments."""
    m = 0.9 * m + 0.1 * gradient
    v = 0.999 * v + 0.001 * gradient * gradient
    theta = theta + rate * (m / (1 - 0.9 ** (step + 1))) / (
        np.sqrt(v / (1 - 0.999 ** (step + 1))) + 1e-8)
    return theta, m, v


def improve(network: Network, seed: int, plan: Tuning, path: Path, basis: str = "",
            progress: Callable[[str], None] = print,
            spent: Callable[[], None] = lambda: None) -> Network:
    """Tune ``network`` (which has a features head) as the module says; its state in
    ``path`` (JSON), resumed where it was saved for the same ``basis`` (what the network
    is: a state for another is started afresh); the network with the best numbers found."""
    rules = Rules.preset(network.preset)
    size = len(network.bf) + 1 if network.bf is not None else 0
    if size == 0:
        progress("improve: the network has no features head; nothing to tune")
        return network
    state = _state(path, size, basis)
    held = [derive(seed, "held", k) for k in range(plan.held)]
    against = opponents(plan.against)
    names = ", ".join(plan.against)

    def save() -> None:
        path.write_text(json.dumps(state))
        spent()

    def vector(name: str) -> Vector:
        return np.asarray(state[name], dtype=np.float64)

    if state["best"] is None:
        state["best"] = state["cloned"] = duplicate_points(network, rules, held, against)
        save()
        progress(f"improve: the cloned network scores {state['best']:.3f} points a match "
                 f"against {names} on {plan.held} held-out deals")
    while not state["done"] and int(str(state["step"])) < plan.steps:
        step = int(str(state["step"]))
        rng = np.random.default_rng(derive(seed, "step", step) % 2**32)
        theta, m, v = vector("theta"), vector("m"), vector("v")
        direction = rng.standard_normal(size)
        seeds = [derive(seed, "step", step, k) for k in range(plan.deals)]
        up = duplicate_points(tuned(network, theta + plan.sigma * direction), rules, seeds, against)
        down = duplicate_points(tuned(network, theta - plan.sigma * direction), rules, seeds,
                                against)
        gradient = (up - down) / (2 * plan.sigma) * direction
        theta, m, v = _adam(theta, m, v, gradient, plan.rate, step)
        state.update(step=step + 1, theta=theta.tolist(), m=m.tolist(), v=v.tolist())
        line = f"improve: step {step + 1}/{plan.steps}, points {up:.2f} / {down:.2f}"
        if (step + 1) % plan.check == 0:
            score = duplicate_points(tuned(network, theta), rules, held, against)
            if score > float(str(state["best"])):
                state.update(best=score, best_theta=theta.tolist(), best_step=step + 1,
                             stale=0)
            else:
                state["stale"] = int(str(state["stale"])) + 1
                state["done"] = int(str(state["stale"])) >= plan.patience
            line += f"; held out {score:.3f} (best {float(str(state['best'])):.3f})"
        save()
        progress(line)
    network = tuned(network, vector("best_theta"))
    network.meta = network.meta | {"improved": {
        "steps": state["step"], "best_step": state.get("best_step", 0),
        "held_points": {"cloned": state.get("cloned"), "best": state["best"]},
        "against": list(plan.against)}}
    return network
