"""Plans: what each format plays next, given the records so far.

A run (:mod:`arena.tournament._runner`) owns the output folder, the writer, the standings
and the reporter; a plan owns only the format's logic. The run hands the plan every record,
those read back on resume first (in file order), then those just played (in spec order), and
asks it for batches of specs until it has none:

- round robin and gauntlet: one batch, every table;
- Swiss: one batch per round, paired from the records of the rounds before;
- sprt: one lazy batch that lays out a duplicate set at a time while the test has not
  decided; once it has, :attr:`Plan.finished` makes the run drop what is still in flight.

A batch always lists the matches already recorded too: the run skips those (checking each
was recorded with the seeds and seats the plan gives it), so a resumed run plays exactly
the matches an uninterrupted one would have played after them. A plan whose next batch
depends on the world (a league rereading its config at each round) reads it in
:meth:`Plan.next_batch`; the run calls it once per batch, after the records of every
batch before it were added.

Error records (a match the referee failed to play) are records like the others: the run
writes them and goes on, and each plan reads them as a match without a result (see
docs/tournaments.md, "When a match fails").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from arena.tournament._schedule import Schedule, SwissHistory, Table
from arena.tournament._sprt import SprtFeed

if TYPE_CHECKING:
    from arena.ratings import SprtStatus
    from arena.referee import MatchSpec
    from arena.tournament._reporter import Reporter


@dataclass
class Batch:
    """Specs to play (lazily pulled, in record order) and the labels sitting out (byes)."""

    specs: Iterable[MatchSpec]
    byes: Sequence[str] = field(default_factory=tuple)


class Plan(Protocol):
    """A format's schedule as a sequence of batches, each chosen from the records so far."""

    labels: list[str]
    """The standings' rows (every label that sits at a table)."""

    def add(self, record: Mapping[str, Any]) -> None:
        """Take one record (read back or just played); ``ValueError`` for one that is no
        match of this plan."""
        ...

    def next_batch(self) -> Batch | None:
        """The next batch, from the records added so far; None when the plan is done."""
        ...

    def annotate(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record just played, as it is written: with what the format adds to it (a
        league's field), else as it is."""
        ...

    @property
    def finished(self) -> bool:
        """Whether the plan wants no more of the current batch: the run stops pulling its
        specs and drops the matches in flight, then asks for the next batch."""
        ...

    def total(self) -> int:
        """Matches in the tournament (at most, while a stopping rule may cut it short)."""
        ...

    def report(self, reporter: Reporter) -> None:
        """Tell the reporter what the last records changed beyond the standings."""
        ...

    def summary(self) -> dict[str, Any] | None:
        """The format's own result (the sprt test's status), as plain data."""
        ...


def plan_for(schedule: Schedule) -> Plan:
    """The plan of a schedule's format."""
    if schedule.is_sprt:
        return SprtTest(schedule)
    if schedule.is_swiss:
        return SwissRounds(schedule)
    return AllTables(schedule)


def _table_specs(schedule: Schedule, tables: Iterable[Table]) -> Iterator[MatchSpec]:
    for table in tables:
        yield from schedule.specs(table)


class _Fixed:
    """What a plan of a known number of matches, never cut short, says beyond its batches."""

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.labels = list(schedule.labels)

    @property
    def finished(self) -> bool:
        """Never cut short."""
        return False

    def total(self) -> int:
        """Every match of the schedule."""
        return self.schedule.total

    def annotate(self, record: dict[str, Any]) -> dict[str, Any]:
        """Nothing to add."""
        return record

    def report(self, reporter: Reporter) -> None:
        """Nothing beyond the standings."""

    def summary(self) -> dict[str, Any] | None:
        """No result of its own."""
        return None


class AllTables(_Fixed):
    """Round robin and gauntlet: every table in one batch; results change nothing."""

    def __init__(self, schedule: Schedule) -> None:
        super().__init__(schedule)
        self._given = False

    def add(self, record: Mapping[str, Any]) -> None:
        """Nothing to keep: the schedule does not depend on results."""

    def next_batch(self) -> Batch | None:
        """Every table, once."""
        if self._given:
            return None
        self._given = True
        return Batch(_table_specs(self.schedule, self.schedule.tables(0)))


class SwissRounds(_Fixed):
    """Swiss: one batch per round, paired from the history of the rounds before.

    Records are held per round until the next round is paired; they are then added to the
    history in the order of their round's specs, so the pairing is the same whatever order
    the records came in (resumed, or from any number of workers).
    """

    def __init__(self, schedule: Schedule) -> None:
        super().__init__(schedule)
        self.history = SwissHistory(schedule.labels, schedule.config.players)
        self._by_round: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
        self._round = 0
        self._order: dict[str, int] = {}

    def add(self, record: Mapping[str, Any]) -> None:
        """Hold a record until its round is folded into the history."""
        round_ = record.get("round")
        if not isinstance(round_, int) or isinstance(round_, bool):
            raise ValueError(f"match {record.get('match_id')!r} has no round number")
        self._by_round[round_].append(record)

    def next_batch(self) -> Batch | None:
        """The next round's tables, its byes counted in the history."""
        if self._round:
            self._fold(self._round - 1)
        if self._round >= self.schedule.rounds:
            return None
        tables, byes = self.schedule.swiss_tables(self._round, self.history)
        for bye in byes:
            self.history.byes[bye] += 1
        ids = (spec.match_id for spec in _table_specs(self.schedule, tables))
        self._order = {match_id: i for i, match_id in enumerate(ids)}
        self._round += 1
        return Batch(_table_specs(self.schedule, tables), [self.labels[b] for b in byes])

    def _fold(self, round_: int) -> None:
        records = self._by_round.pop(round_, [])
        order = self._order
        records.sort(key=lambda r: order.get(r["match_id"], len(order)))
        for record in records:
            self.history.add(record)


class SprtTest:
    """Format sprt: duplicate sets, a set at a time, until the sequential test decides.

    The batch is lazy: the next set is laid out only while the test has not decided, so
    the executor's window stays full across sets, and the test is fed whole sets in set
    order (:class:`~arena.tournament._sprt.SprtFeed`), so the decision and the records kept
    are the same for any ``jobs``. A set holding an error record cannot be scored: the test
    stops there, undecided (leaving the set out would let failing matches choose which sets
    count).
    """

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.plan = schedule.sprt_plan()
        self.feed = SprtFeed(self.plan)
        self.labels = list(self.plan.labels)
        self._news: list[SprtStatus] = []
        self._started = False
        self._given = False

    def annotate(self, record: dict[str, Any]) -> dict[str, Any]:
        """Nothing to add."""
        return record

    def add(self, record: Mapping[str, Any]) -> None:
        """Feed the test (``ValueError`` for a record of no set of this test)."""
        self._news.extend(self.feed.add(record))

    def next_batch(self) -> Batch | None:
        """One lazy batch of sets, from the first one on (recorded ones are skipped)."""
        if self._given:
            return None
        self._given = True
        return Batch(self._sets())

    def _sets(self) -> Iterator[MatchSpec]:
        index = 0
        # once the test stopped: only the sets it read (skipped as recorded), none after
        while index < self.plan.max_sets and not (self.feed.finished and index >= self.feed.read):
            yield from self.plan.specs(index)
            index += 1

    @property
    def finished(self) -> bool:
        """Whether the test stopped (a decision, the last set, or a set it cannot score)."""
        return self.feed.finished

    def total(self) -> int:
        """The sets the test took once it decided; at most every set before."""
        status = self.feed.status()
        return status.sets * self.plan.set_size if status.finished else self.schedule.total

    def report(self, reporter: Reporter) -> None:
        """The test's status after each set it took since the last call (the status so far
        at the first call)."""
        if not self._started:
            self._started = True
            self._news.clear()
            reporter.sprt(self.feed.status())
        for status in self._news:
            reporter.sprt(status)
        self._news.clear()

    def summary(self) -> dict[str, Any] | None:
        """The test's final status (``SprtStatus.to_dict()``)."""
        return self.feed.status().to_dict()
