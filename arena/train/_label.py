"""The data of behaviour cloning: the teacher's choices on positions the engine generates.

A match is played by the teacher in every seat (``expert`` with a fixed playout budget, so
the labels replay from the seed), observed as the environments observe it;
every decision with more than one legal action is kept as its observation, its
legal-action mask (bit-packed), the action the teacher chose and the playouts its search
gave each candidate action and the candidate's average points where the teacher reports
them (``mc``; ``soft_*``: one playout on its choice when no search chose),
and every exchange return as its observation, the hand and the cards given. Matches are
labelled in shards of a fixed number of matches, each saved when done, so an interrupted
run resumes at the first missing shard; shards may be labelled in several processes at
once, and a shard is the same whichever labels it.

A match may also seat other players (:data:`Seat`): the student network whose positions the
teacher labels while the student's moves are played (the data of DAgger), or opponents
whose decisions are played and not kept.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from arena.bot import Bot, MatchInfo
from arena.env import PlayedCards, encoding
from arena.game import Card, Match, Rules
from arena.seeds import bot_rng, derive

__all__ = ["Samples", "Seat", "joined", "label_match", "label_shards", "load_shards"]

Teacher = Callable[[], Bot]
Seat = tuple[Callable[[], Bot], bool]
"""Who plays a seat of a labelled match (a maker of its bot) and whether the teacher labels
its decisions: the teacher itself (labelled: its own choices), a student (labelled: the
teacher's choice is kept, the student's move played) or an opponent (not labelled)."""
Table = Callable[[int], list[Seat]]
"""The seats of match ``k`` of a labelling (``None`` in its place: the teacher in every seat)."""
SAVEZ: Callable[..., None] = np.savez_compressed
"""numpy's, typed to take arrays by keyword."""


@dataclass
class Samples:
    """Labelled decisions: moves (``obs``, packed ``mask``, ``action``; the playouts of the
    teacher's candidates as ``soft_count`` actions a move, listed in ``soft_action``,
    ``soft_visits`` and ``soft_value``, their average points, 0 from a teacher that does not
    report them) and exchange returns (``gift_obs``, ``hand`` and ``gift`` as card-field
    flags)."""

    obs: list[npt.NDArray[np.int8]] = field(default_factory=list)
    mask: list[npt.NDArray[np.uint8]] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    gift_obs: list[npt.NDArray[np.int8]] = field(default_factory=list)
    hand: list[npt.NDArray[np.int8]] = field(default_factory=list)
    gift: list[npt.NDArray[np.int8]] = field(default_factory=list)
    soft_count: list[int] = field(default_factory=list)
    soft_action: list[int] = field(default_factory=list)
    soft_visits: list[int] = field(default_factory=list)
    soft_value: list[float] = field(default_factory=list)

    def arrays(self, obs_size: int, cards: int) -> dict[str, npt.NDArray[np.generic]]:
        """The samples as arrays, empty ones shaped right."""
        def stack(rows: list[npt.NDArray[np.generic]], width: int,
                  dtype: type[np.generic]) -> npt.NDArray[np.generic]:
            return np.stack(rows) if rows else np.zeros((0, width), dtype=dtype)

        mask_width = self.mask[0].shape[0] if self.mask else 0
        return {"obs": stack(list(self.obs), obs_size, np.int8),
                "mask": stack(list(self.mask), mask_width, np.uint8),
                "action": np.asarray(self.action, dtype=np.int32),
                "gift_obs": stack(list(self.gift_obs), obs_size, np.int8),
                "hand": stack(list(self.hand), cards, np.int8),
                "gift": stack(list(self.gift), cards, np.int8),
                "soft_count": np.asarray(self.soft_count, dtype=np.int32),
                "soft_action": np.asarray(self.soft_action, dtype=np.int32),
                "soft_visits": np.asarray(self.soft_visits, dtype=np.int32),
                "soft_value": np.asarray(self.soft_value, dtype=np.float32)}


def _flags(cards: list[Card], size: int) -> npt.NDArray[np.int8]:
    flags = np.zeros(size, dtype=np.int8)
    for card in cards:
        if not card.is_joker:
            flags[card.index] = 1
    return flags


