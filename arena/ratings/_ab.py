"""Running an A/B test: duplicate sets of matches, played until the SPRT decides.

A set is one seed played with the seats rotated (and, from three players on, mirrored and
rotated), so every bot plays every hand and sits both before and after every other bot; the
luck of the cards and of the seating cancels within the set. Sets are scored and fed to the
:class:`~arena.ratings.Sprt` strictly in set order, whatever order parallel workers finish
them in, so the decision is the same for any ``jobs``. Every finished record is appended to the
output file at once (a stopped run keeps what it played) and a rerun with the same file and
options reuses the sets already there.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.records import RecordWriter
from arena.referee._seats import bot_spec as bot_spec
from arena.seeds import derive

from ._reader import read_records
from ._results import RatingsError
from ._sprt import Sprt, SprtStatus, set_score

Record = dict[str, Any]
Runner = Callable[[Mapping[str, Any]], Record]

DEFAULT_LIMITS: dict[str, Any] = {
    "move_ms": 1000,
    "bank_ms": None,
    "start_ms": 5000,
    "memory_mb": 1024,
}


@dataclass(frozen=True)
class AbConfig:
    """Everything that fixes an A/B run; the same config and seed replay the same matches."""

    challenger: dict[str, Any]
    baseline: dict[str, Any]
    field: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    players: int = 4
    rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    limits: dict[str, Any] = dataclasses.field(default_factory=lambda: dict(DEFAULT_LIMITS))
    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    max_sets: int = 1000
    seed: int = 0
    tournament: str = "ab"

    def seats(self) -> tuple[list[dict[str, Any]], list[str]]:
        """The table (challenger, baseline, field, then baseline copies) and the labels the
        challenger is scored against (the baseline and its copies)."""
        if self.players < 2:
            raise ValueError(f"an A/B test needs at least 2 players, not {self.players}")
        if len(self.field) > self.players - 2:
            raise ValueError(
                f"{len(self.field)} field bots do not fit at a table of {self.players} beside "
                "the challenger and the baseline"
            )
        seats = [dict(self.challenger), dict(self.baseline)]
        reference = [self.baseline["label"]]
        seats.extend(dict(bot) for bot in self.field)
        copy = 2
        while len(seats) < self.players:
            clone = dict(self.baseline)
            clone["label"] = f"{self.baseline['label']}#{copy}"
            reference.append(clone["label"])
            seats.append(clone)
            copy += 1
        labels = [seat["label"] for seat in seats]
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        if repeated:
            raise ValueError(
                f"every seat needs its own label; repeated: {', '.join(repeated)} "
                "(name them LABEL=NAME)"
            )
        return seats, reference

    def set_seed(self, index: int) -> int:
        """Seed of set ``index``: a keyed hash of (seed, index), independent of every other set
        (``arena.seeds.derive``)."""
        return derive(self.seed, "set", index)

    def set_specs(self, index: int) -> list[dict[str, Any]]:
        """Match specs of duplicate set ``index``: every rotation of the seats, and with three
        or more players every rotation of the mirrored order too.

        Rotating alone keeps the cyclic order: the challenger would always play just before the
        baseline. Play order matters in President (the next player answers your leads), and
        identical bots then differ by tens of Elo; the mirror gives each pair both orders.
        """
        seats, _ = self.seats()
        seed = self.set_seed(index)
        set_id = f"{self.tournament}-s{index}"
        orders = [("r", seats)]
        if self.players >= 3:
            orders.append(("m", [seats[0], *reversed(seats[1:])]))
        specs = []
        for tag, order in orders:
            for rotation in range(self.players):
                rotated = order[rotation:] + order[:rotation]
                specs.append({
                    "match_id": f"{set_id}-{tag}{rotation}",
                    "tournament": self.tournament,
                    "seed": seed,
                    "rules": dict(self.rules),
                    "seats": [dict(seat) for seat in rotated],
                    "limits": dict(self.limits),
                    "set": set_id,
                    "round": index,
                })
        return specs


@dataclass(frozen=True)
class AbResult:
    """How an A/B run ended: the test's status, and where the sets came from."""

    status: SprtStatus
    sets_played: int  # sets run now
    sets_reused: int  # sets found complete in the output file
    out: str | None
    faults: dict[str, int] = dataclasses.field(default_factory=dict)  # per label, tested sets

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form."""
        return {"status": self.status.to_dict(), "sets_played": self.sets_played,
                "sets_reused": self.sets_reused, "out": self.out, "faults": dict(self.faults)}


def _default_runner(spec: Mapping[str, Any]) -> Record:
    from arena.referee import MatchSpec, run_match

    return run_match(MatchSpec.from_dict(spec))


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_set(runner: Runner, specs: list[dict[str, Any]]) -> list[Record]:
    return [runner(spec) for spec in specs]


def run_ab(
    config: AbConfig,
    *,
    jobs: int = 1,
    out: str | Path | None = None,
    on_set: Callable[[SprtStatus], None] | None = None,
    runner: Runner | None = None,
) -> AbResult:
    """Play duplicate sets until the SPRT stops; return the final status.

    ``runner`` plays one match spec and returns its record (default:
    :func:`arena.referee.run_match`); with ``jobs > 1`` it must be a module-level function so
    worker processes can receive it. ``on_set`` sees the status after every set.
    """
    _, reference = config.seats()
    challenger = config.challenger["label"]
    test = Sprt(config.elo0, config.elo1, config.alpha, config.beta, config.max_sets)
    play = runner or _default_runner
    known = _existing(out)
    played = reused = 0
    cached_sets: set[int] = set()
    faults: dict[str, int] = {}

    with contextlib.ExitStack() as stack:
        writer: RecordWriter | None = None
        if out is not None:
            try:
                writer = stack.enter_context(RecordWriter(out))
            except OSError as exc:
                raise RatingsError(f"{out}: cannot write ({exc.strerror or exc})") from None

        def take(index: int, records: list[Record]) -> None:
            nonlocal reused
            if index in cached_sets:
                reused += 1
            for record in records:
                labels = [seat.get("label") for seat in record.get("seats") or []]
                for deal in record.get("deals") or []:
                    for fault in deal.get("faults") or []:
                        label = str(labels[fault["seat"]])
                        faults[label] = faults.get(label, 0) + 1
            score = set_score(records, challenger, reference)
            if score is None:
                raise RatingsError(
                    f"set {index}: no deal where {challenger!r} met {', '.join(reference)}"
                )
            status = test.update(score)
            if on_set is not None:
                on_set(status)

        def write(records: list[Record]) -> None:
            if writer is not None:
                for record in records:
                    writer.write(record)

        def lookup(index: int) -> tuple[list[dict[str, Any]], list[Record] | None]:
            specs = config.set_specs(index)
            cached = [known.get(spec["match_id"]) for spec in specs]
            for spec, record in zip(specs, cached, strict=True):
                if record is not None and not _same_match(spec, record):
                    raise RatingsError(
                        f"{out}: match {spec['match_id']!r} there was played with another seed "
                        "or other seats; give a new --out or the options of that run"
                    )
            if all(r is not None for r in cached):
                return specs, [r for r in cached if r is not None]
            return specs, None

        if jobs <= 1:
            index = 0
            while not test.status().finished:
                specs, records = lookup(index)
                if records is None:
                    records = _play_set(play, specs)
                    write(records)
                    played += 1
                else:
                    cached_sets.add(index)
                take(index, records)
                index += 1
        else:
            # workers ignore Ctrl-C: the main process decides what happens to the sets in flight
            pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
            running: dict[Future[list[Record]], int] = {}
            done: dict[int, list[Record]] = {}
            next_submit = next_needed = 0
            drained = False
            try:
                try:
                    while True:
                        # at most `jobs` sets in flight: a decision wastes little work
                        while len(running) < jobs and next_submit < config.max_sets:
                            specs, records = lookup(next_submit)
                            if records is None:
                                future = pool.submit(_play_set, play, specs)
                                running[future] = next_submit
                            else:
                                done[next_submit] = records
                                cached_sets.add(next_submit)
                            next_submit += 1
                        while next_needed in done and not test.status().finished:
                            take(next_needed, done.pop(next_needed))
                            next_needed += 1
                        if test.status().finished or not running:
                            break
                        finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                        for future in finished:
                            records = future.result()
                            write(records)
                            played += 1
                            done[running.pop(future)] = records
                finally:
                    # sets in flight when the test stopped, or at Ctrl-C: keep what they play
                    # (their matches run under the referee's time limits, so this ends); a
                    # second Ctrl-C abandons them
                    for future in list(running):
                        write(future.result())
                        played += 1
                        running.pop(future)
                    drained = True
            finally:
                if drained:  # workers idle: let them exit and close their bots
                    pool.shutdown(wait=True)
                else:
                    workers = list((getattr(pool, "_processes", None) or {}).values())
                    pool.shutdown(wait=False, cancel_futures=True)
                    for process in workers:
                        process.terminate()
    return AbResult(test.status(), played, reused, str(out) if out is not None else None,
                    faults)


def _same_match(spec: Mapping[str, Any], record: Mapping[str, Any]) -> bool:
    labels = [seat.get("label") for seat in record.get("seats") or []]
    return bool(record.get("seed") == spec["seed"]
                and labels == [seat["label"] for seat in spec["seats"]])


def _existing(out: str | Path | None) -> dict[str, Record]:
    """Records already in the output file, by match id (a torn last line is ignored)."""
    if out is None or not Path(out).exists():
        return {}
    return {str(r.get("match_id")): r for r in read_records(out, on_skip=lambda _: None)
            if r.get("type", "match") == "match"}


def ab_status_from_records(
    records: Sequence[Mapping[str, Any]], config: AbConfig
) -> SprtStatus:
    """The status the test reached on these records, replayed in set order."""
    from ._sprt import sprt_from_records

    _, reference = config.seats()
    return sprt_from_records(
        records, config.challenger["label"], reference, elo0=config.elo0, elo1=config.elo1,
        alpha=config.alpha, beta=config.beta, max_sets=config.max_sets,
    )
