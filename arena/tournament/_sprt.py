"""Format ``sprt``: an A/B test run as a tournament, the one engine of ``arena ab``.

A set is one seed played with the seats rotated (and, from three players on, mirrored and
rotated), so every bot plays every hand and sits both before and after every other bot; the
luck of the cards and of the seating cancels within the set. The statistics are those of
:mod:`arena.ratings` (:class:`~arena.ratings.Sprt`, :func:`~arena.ratings.set_score`); this
module lays out the sets of a config's bots and feeds the test. Sets are scheduled lazily,
like Swiss rounds: the next set is asked for only while the test has not decided, and
finished sets are fed to the test strictly in set order, so the decision, and the records
kept, are the same whatever ``jobs`` is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from arena.ratings import Sprt, SprtStatus, set_score
from arena.referee import MatchSpec
from arena.seeds import derive
from arena.tournament._config._formats import FormatSettings

if TYPE_CHECKING:
    from arena.game import Rules
    from arena.referee import Limits, Seat
    from arena.tournament._config import TournamentConfig


class SprtFormat(FormatSettings):
    """An A/B test: a challenger plays duplicate sets until a sequential test decides."""

    type: Literal["sprt"]
    challenger: str = Field(description="Label of the bot under test.")
    baseline: str | None = Field(
        default=None,
        description="Label of the bot it is measured against; copies of it fill the seats the "
        "other bots leave free. Without it the challenger is measured against all the other "
        "bots, which must fill the table exactly.",
    )
    elo0: float = Field(default=0.0, description="H0: the challenger is at most this strong (Elo).")
    elo1: float = Field(
        default=20.0, description="H1: the challenger is at least this strong (Elo)."
    )
    alpha: float = Field(
        default=0.05, gt=0, lt=0.5, description="Chance of accepting H1 when H0 holds."
    )
    beta: float = Field(
        default=0.05, gt=0, lt=0.5, description="Chance of accepting H0 when H1 holds."
    )
    max_sets: int = Field(
        default=1000, gt=0, description="Stop without a decision after this many duplicate sets."
    )


class SprtPlan:
    """The sets of an sprt tournament: who sits where, with which seed, scored against whom."""

    def __init__(self, config: TournamentConfig, rules: Rules, limits: Limits) -> None:
        fmt = config.format
        if not isinstance(fmt, SprtFormat):
            raise ValueError("not an sprt tournament")
        self.format = fmt
        self.name = config.name
        self.seed = config.seed or 0  # Schedule gives a drawn seed; 0 stands in for counting
        self.players = config.players
        self.rules = rules
        self.limits = limits
        specs = {bot.resolved_label: bot.seat() for bot in config.bots}
        challenger = specs[fmt.challenger]
        if fmt.baseline is not None:
            baseline = specs[fmt.baseline]
            field = [s for label, s in specs.items() if label not in (fmt.challenger,
                                                                       fmt.baseline)]
        else:
            # No baseline: the rest of the field, in config order, fills the table exactly;
            # the first of them takes the baseline's place in the seating.
            others = [s for label, s in specs.items() if label != fmt.challenger]
            baseline, field = others[0], others[1:]
        self.seats, reference = _table(challenger, baseline, field, config.players)
        """The table in its first order: challenger, baseline, field, baseline copies."""
        self.labels = [seat.label for seat in self.seats]
        """Every label at the table (the baseline's copies included)."""
        self.challenger = fmt.challenger
        self.reference: list[str] | None = reference if fmt.baseline is not None else None
        """Labels the challenger is scored against (None: every other seat)."""
        self.max_sets = fmt.max_sets
        self.set_size = len(self.specs(0))

    def set_seed(self, index: int) -> int:
        """Seed of set ``index``: a keyed hash of (seed, index), independent of every other set
        (``arena.seeds.derive``)."""
        return derive(self.seed, "set", index)

    def specs(self, index: int) -> list[MatchSpec]:
        """Match specs of set ``index``, in the order they are played and recorded: every
        rotation of the seats, and with three or more players every rotation of the mirrored
        order too.

        Rotating alone keeps the cyclic order: the challenger would always play just before the
        baseline. Play order matters in President (the next player answers your leads), and
        identical bots then differ by tens of Elo; the mirror gives each pair both orders.
        """
        seed = self.set_seed(index)
        set_id = f"{self.name}-s{index}"
        orders = [("r", self.seats)]
        if self.players >= 3:
            orders.append(("m", [self.seats[0], *reversed(self.seats[1:])]))
        specs = []
        for tag, order in orders:
            for rotation in range(self.players):
                rotated = order[rotation:] + order[:rotation]
                specs.append(MatchSpec(
                    match_id=f"{set_id}-{tag}{rotation}",
                    tournament=self.name,
                    seed=seed,
                    rules=self.rules,
                    seats=tuple(rotated),
                    limits=self.limits,
                    set=set_id,
                    round=index,
                ))
        return specs

    def test(self) -> Sprt:
        """A fresh sequential test with the config's bounds."""
        fmt = self.format
        return Sprt(fmt.elo0, fmt.elo1, fmt.alpha, fmt.beta, fmt.max_sets)

    def score(self, records: Sequence[Mapping[str, Any]]) -> float | None:
        """The challenger's score in one set (None when no deal compares it)."""
        return set_score(records, self.challenger, self.reference)


def _table(
    challenger: Seat, baseline: Seat, field: list[Seat], players: int,
) -> tuple[list[Seat], list[str]]:
    """The seats (challenger, baseline, field, then baseline copies labelled ``BASE#2``...)
    and the labels of the baseline and its copies.

    The config's checks (``validate_config``) report these problems with their keys; the
    errors here guard a model built without them.
    """
    if len(field) > players - 2:
        raise ValueError(
            f"{len(field)} field bots do not fit at a table of {players} beside the challenger "
            "and the baseline"
        )
    seats = [challenger, baseline, *field]
    reference = [baseline.label]
    copy = 2
    while len(seats) < players:
        clone = replace(baseline, label=f"{baseline.label}#{copy}")
        reference.append(clone.label)
        seats.append(clone)
        copy += 1
    labels = [seat.label for seat in seats]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ValueError(f"every seat needs its own label; repeated: {', '.join(repeated)}")
    return seats, reference


def _slim(record: Mapping[str, Any]) -> dict[str, Any]:
    """What scoring needs of a record (labels, finishing orders): little memory per match."""
    return {
        "type": record.get("type", "match"),
        "match_id": record.get("match_id"),
        "seats": [{"label": seat.get("label")} for seat in record.get("seats") or []],
        "deals": [{"finish_order": deal.get("finish_order")}
                  for deal in record.get("deals") or []],
    }


class SprtFeed:
    """Takes records in any order, feeds whole sets to the test in set order.

    Holds only the sets not yet complete (in slim form); raises ``ValueError``
    for a record that is no match of the plan, or one recorded with another
    seed or other seats than the plan gives its id.
    """

    def __init__(self, plan: SprtPlan) -> None:
        self.plan = plan
        self._test = plan.test()
        self.next = 0
        """Index of the first set not yet fed to the test."""
        self._pending: dict[int, dict[str, dict[str, Any]]] = {}
        self._order: dict[int, list[MatchSpec]] = {}
        self.failed: int | None = None
        """Index of a set holding an error record: the test stopped there, undecided."""

    @property
    def finished(self) -> bool:
        """Whether the test has stopped (a decision, the maximum number of sets, or a set it
        cannot score)."""
        return self.failed is not None or self._test.status().finished

    @property
    def read(self) -> int:
        """Sets the test read: those it took, and the one it stopped at for an error."""
        return self.next + (self.failed is not None)

    def status(self) -> SprtStatus:
        """The test's status after the sets fed so far."""
        return self._test.status()

    def _specs(self, index: int) -> list[MatchSpec]:
        specs = self._order.get(index)
        if specs is None:
            specs = self._order[index] = self.plan.specs(index)
        return specs

    def add(self, record: Mapping[str, Any]) -> list[SprtStatus]:
        """Take one record; return the statuses of the sets it completed (in order)."""
        match_id = record.get("match_id")
        index = record.get("round")
        if (
            not isinstance(index, int)
            or not 0 <= index < self.plan.max_sets
            or index < self.next
            or self.finished
        ):
            raise ValueError(f"match {match_id!r} is not one this test schedules")
        spec = next((s for s in self._specs(index) if s.match_id == match_id), None)
        if spec is None:
            raise ValueError(f"match {match_id!r} is not one this test schedules")
        labels = [seat.get("label") for seat in record.get("seats") or []]
        if record.get("seed") != spec.seed or labels != spec.labels:
            raise ValueError(
                f"match {match_id} was recorded with other seats or another seed than this "
                "schedule gives it"
            )
        self._pending.setdefault(index, {})[str(match_id)] = _slim(record)
        statuses: list[SprtStatus] = []
        while not self.finished:
            held = self._pending.get(self.next, {})
            specs = self._specs(self.next)
            if len(held) < len(specs):
                break
            records = [held[s.match_id] for s in specs]  # spec order: same float sums
            if any(record.get("type") == "error" for record in records):
                self.failed = self.next
                break
            score = self.plan.score(records)
            if score is None:
                raise ValueError(
                    f"set {self.next}: no deal compares {self.plan.challenger!r} with its "
                    "opponents"
                )
            statuses.append(self._test.update(score))
            del self._pending[self.next]
            del self._order[self.next]
            self.next += 1
        return statuses
