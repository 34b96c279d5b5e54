"""Format ``sprt``: an A/B test, a challenger playing duplicate sets until a sequential test
decides; the one engine of ``arena ab``. Its settings, sets and feed are in
:mod:`arena.tournament._sprt`, which the ratings' tests use alone."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from arena.ratings import SprtStatus
from arena.tournament._config._checks import unknown_label
from arena.tournament._config._formats import Problems
from arena.tournament._formats._base import BaseFormat, ConfigFile, sets_only
from arena.tournament._plans import Batch
from arena.tournament._schedule import Schedule
from arena.tournament._sprt import SprtFeed, SprtFormat, SprtPlan
from arena.tournament._teams import largest_team, team_map

__all__ = ["FORMAT", "SprtFormat", "SprtTest", "sprt_plan"]

if TYPE_CHECKING:
    from arena.referee import MatchSpec
    from arena.tournament._config import TournamentConfig
    from arena.tournament._reporter import Reporter


def sprt_plan(schedule: Schedule) -> SprtPlan:
    """The sets of an sprt tournament (seating, seeds, what the challenger is scored on)."""
    return SprtPlan(schedule.config, schedule.rules, schedule.limits)


class SprtTest:
    """Format sprt's plan: duplicate sets, a set at a time, until the sequential test decides.

    The batch is lazy: the next set is laid out only while the test has not decided, so
    the executor's window stays full across sets, and the test is fed whole sets in set
    order (:class:`~arena.tournament._sprt.SprtFeed`), so the decision and the records kept
    are the same for any ``jobs``. A set holding an error record cannot be scored: the test
    stops there, undecided (leaving the set out would let failing matches choose which sets
    count).
    """

    journal: str | None = None

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.plan = sprt_plan(schedule)
        self.feed = SprtFeed(self.plan)
        self.labels = list(self.plan.labels)
        self._news: list[SprtStatus] = []
        self._started = False
        self._given = False

    def restore(self, line: Mapping[str, Any]) -> None:
        """No journal: the sets are a function of the seed."""
        raise ValueError("format sprt keeps no journal")

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


def _settings(config: TournamentConfig) -> SprtFormat:
    fmt = config.format
    assert isinstance(fmt, SprtFormat)
    return fmt


class Sprt(BaseFormat):
    """Format ``sprt``."""

    name = "sprt"
    settings = SprtFormat
    topics = ("sprt",)
    bounded = True

    def duplicate(self, config: TournamentConfig) -> bool:
        """Always sets."""
        return True

    def set_size(self, config: TournamentConfig, seats: int) -> int:
        """Every rotation of the seats, and from three seats on of the mirrored order too."""
        return seats * (2 if seats >= 3 else 1)

    def total(self, config: TournamentConfig) -> int:
        """At most: the test stops early."""
        return _settings(config).max_sets * self.set_size(config, config.players)

    def describe(self, config: TournamentConfig) -> str:
        """Who is measured against whom, the sets' size and bound."""
        plan = sprt_plan(Schedule(config))
        fmt = plan.format
        against = (f"{fmt.baseline} ({', '.join(plan.reference or [])})"
                   if fmt.baseline is not None else "the field")
        return (f", {plan.challenger} against {against}, duplicate sets of {plan.set_size} "
                f"matches, at most {plan.max_sets} sets ({self.total(config)} matches)")

    def plan(self, schedule: Schedule, source: ConfigFile | None = None) -> SprtTest:
        """A set at a time until the test decides."""
        return SprtTest(schedule)

    def closing(self, outcome: Mapping[str, Any]) -> list[str]:
        """The test's verdict."""
        return [f"SPRT result: {final_status(outcome).summary()}"]

    def issues(self, config: TournamentConfig, seen: Mapping[str, int]) -> Problems:
        """What an A/B test needs: known labels, a table its bots fill, sensible bounds, no
        team-mates (every bot sits at every set)."""
        fmt = _settings(config)
        issues: Problems = []
        labels = config.labels
        known = True
        for key in ("challenger", "baseline"):
            label = getattr(fmt, key)
            if label is not None and label not in seen:
                known = False
                issues.append((("format", key), unknown_label(label, labels)))
        if fmt.baseline is not None and fmt.baseline == fmt.challenger:
            known = False
            issues.append((("format", "baseline"), "the baseline must be another bot than the "
                           "challenger"))
        if not fmt.elo0 < fmt.elo1:
            issues.append((("format", "elo1"), f"must be above elo0 ({fmt.elo0:g}), got "
                           f"{fmt.elo1:g}"))
        issues += sets_only(config, self.name, "plays duplicate sets until the test decides "
                            "(bounded by format.max_sets)")
        if known:
            issues.extend(_table_issues(labels, config.players, fmt))
        teams = team_map(config.bots)
        if teams and len(set(teams.values())) != len(teams):
            team, _ = largest_team(teams) or ("", 0)
            names = [labels[i] for i, t in teams.items() if t == team]
            issues.append((("bots",), f"format sprt seats every bot at every set: team-mates "
                           f"{' and '.join(names)} (team {team!r}) would meet"))
        return issues


def final_status(outcome: Mapping[str, Any]) -> SprtStatus:
    """The test's status from its plain data (``TournamentResult.sprt``)."""
    fields: dict[str, Any] = {
        key: float("nan") if value is None else value for key, value in outcome.items()
    }
    return SprtStatus(**fields)


def _table_issues(labels: Sequence[str], k: int, fmt: SprtFormat) -> Problems:
    """Whether the challenger, the baseline (or the field) and the copies fill a table."""
    issues: Problems = []
    n = len(labels)
    if fmt.baseline is not None:
        field = n - 2
        if field > k - 2:
            issues.append((("bots",), f"{field} bot{'s' if field != 1 else ''} besides the "
                           f"challenger and the baseline do not fit in the {k - 2} other "
                           f"seat{'s' if k != 3 else ''} of a table of {k}"))
        copy = re.compile(re.escape(fmt.baseline) + r"#\d+")
        for i, label in enumerate(labels):
            if copy.fullmatch(label):
                issues.append((("bots", i, "label"), f"label {label!r} is kept for the "
                               "baseline's copies; choose another"))
    elif n - 1 != k - 1:
        others = "the other bot is" if n == 2 else f"the {n - 1} other bots are"
        seats = "seat" if k == 2 else "seats"
        issues.append((("format", "baseline"), f"without a baseline, {others} the "
                       f"challenger's field and must fill the {k - 1} other {seats} of a "
                       f"table of {k} exactly; set players: {n} or name a baseline (its "
                       "copies fill free seats)"))
    return issues


FORMAT = Sprt()