def label_match(rules: Rules, players: int, seed: int, teacher: Teacher,
                samples: Samples, seats: list[Seat] | None = None) -> None:
    """Play the match ``seed`` with ``teacher`` in every seat (or the ``seats`` given),
    adding the teacher's choices at the labelled seats to ``samples``: where another bot
    plays a labelled seat, the teacher is asked each decision of more than one legal move
    (and its exchange returns are not kept, the other bot's being given)."""
    coder = encoding(rules, players)
    cards = coder.segments[0].length
    table = seats or [(teacher, True)] * players
    bots = [make() for make, _ in table]
    judges = [bot if make is teacher else teacher() if labelled else None
              for bot, (make, labelled) in zip(bots, table, strict=True)]
    labels = [type(bot).__name__ for bot in bots]
    for seat, bot in enumerate(bots):
        for each in {id(bot): bot, id(judges[seat]): judges[seat]}.values():
            if each is not None:
                each.bind(seat, rules, players, bot_rng(seed, seat))
                each.start_match(MatchInfo(seat, players, rules, f"label-{seed}", labels))

    match = Match(rules, players, seed)
    played = PlayedCards(players)
    while (decision := match.pending) is not None:
        seat = decision.seat
        view = match.view(seat)
        judge = judges[seat]
        if decision.kind == "exchange":
            gift = [c if isinstance(c, Card) else Card.parse(c)
                    for c in bots[seat].exchange(view, decision.count)]
            if judge is bots[seat]:
                samples.gift_obs.append(coder.observe(view, PlayedCards(players)))
                samples.hand.append(_flags(list(view.hand), cards))
                samples.gift.append(_flags(gift, cards))
            match.give(gift)
            continue
        moves = match.deal.legal_moves()
        observation, mask = coder.observe_with_mask(view, moves, played, match.deal.moves)
        if judge is not None and len(moves) > 1:
            label = judge.play(view)
            move = label if judge is bots[seat] else bots[seat].play(view)
            samples.obs.append(observation)
            samples.mask.append(np.packbits(mask.astype(np.uint8)))
            samples.action.append(coder.index(label))
            visits = getattr(judge, "visits", None) or [(label, 1)]
            values = dict(getattr(judge, "values", None) or ())
            samples.soft_count.append(len(visits))
            samples.soft_action.extend(coder.index(m) for m, _ in visits)
            samples.soft_visits.extend(n for _, n in visits)
            samples.soft_value.extend(values.get(m, 0.0) for m, _ in visits)
        else:
            move = bots[seat].play(view)
        match.play(move)


_JOB: tuple[Rules, int, int, int, Teacher, Path, int, int, Table | None] | None = None
"""The labelling job of a pool's workers (set before they fork: a teacher need not pickle)."""


def _label_shard(shard: int) -> tuple[int, int, int, float]:
    """Label shard ``shard`` of the job in force and write it; its moves, exchanges and the
    CPU seconds it took."""
    assert _JOB is not None
    rules, players, seed, per_shard, teacher, folder, obs_size, cards, table = _JOB
    started = time.process_time()
    samples = Samples()
    for k in range(shard * per_shard, (shard + 1) * per_shard):
        label_match(rules, players, derive(seed, "label", k), teacher, samples,
                    table(k) if table is not None else None)
    path = folder / f"shard-{shard:04d}.npz"
    partial = path.with_suffix(".part.npz")
    SAVEZ(partial, **samples.arrays(obs_size, cards))
    partial.replace(path)
    return shard, len(samples.action), len(samples.gift), time.process_time() - started


def label_shards(folder: Path, preset: str, players: int, seed: int, shards: int,
                 per_shard: int, teacher: Teacher,
                 progress: Callable[[str], None] = print,
                 saved: Callable[[float], None] = lambda cpu: None, jobs: int = 1,
                 table: Table | None = None, name: str = "label") -> list[Path]:
    """Label ``shards`` shards of ``per_shard`` matches into ``folder`` (``shard-K.npz``),
    skipping those already there, in ``jobs`` processes, calling ``saved(cpu)`` after each
    one written (``cpu``: the seconds other processes spent on it, 0 when labelled here);
    the match seeds are ``derive(seed, "label", k)``, whatever ``jobs``; match ``k``'s
    seats are ``table(k)`` (by default the teacher in every seat). ``name`` begins the
    progress lines."""
    global _JOB
    rules = Rules.preset(preset)
    coder = encoding(rules, players)
    obs_size = coder.segments[-1].offset + coder.segments[-1].length
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"shard-{shard:04d}.npz" for shard in range(shards)]
    missing = [shard for shard, path in enumerate(paths) if not path.exists()]
    _JOB = (rules, players, seed, per_shard, teacher, folder, obs_size,
            coder.segments[0].length, table)
    done = 0

    def report(moves: int, gifts: int) -> None:
        nonlocal done
        done += 1
        progress(f"{name} {preset}: shard {shards - len(missing) + done}/{shards}, "
                 f"{moves} moves, {gifts} exchanges")

    try:
        if jobs <= 1 or len(missing) <= 1:
            for shard in missing:
                _, moves, gifts, _ = _label_shard(shard)
                saved(0.0)
                report(moves, gifts)
        else:
            with ProcessPoolExecutor(min(jobs, len(missing)),
                                     multiprocessing.get_context("fork")) as pool:
                for _, moves, gifts, cpu in pool.map(_label_shard, missing):
                    saved(cpu)
                    report(moves, gifts)
    finally:
        _JOB = None
    return paths


def load_shards(paths: list[Path]) -> dict[str, npt.NDArray[np.generic]]:
    """The shards' samples joined, each array concatenated across shards."""
    parts: dict[str, list[npt.NDArray[np.generic]]] = {}
    for path in paths:
        with np.load(path) as data:
            for name in data.files:
                parts.setdefault(name, []).append(data[name])
    return {name: np.concatenate(arrays) for name, arrays in parts.items()}


def joined(data: dict[str, npt.NDArray[np.generic]], extra: dict[str, npt.NDArray[np.generic]]
           ) -> dict[str, npt.NDArray[np.generic]]:
    """Two sets of samples (with or without their move features) as one (an index made
    from one set's counts, ``soft_start``, is left out: the fit makes it again)."""
    both = {name: np.concatenate([data[name], extra[name]]) for name in data
            if name not in ("feat_start", "soft_start")}
    if "feat_start" in data:
        both["feat_start"] = np.concatenate(
            [data["feat_start"][:-1], extra["feat_start"] + data["feat_start"][-1]])
    return both
