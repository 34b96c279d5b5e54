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

Two things are opt-in. A **league** (``league`` steps apart): the cloned numbers and then
every ``league`` steps' numbers are kept as snapshots, and each seat beside the network is,
with even chance, a snapshot drawn from them (:func:`league_draw`) or the built-in whose
turn it is; the held-out checks still play the built-ins alone, so checks stay comparable
as the league grows. **A/B checks** (every ``ab_every`` checks, and on the cloned network):
the numbers of the check played against each of ``ab_against`` in the duplicate sets and
sequential test of ``arena ab`` (:func:`ab_check`), at most ``ab_sets`` sets each.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from arena.bot import Bot
from arena.game import Rules
from arena.plugins import registry
from arena.referee import InlineHost, play_bots, run_match
from arena.seeds import derive
from bots import GreedyBot
from bots.learned import LearnedBot, Network

if TYPE_CHECKING:
    from arena.ratings import SprtStatus

__all__ = ["LEAGUE_SHARE", "Tuning", "ab_check", "described", "duplicate_points", "improve",
           "league_draw", "opponents", "tuned"]

Vector = npt.NDArray[np.float64]
Bar = Callable[[int, int, str], None]
"""A progress bar: told the matches played, the matches planned and what is being done."""

League = tuple[Sequence[Callable[[], Bot]], npt.NDArray[np.int64]]
"""A league's snapshots (their makers) and :func:`league_draw`'s table of who sits where."""

LEAGUE_SHARE = 0.5
"""The chance that a seat beside the network is a snapshot of the league (else a built-in)."""


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
    league: int = 0
    """Steps between the league's snapshots (0: no league, the built-ins alone)."""
    ab_every: int = 0
    """Checks between A/B checks (0: none)."""
    ab_sets: int = 8
    """The most duplicate sets of an A/B check."""
    ab_against: tuple[str, ...] = ("greedy", "mc")
    """The baselines of the A/B checks (:func:`opponents`' texts)."""


def described(tuning: Tuning) -> str:
    """The tuning as a network's meta shows it: its fields, the league's and the A/B checks'
    only when they are on (a network made without them says what it always said)."""
    fields = asdict(tuning)
    if not tuning.league:
        del fields["league"]
    if not tuning.ab_every:
        for name in ("ab_every", "ab_sets", "ab_against"):
            del fields[name]
    return str(fields)


def opponents(texts: Sequence[str], option: str = "--against") -> list[Callable[[], Bot]]:
    """A maker of a bot per text: ``NAME``, an installed bot, or ``NAME:PLAYOUTS``, the bot
    made with that ``playouts`` (``mc:8``, a cheaper ``mc``); a ``ValueError`` naming a
    bad one and its ``option``."""
    makers: list[Callable[[], Bot]] = []
    for text in texts:
        name, _, playouts = text.partition(":")
        params: dict[str, int] = {}
        if playouts:
            if not playouts.isdigit() or int(playouts) < 1:
                raise ValueError(f"{option} {text}: PLAYOUTS must be a positive whole number")
            params["playouts"] = int(playouts)
        try:
            registry().create(name, **params)
        except Exception as error:
            raise ValueError(f"{option} {text}: {error}") from None
        makers.append(partial(_make, name, params))
    if not makers:
        raise ValueError(f"{option}: at least one opponent")
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
              "bf": network.bf + theta[:-1].astype(np.float32), **network.after}
    return Network(arrays, network.meta)


def league_draw(seed: int, step: int, deals: int, players: int,
                snapshots: int) -> npt.NDArray[np.int64]:
    """Who sits beside the network in step ``step``'s matches when a league of ``snapshots``
    plays: at ``[k, seat, place]`` (deal ``k``, the network in ``seat``, the seat ``place + 1``
    places after it), a snapshot's index with chance :data:`LEAGUE_SHARE`, else -1, the
    built-in whose turn it is; drawn from ``derive(seed, "league", step)``."""
    rng = np.random.default_rng(derive(seed, "league", step) % 2**32)
    shape = (deals, players, players - 1)
    snapshot = rng.random(shape) < LEAGUE_SHARE
    return np.where(snapshot, rng.integers(snapshots, size=shape), -1)


