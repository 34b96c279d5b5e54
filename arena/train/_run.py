"""The pipeline of ``python -m arena.train``: label, fit, export, from one seed, resumable.

Everything a run makes lies in its folder: the shards of labels (``labels/``), the
trainer's state after the last epoch (``state.npz``) and the CPU seconds each stage has
spent (``cpu.json``, added up across resumed runs). Running the same command again goes on
where it stopped; the network is exported after the last epoch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.bot import Bot
from arena.env import encoding
from arena.game import Rules
from arena.seeds import derive
from bots import ExpertBot, McBot, guided_bot
from bots.learned import (
    FEATURE_LAYERS,
    LAYERS,
    WEIGHTS,
    LearnedBot,
    Network,
    fits,
    load_network,
    supported,
)

from ._clock import Clock
from ._feats import attach
from ._fit import Trainer, agreement, export, init_params
from ._improve import Bar, Tuning, described, improve, opponents
from ._label import Seat, joined, label_shards, load_shards
from ._suits import permutations
from ._torch import TorchTrainer, torch_missing

__all__ = ["Plan", "run"]


@dataclass(frozen=True)
class Plan:
    """What one training run does (the options of ``python -m arena.train``)."""

    folder: Path
    preset: str = "runs"
    players: int = 4
    seed: int = 1
    shards: int = 20
    per_shard: int = 10
    budget: int = 200
    hidden: int = 256
    epochs: int = 10
    batch: int = 256
    rate: float = 1e-3
    suits: bool = True
    out: Path | None = None
    features: bool = True
    exchange: str = "greedy"
    tuning: Tuning = field(default_factory=Tuning)
    backend: str = "numpy"
    """Who computes the cloning stage's gradients: ``numpy`` or ``torch``
    (:mod:`arena.train._torch`)."""
    jobs: int = 1
    """Processes labelling shards at once (the shards are the same whatever their number)."""
    soft: float = 0.0
    """The share of a move's target spread over the teacher's candidates by their playouts
    (0: the teacher's choice alone)."""
    dagger: int = 0
    """Shards (of ``per_shard`` matches) of the student's own play labelled by the teacher
    and added to the fit (DAgger; 0: none)."""
    dagger_against: tuple[str, ...] = ("mc",)
    """The bots beside the student in those matches (:func:`arena.train._improve.opponents`)."""
    teacher: str = "expert"
    """Who labels the matches at ``budget`` playouts a decision: ``expert``, or ``guided``
    (expert whose search the network ``teacher_weights`` guides: by default the shipped
    network of the preset; a run's own export for a round of expert iteration)."""
    teacher_weights: Path | None = None
    temperature: float = 0.0
    """Above 0, ``soft`` is spread by the softmax of the candidates' average points at this
    temperature rather than by their playouts (labels of ``mc``: :func:`batch_targets`)."""
    after: int = 0
    """Units of the after-move head (:mod:`bots.after`; 0: none)."""

    def __post_init__(self) -> None:
        Rules.preset(self.preset)  # a ValueError naming a bad preset
        numbers = {"players": self.players, "shards": self.shards,
                   "per-shard": self.per_shard, "budget": self.budget,
                   "hidden": self.hidden, "epochs": self.epochs, "batch": self.batch,
                   "step-deals": self.tuning.deals, "held-deals": self.tuning.held,
                   "ab-sets": self.tuning.ab_sets, "jobs": self.jobs}
        for name, value in numbers.items():
            if value < 1:
                raise ValueError(f"--{name} must be at least 1, not {value}")
        for name, value in {"steps": self.tuning.steps, "league": self.tuning.league,
                            "ab-every": self.tuning.ab_every, "dagger": self.dagger,
                            "after": self.after}.items():
            if value < 0:
                raise ValueError(f"--{name} must be at least 0, not {value}")
        if self.exchange not in ("greedy", "network"):
            raise ValueError(f"--exchange must be greedy or network, not {self.exchange!r}")
        if self.backend not in ("numpy", "torch"):
            raise ValueError(f"--backend must be numpy or torch, not {self.backend!r}")
        if self.backend == "torch" and (missing := torch_missing()) is not None:
            raise ValueError(missing)
        if self.shards < 2:
            raise ValueError("--shards must be at least 2: the last one is held out")
        opponents(self.tuning.against)  # a ValueError naming a bad opponent
        opponents(self.tuning.ab_against, "--ab-against")
        opponents(self.dagger_against, "--dagger-against")
        if "learned" in [text.partition(":")[0] for text in self.tuning.ab_against]:
            raise ValueError("--ab-against learned: the network under test plays as learned")
        if not 0 <= self.soft <= 1:
            raise ValueError(f"--soft must be between 0 and 1, not {self.soft}")
        if not self.temperature >= 0:
            raise ValueError(f"--temperature must be at least 0, not {self.temperature}")
        if self.temperature and self.teacher != "mc":
            raise ValueError("--temperature: only --teacher mc reports its candidates' "
                             "average points")
        if self.after and not (self.features and self.backend == "numpy"):
            raise ValueError("--after: the after-move head reads the move features and is "
                             "fitted by the numpy backend (--features, --backend numpy)")
        if self.temperature and not self.soft:
            raise ValueError("--temperature spreads --soft's share of a move's target: "
                             "give --soft above 0 too, or --temperature 0")
        if not self.rate > 0:
            raise ValueError(f"--rate must be positive, not {self.rate}")
        if self.teacher not in TEACHERS:
            raise ValueError(f"--teacher must be one of {', '.join(TEACHERS)}, "
                             f"not {self.teacher!r}")
        if self.teacher_weights is not None and self.teacher != "guided":
            raise ValueError("--teacher-weights: only --teacher guided reads a network")
        if self.teacher == "guided":
            _guide(self)  # a ValueError naming a file that is no network of the table


TEACHERS = ("expert", "guided", "mc")
"""Who may label: ``expert`` at ``--budget`` playouts a decision, ``guided`` (``expert``
guided by a network) at as many, or ``mc`` at ``--budget`` rounds of playouts (every
candidate played out on each guessed deal: its default is 48)."""


def _guide(plan: Plan) -> Path:
    """The network file that guides a ``guided`` teacher: ``--teacher-weights``, else the
    shipped network of the plan's table; a ``ValueError`` naming what does not fit."""
    rules = Rules.preset(plan.preset)
    table = f"{plan.preset} at {plan.players} seats"
    if plan.teacher_weights is None:
        for preset in supported():
            path = WEIGHTS / f"learned-{preset}.npz"
            if fits(load_network(path), rules, plan.players):
                return path
        raise ValueError(f"--teacher guided: no shipped network reads {table}; "
                         "give one with --teacher-weights")
    if not fits(load_network(plan.teacher_weights), rules, plan.players):
        raise ValueError(f"--teacher-weights {plan.teacher_weights}: a network of another "
                         f"table than {table}")
    return plan.teacher_weights


def _teacher_named(plan: Plan) -> str:
    """The teacher as the labels, the fit's basis and the network's meta name it (``expert``;
    ``guided`` with the first 12 hex digits of its network file's SHA-256)."""
    if plan.teacher != "guided":
        return plan.teacher
    digest = hashlib.sha256(_guide(plan).read_bytes()).hexdigest()[:12]
    return f"guided by {digest}"


def _teacher_basis(plan: Plan) -> str:
    """What a basis (the fit's, the DAgger shards') adds for the teacher: nothing for
    ``expert`` (as every run before the option), else its name."""
    return "" if plan.teacher == "expert" else f", teacher {_teacher_named(plan)}"


def _teacher(plan: Plan) -> Callable[[], Bot]:
    # A budget that ends before the clock: the labels replay from the seed.
    budget = plan.budget
    if plan.teacher == "guided":
        weights = str(_guide(plan))
        return lambda: guided_bot(weights=weights, budget=budget, move_ms=60_000)
    if plan.teacher == "mc":  # --budget rounds of playouts, every candidate in each
        return lambda: McBot(playouts=budget, share=1.0, move_ms=3_600_000)
    return lambda: ExpertBot(budget=budget, move_ms=60_000)


def _check_labels(folder: Path, teacher: str) -> None:
    """Refuse to add to labels another teacher made: a folder labelled by a teacher other
    than ``expert`` names it in ``teacher.txt`` (a folder without it was labelled by
    ``expert``, as every run before the option)."""
    named = folder / "teacher.txt"
    made = named.read_text().strip() if named.exists() else "expert"
    if any(folder.glob("shard-????.npz")) and made != teacher:
        raise ValueError(f"{folder}: labelled by {made}, not {teacher}; label another folder")
    if teacher != "expert":
        folder.mkdir(parents=True, exist_ok=True)
        named.write_text(teacher + "\n")


def _fit_basis(plan: Plan) -> str:
    """What a fit's state is made for: its data (the labels' seed, shards and budget) and
    the network's shape. A state saved for another is not resumed, so raising ``--shards``
    in a folder fits the larger data afresh (its last shard now held out); the options of
    later epochs (``--epochs``, ``--batch``, ``--rate``, ``--soft``...) may change on resuming."""
    return (f"{plan.preset} {plan.players} seats, seed {plan.seed}, {plan.shards} shards of "
            f"{plan.per_shard}, budget {plan.budget}, hidden {plan.hidden}, "
            f"features {plan.features}" + (f", after {plan.after}" if plan.after else "")
            + _teacher_basis(plan))


def _improved(plan: Plan, trainer: Trainer, clock: Clock, progress: Callable[[str], None],
              bar: Bar | None = None, state: str = "improve.json"
              ) -> tuple[dict[str, npt.NDArray[np.float32]], Any]:
    """The cloned network after the improvement stage (when the plan has one), and what the
    stage did; its state kept in the folder's file ``state``."""
    if not (plan.features and plan.tuning.steps):
        return trainer.params, None
    network = improve(Network(trainer.params, {"preset": plan.preset, "players": plan.players,
                                               "exchange": plan.exchange}),
                      derive(plan.seed, "improve"), plan.tuning, plan.folder / state,
                      f"{trainer.basis}, epoch {trainer.epoch}, exchange {plan.exchange}"
                      + (f", soft {plan.soft}" if plan.soft else "")
                      + (f", temperature {plan.temperature}" if plan.temperature else "")
                      + ("" if plan.tuning.against == ("greedy",)
                         else f", against {', '.join(plan.tuning.against)}"), progress,
                      clock.stage("improve"), bar)
    return ({name: getattr(network, name) for name in LAYERS + FEATURE_LAYERS} | network.after,
            network.meta["improved"])


Data = dict[str, npt.NDArray[Any]]


def _fitted(plan: Plan, train: Data, held: Data, state: Path, basis: str, clock: Clock,
            progress: Callable[[str], None]) -> Trainer:
    """The trainer fitted to ``train`` for ``plan.epochs`` epochs, resumed from ``state``
    when it was saved for ``basis``, else fitted afresh."""
    coder = encoding(Rules.preset(plan.preset), plan.players)
    actions = coder.action_size
    fitted = clock.stage("fit")
    backend = TorchTrainer if plan.backend == "torch" else Trainer
    saved = backend.load(state) if state.exists() else None
    if saved is not None and saved.basis == basis:
        trainer = saved
        progress(f"fit: resumed after epoch {trainer.epoch}")
    else:
        if saved is not None:
            progress(f"fit: {state} was fitted for another plan ({saved.basis or 'unnamed'});"
                     " fitting afresh")
        obs_size = coder.segments[-1].offset + coder.segments[-1].length
        trainer = backend(init_params(obs_size, actions, coder.segments[0].length,
                                      plan.hidden, derive(plan.seed, "init") % 2**32,
                                      plan.features, plan.after), plan.rate)
        trainer.basis = basis
    trainer.coder = coder
    renamings = permutations(coder) if plan.suits else None
    while trainer.epoch < plan.epochs:
        rng = np.random.default_rng(derive(plan.seed, "epoch", trainer.epoch) % 2**32)
        move_loss, gift_loss = trainer.epoch_pass(train, actions, plan.batch, rng, renamings,
                                                   plan.soft, plan.temperature)
        trainer.save(state)
        fitted()
        progress(f"fit: epoch {trainer.epoch}/{plan.epochs}, move loss {move_loss:.3f}, "
                 f"exchange loss {gift_loss:.3f}, held-out agreement with the teacher "
                 f"{agreement(trainer, held, actions):.1%}")
    fitted()
    return trainer


def dagger_seats(plan: Plan, student: Network) -> Callable[[int], list[Seat]]:
    """The seats of DAgger match ``k``: the student in every other seat from seat ``k``
    (labelled by the teacher), the ``dagger_against`` bots in the others in turn."""
    makers = opponents(plan.dagger_against, "--dagger-against")

    def seats(k: int) -> list[Seat]:
        table: list[Seat] = []
        for seat in range(plan.players):
            if (seat - k) % 2 == 0:
                table.append((partial(LearnedBot.playing, student), True))
            else:
                table.append((makers[(seat // 2) % len(makers)], False))
        return table

    return seats


def _digest(params: dict[str, npt.NDArray[np.float32]]) -> str:
    digest = hashlib.sha256()
    for name in sorted(params):
        digest.update(name.encode() + np.ascontiguousarray(params[name]).tobytes())
    return digest.hexdigest()[:16]


def _dagger(plan: Plan, params: dict[str, npt.NDArray[np.float32]], clock: Clock,
            progress: Callable[[str], None]) -> tuple[list[Path], str]:
    """The shards of the DAgger stage (``dagger/``): matches of ``--dagger-against`` and the
    student (the network ``params``) labelled by the teacher where the student plays, and
    what they were labelled for (the student's digest, the opponents). Shards labelled for
    another student are labelled again."""
    folder = plan.folder / "dagger"
    basis = (f"student {_digest(params)}, against {', '.join(plan.dagger_against)}, "
             f"{plan.per_shard} a shard, budget {plan.budget}"
             + _teacher_basis(plan))
    kept = folder / "basis.txt"
    if kept.exists() and kept.read_text() != basis:
        progress(f"dagger: {folder} was labelled for another student or plan; labelling afresh")
        for path in folder.glob("shard-*.npz"):
            path.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    kept.write_text(basis)
    student = Network(params, {"preset": plan.preset, "players": plan.players,
                               "exchange": plan.exchange})
    paths = label_shards(folder, plan.preset, plan.players, derive(plan.seed, "dagger"),
                         plan.dagger, plan.per_shard, _teacher(plan), progress,
                         clock.stage("dagger"), plan.jobs, dagger_seats(plan, student),
                         "dagger")
    return paths, basis


def run(plan: Plan, progress: Callable[[str], None] = print, bar: Bar | None = None) -> Path:
    """Run ``plan`` to its end; the path of the exported network. ``bar`` shows the
    improvement stage's progress (:func:`arena.train._improve.improve`)."""
    plan.folder.mkdir(parents=True, exist_ok=True)
    clock = Clock(plan.folder / "cpu.json")
    coder = encoding(Rules.preset(plan.preset), plan.players)
    actions = coder.action_size

    _check_labels(plan.folder / "labels", _teacher_named(plan))
    paths = label_shards(plan.folder / "labels", plan.preset, plan.players,
                         derive(plan.seed, "labels"), plan.shards, plan.per_shard,
                         _teacher(plan), progress, clock.stage("label"), plan.jobs)
    train, held = load_shards(paths[:-1]), load_shards(paths[-1:])
    if plan.features:
        train, held = attach(coder, train, paths[:-1]), attach(coder, held, paths[-1:])
    progress(f"data: {len(train['action'])} moves and {len(train['gift'])} exchanges to fit, "
             f"{len(held['action'])} moves held out")

    trainer = _fitted(plan, train, held, plan.folder / "state.npz", _fit_basis(plan), clock,
                      progress)
    params, improved = _improved(plan, trainer, clock, progress, bar)
    dagger: dict[str, Any] | None = None
    if plan.dagger:
        more, basis = _dagger(plan, params, clock, progress)
        extra = load_shards(more)
        if plan.features:
            extra = attach(coder, extra, more)
        dagger = {"moves": len(extra["action"]), "agreement_before": round(
            agreement(trainer, held, actions), 4)}
        train = joined(train, extra)
        progress(f"dagger: {dagger['moves']} moves of the student's play added, "
                 f"{len(train['action'])} to fit")
        trainer = _fitted(plan, train, held, plan.folder / "state-dagger.npz",
                          f"{_fit_basis(plan)}, dagger {plan.dagger} shards, {basis}", clock,
                          progress)
        params, improved = _improved(plan, trainer, clock, progress, bar, "improve-dagger.json")
    out = plan.out or plan.folder / f"learned-{plan.preset}.npz"
    meta = {"preset": plan.preset, "players": plan.players, "exchange": plan.exchange,
            "plan": {k: described(plan.tuning) if k == "tuning" else str(v)
                     for k, v in asdict(plan).items()
                     if k not in ("folder", "out", "jobs")
                     and not (k.startswith("dagger") and not plan.dagger)
                     and not (k.startswith("teacher") and plan.teacher == "expert")
                     and not (k in ("temperature", "after") and not getattr(plan, k))},
            "moves": len(train["action"]), "exchanges": len(train["gift"]),
            "agreement": round(agreement(trainer, held, actions), 4),
            "cpu_seconds": {k: round(v, 1) for k, v in clock.spent.items()},
            "improved": improved}
    if plan.teacher != "expert":
        meta["plan"]["teacher"] = _teacher_named(plan)
    if dagger is not None:
        meta["dagger"] = dagger
    export(params, meta, out, progress)
    progress(f"CPU time: {', '.join(f'{k} {v:.0f} s' for k, v in clock.spent.items())}")
    return out

