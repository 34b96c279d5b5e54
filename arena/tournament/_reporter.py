"""What a run tells about its progress (the CLI's displays subclass it)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.ratings import SprtStatus
    from arena.tournament._league_status import LeagueStatus
    from arena.tournament._standings import Standings


class Reporter:
    """Hears about progress; the CLI's live display subclasses it. Does nothing by default."""

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        """The run begins: ``done`` of ``total`` matches were recorded before."""

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        """One more match is recorded."""

    def sprt(self, status: SprtStatus) -> None:
        """An sprt tournament's test took one more set (also called once at the start)."""

    def league(self, status: LeagueStatus) -> None:
        """A league is about to choose a round (or stop): its fit and stopping rule's state."""

    def note(self, line: str) -> None:
        """One line worth telling the organiser (a league's field changed, a config reread
        was refused)."""

    def stop(self) -> None:
        """The run ends (finished, interrupted or failed)."""


class Reporters(Reporter):
    """Several reporters heard as one: every call goes to each of them, in the list's order
    (``None`` in the list is left out). A run takes one reporter; the CLI hands it the
    display, the report's refresher and the web's reporter this way, none of them passing
    calls on to another."""

    def __init__(self, reporters: Iterable[Reporter | None]) -> None:
        self.reporters = [reporter for reporter in reporters if reporter is not None]

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        for reporter in self.reporters:
            reporter.start(total, done, standings, jobs)

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        for reporter in self.reporters:
            reporter.match(record, standings)

    def sprt(self, status: SprtStatus) -> None:
        for reporter in self.reporters:
            reporter.sprt(status)

    def league(self, status: LeagueStatus) -> None:
        for reporter in self.reporters:
            reporter.league(status)

    def note(self, line: str) -> None:
        for reporter in self.reporters:
            reporter.note(line)

    def stop(self) -> None:
        for reporter in self.reporters:
            reporter.stop()
