"""What a run tells about its progress (the CLI's displays subclass it)."""

from __future__ import annotations

from collections.abc import Mapping
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
