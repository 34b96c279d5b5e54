"""Plans: what each format plays next, given the records so far.

A run (:mod:`arena.tournament._runner`) owns the output folder, the writer, the standings
and the reporter; a plan owns only the format's logic. The run hands the plan every record,
those read back on resume first (in file order), then those just played (in spec order), and
asks it for batches of specs until it has none:

- round robin and gauntlet: one batch, every table;
- Swiss: one batch per round, paired from the records of the rounds before;
- knockout: one batch per round, the survivors of the round before;
- sprt: one lazy batch that lays out a duplicate set at a time while the test has not
  decided; once it has, :attr:`Plan.finished` makes the run drop what is still in flight.

A batch always lists the matches already recorded too: the run skips those (checking each
was recorded with the seeds and seats the plan gives it), so a resumed run plays exactly
the matches an uninterrupted one would have played after them. A plan whose next batch
depends on the world (a league rereading its config at each round) is given a function that
reads it, and keeps what it chose in its journal (:attr:`Plan.journal`), which the run
writes and hands back on resume: a plan does no I/O of its own. The run calls
:meth:`Plan.next_batch` once per batch, after the records of every batch before it were
added.

Each format's plan is in its module (:mod:`arena.tournament._formats`); the ones here are
what several share.

Error records (a match the referee failed to play) are records like the others: the run
writes them and goes on, and each plan reads them as a match without a result (see
docs/tournaments.md, "When a match fails").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from arena.referee import MatchSpec
    from arena.tournament._reporter import Reporter
    from arena.tournament._schedule import Schedule, Table


@dataclass
class Batch:
    """Specs to play (lazily pulled, in record order) and the labels sitting out (byes)."""

    specs: Iterable[MatchSpec]
    byes: Sequence[str] = field(default_factory=tuple)
    journal: dict[str, Any] | None = None
    """What the plan chose, kept as one line of its journal (:attr:`Plan.journal`) before
    the batch is played, when the choice depends on more than the records."""


class Plan(Protocol):
    """A format's schedule as a sequence of batches, each chosen from the records so far."""

    labels: list[str]
    """The standings' rows (every label that sits at a table)."""

    journal: str | None
    """The file in the output folder where the run keeps the plan's :attr:`Batch.journal`
    lines (a league's ``league.jsonl``), or None. On resume the run hands them back
    (:meth:`restore`) before any record."""

    def restore(self, line: Mapping[str, Any]) -> None:
        """Take back one journal line, in order; ``ValueError`` for one this plan did not
        write."""
        ...

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
        """Tell the reporter what the last records, or the last batch chosen, changed beyond
        the standings (the run calls it after each record and each :meth:`next_batch`)."""
        ...

    def summary(self) -> dict[str, Any] | None:
        """The format's own result (the sprt test's status), as plain data."""
        ...


def table_specs(schedule: Schedule, tables: Iterable[Table]) -> Iterator[MatchSpec]:
    """The specs of ``tables``, table after table."""
    for table in tables:
        yield from schedule.specs(table)


class Fixed:
    """What a plan of a known number of matches, never cut short, says beyond its batches."""

    journal: str | None = None

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.labels = list(schedule.labels)

    def restore(self, line: Mapping[str, Any]) -> None:
        """No journal."""
        raise ValueError("this format keeps no journal")

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


class ByRound(Fixed):
    """A plan whose rounds are seated from the records of the rounds before (Swiss,
    knockout): it holds each record by its round until the round is complete."""

    def __init__(self, schedule: Schedule) -> None:
        super().__init__(schedule)
        self._by_round: dict[int, list[Mapping[str, Any]]] = defaultdict(list)

    def add(self, record: Mapping[str, Any]) -> None:
        """Hold a record until its round is complete."""
        round_ = record.get("round")
        if not isinstance(round_, int) or isinstance(round_, bool):
            raise ValueError(f"match {record.get('match_id')!r} has no round number")
        self._by_round[round_].append(record)


class AllTables(Fixed):
    """Round robin and gauntlet: every table in one batch; results change nothing."""

    def __init__(self, schedule: Schedule, tables: Callable[[Schedule], Iterable[Table]]
                 ) -> None:
        super().__init__(schedule)
        self._tables = tables
        self._given = False

    def add(self, record: Mapping[str, Any]) -> None:
        """Nothing to keep: the schedule does not depend on results."""

    def next_batch(self) -> Batch | None:
        """Every table, once."""
        if self._given:
            return None
        self._given = True
        return Batch(table_specs(self.schedule, self._tables(self.schedule)))