def duplicate_points(network: Network, rules: Rules, seeds: list[int],
                     against: Sequence[Callable[[], Bot]] = (GreedyBot,),
                     league: League | None = None,
                     played: Callable[[], None] = lambda: None) -> float:
    """The network's mean points a match over ``seeds``, each played once with the network
    in every seat and the makers ``against`` filling the others in turn from the seat
    after it; with a ``league`` (the snapshots' makers and :func:`league_draw`'s table), a
    snapshot where the table names one. ``played()`` is called after each match."""
    total = 0.0
    players = network.players
    for k, seed in enumerate(seeds):
        for seat in range(players):
            bots: list[Bot] = [against[(j - seat - 1) % players % len(against)]()
                               for j in range(players)]
            if league is not None:
                makers, table = league
                for place, index in enumerate(table[k, seat]):
                    if index >= 0:
                        bots[(seat + place + 1) % players] = makers[index]()
            bots[seat] = LearnedBot.playing(network)
            total += play_bots(bots, rules, seed)["scores"][seat]
            played()
    return total / (len(seeds) * network.players)


def ab_check(network: Network, against: str, sets: int,
             played: Callable[[], None] = lambda: None) -> SprtStatus:
    """What ``arena ab learned NAME --preset P --max-sets SETS`` (seed 0) says with
    ``network`` as ``learned`` and ``against`` (``NAME`` or ``NAME:PLAYOUTS``) as the
    baseline: the same duplicate sets, fed to the same test, played inline here.
    ``played()`` is called after each match."""
    from arena.tournament import Schedule, SprtFeed, SprtPlan, ab_config, validate_config

    name = against.partition(":")[0]
    baseline = opponents([against], "--ab-against")[0]
    config = validate_config(ab_config(
        [{"label": "learned", "name": "learned"}, {"label": name, "name": name}],
        players=network.players, preset=network.preset, max_sets=sets), source="--ab-against")
    schedule = Schedule(config)
    plan = SprtPlan(schedule.config, schedule.rules, schedule.limits)
    feed = SprtFeed(plan)
    index = 0
    while not feed.finished:
        for spec in plan.specs(index):
            bots = [LearnedBot.playing(network) if seat.label == plan.challenger else baseline()
                    for seat in spec.seats]
            feed.add(run_match(spec, hosts=[InlineHost.from_bot(bot) for bot in bots]))
            played()
        index += 1
    return feed.status()


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


def _planned(plan: Tuning, players: int, steps: int) -> int:
    """The matches of the stage's first ``steps`` steps, its checks and A/B checks included
    (each A/B check counted at its most sets)."""
    checks = steps // plan.check
    matches = (steps * 2 * plan.deals + (1 + checks) * plan.held) * players
    if plan.ab_every:
        per_set = players * (2 if players >= 3 else 1)
        matches += ((1 + checks // plan.ab_every) * len(plan.ab_against) * plan.ab_sets
                    * per_set)
    return matches


class _Stage:
    """One run of the stage: its plan, its state (saved after each step) and its progress."""

    def __init__(self, network: Network, seed: int, plan: Tuning, path: Path, basis: str,
                 progress: Callable[[str], None], spent: Callable[[], None],
                 bar: Bar | None, size: int) -> None:
        self.network, self.seed, self.plan, self.path = network, seed, plan, path
        self.progress, self.spent, self.bar, self.size = progress, spent, bar, size
        self.rules = Rules.preset(network.preset)
        if plan.league:
            basis += f", league {plan.league}"
        self.state = _state(path, size, basis)
        if plan.league:
            self.state.setdefault("snapshots", [[0.0] * size])
        self.held = [derive(seed, "held", k) for k in range(plan.held)]
        self.against = opponents(plan.against)
        self.total = _planned(plan, network.players, plan.steps)
        self.done = (_planned(plan, network.players, self.step)
                     if self.state["best"] is not None else 0)

    @property
    def step(self) -> int:
        return int(str(self.state["step"]))

    def played(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar(self.done, self.total, f"improve: step {self.step + 1}/{self.plan.steps}")

    def save(self) -> None:
        self.path.write_text(json.dumps(self.state))
        self.spent()

    def vector(self, name: str) -> Vector:
        return np.asarray(self.state[name], dtype=np.float64)

    def snapshots(self) -> list[list[float]]:
        kept: list[list[float]] = self.state["snapshots"]  # type: ignore[assignment]
        return kept

    def points(self, network: Network, seeds: list[int], league: League | None = None
               ) -> float:
        return duplicate_points(network, self.rules, seeds, self.against, league,
                                self.played)

    def ab_checks(self) -> None:
        """The A/B checks due at the step reached, unless the state has them already."""
        step, plan = self.step, self.plan
        if not plan.ab_every or step % (plan.check * plan.ab_every) or any(
                entry["step"] == step for entry in self.state.get("ab", [])):  # type: ignore[attr-defined]
            return
        results = []
        current = tuned(self.network, self.vector("theta"))
        for text in plan.ab_against:
            since = time.process_time()
            status = ab_check(current, text, plan.ab_sets, self.played)
            cpu = time.process_time() - since
            results.append({"step": step, "against": text, "decision": status.decision,
                            "sets": status.sets, "elo": status.elo,
                            "elo_low": status.elo_low, "elo_high": status.elo_high,
                            "cpu_s": round(cpu, 1)})
            self.progress(f"improve: ab at step {step} against {text}: {status.summary()} "
                          f"({cpu:.1f} CPU s)")
        self.state["ab"] = [*self.state.get("ab", []), *results]  # type: ignore[misc]
        self.save()

    def start(self) -> None:
        """The cloned network's held-out score, unless the state has it."""
        if self.state["best"] is None:
            self.state["best"] = self.state["cloned"] = self.points(self.network, self.held)
            self.save()
            self.progress(f"improve: the cloned network scores {self.state['best']:.3f} "
                          f"points a match against {', '.join(self.plan.against)} on "
                          f"{self.plan.held} held-out deals"
                          + (" (the checks play these, not the league)"
                             if self.plan.league else ""))
        self.ab_checks()

    def league(self, step: int) -> League | None:
        """The snapshots and who sits where at ``step``, with a league."""
        if not self.plan.league:
            return None
        kept: list[Callable[[], Bot]] = [
            partial(LearnedBot.playing, tuned(self.network, np.asarray(numbers)))
            for numbers in self.snapshots()]
        return kept, league_draw(self.seed, step, self.plan.deals, self.network.players,
                                 len(kept))

    def advance(self) -> None:
        """One step: the antithetic pair, Adam's move, a snapshot and a check when due."""
        step, plan, state = self.step, self.plan, self.state
        rng = np.random.default_rng(derive(self.seed, "step", step) % 2**32)
        theta, m, v = self.vector("theta"), self.vector("m"), self.vector("v")
        direction = rng.standard_normal(self.size)
        seeds = [derive(self.seed, "step", step, k) for k in range(plan.deals)]
        league = self.league(step)
        up = self.points(tuned(self.network, theta + plan.sigma * direction), seeds, league)
        down = self.points(tuned(self.network, theta - plan.sigma * direction), seeds, league)
        gradient = (up - down) / (2 * plan.sigma) * direction
        theta, m, v = _adam(theta, m, v, gradient, plan.rate, step)
        state.update(step=step + 1, theta=theta.tolist(), m=m.tolist(), v=v.tolist())
        line = f"improve: step {step + 1}/{plan.steps}, points {up:.2f} / {down:.2f}"
        if plan.league and (step + 1) % plan.league == 0:
            self.snapshots().append(theta.tolist())
            line += f"; kept as snapshot {len(self.snapshots()) - 1} of the league"
        if (step + 1) % plan.check == 0:
            score = self.points(tuned(self.network, theta), self.held)
            if score > float(str(state["best"])):
                state.update(best=score, best_theta=theta.tolist(), best_step=step + 1,
                             stale=0)
            else:
                state["stale"] = int(str(state["stale"])) + 1
                state["done"] = int(str(state["stale"])) >= plan.patience
            line += f"; held out {score:.3f} (best {float(str(state['best'])):.3f})"
        self.save()
        self.progress(line)
        self.ab_checks()

    def result(self) -> Network:
        """The network with the best numbers, its meta telling how they were found."""
        if self.bar is not None:
            self.bar(self.done, self.done, "improve: done")  # the stage may stop early
        network = tuned(self.network, self.vector("best_theta"))
        improved: dict[str, object] = {
            "steps": self.state["step"], "best_step": self.state.get("best_step", 0),
            "held_points": {"cloned": self.state.get("cloned"), "best": self.state["best"]},
            "against": list(self.plan.against)}
        if self.plan.league:
            improved["league"] = {"every": self.plan.league, "snapshots": len(self.snapshots())}
        if "ab" in self.state:
            improved["ab"] = self.state["ab"]
        network.meta = network.meta | {"improved": improved}
        return network


def improve(network: Network, seed: int, plan: Tuning, path: Path, basis: str = "",
            progress: Callable[[str], None] = print,
            spent: Callable[[], None] = lambda: None, bar: Bar | None = None) -> Network:
    """Tune ``network`` (which has a features head) as the module says; its state in
    ``path`` (JSON), resumed where it was saved for the same ``basis`` (what the network
    is: a state for another is started afresh); the network with the best numbers found.
    ``bar`` is told the matches played after each one, and the stage's end."""
    size = len(network.bf) + 1 if network.bf is not None else 0
    if size == 0:
        progress("improve: the network has no features head; nothing to tune")
        return network
    stage = _Stage(network, seed, plan, path, basis, progress, spent, bar, size)
    stage.start()
    while not stage.state["done"] and stage.step < plan.steps:
        stage.advance()
    return stage.result()
