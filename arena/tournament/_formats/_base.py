"""What a tournament format is: one protocol, and the defaults most formats share.

A format is one module of this package that defines its settings model (the keys under
``format:``, a :class:`~arena.tournament._config._formats.FormatSettings`) and one object
``FORMAT`` implementing :class:`TournamentFormat`: the checks the schema cannot make, its
size, what ``arena validate`` says of it, what a run says at its end, its live topics and
the size of its duplicate sets (:class:`~arena.tournament._config._table.ConfigFormat`, what
the config asks), and its plan (what it plays next given the records so far). The table in
:mod:`arena.tournament._formats` registers every format; the config, the schedule, the run,
the command line, the web and the report ask the format found there by ``format.type``,
never testing which one it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from arena.tournament._config import read_config
from arena.tournament._config._formats import Problems
from arena.tournament._config._table import ConfigFormat
from arena.tournament._schedule import Table

if TYPE_CHECKING:
    from arena.tournament._config import TournamentConfig
    from arena.tournament._config._formats import FormatSettings
    from arena.tournament._plans import Plan
    from arena.tournament._schedule import Schedule


@dataclass(frozen=True)
class ConfigFile:
    """The run's config file, for a format that follows it while it runs (a league's
    field): the run owns it, the plan only asks for it as it stands now."""

    path: str
    folder: str | None = None  # the run's folder, where OUT/entries.json may lie

    def read(self) -> TournamentConfig:
        """The config as the file holds it now (``ConfigError`` when it is bad)."""
        return read_config(self.path)[0]

    def with_entries(self, config: TournamentConfig) -> tuple[TournamentConfig, str | None]:
        """``config`` with the run folder's ``entries.json`` after its bots (a program
        beside the league adds them), and None; or ``config`` and the line saying why not."""
        if self.folder is None:
            return config, None
        from arena.tournament._league_entries import with_entries

        return with_entries(config, Path(self.folder))


class TournamentFormat(ConfigFormat, Protocol):
    """One tournament format: what the config asks of it (:class:`ConfigFormat`) and its
    plan."""

    def plan(self, schedule: Schedule, source: ConfigFile | None = None) -> Plan:
        """Its plan: the batches it plays given the records so far. ``source`` is the run's
        config file (None when it came from none), for a format that follows it."""
        ...


class BaseFormat:
    """The defaults: tables are sets when the config says ``duplicate``, one match per seat
    of a table; the whole config identifies the run; nothing of its own to say or publish."""

    name: ClassVar[str]
    settings: ClassVar[type[FormatSettings]]
    topics: tuple[str, ...] = ()
    bot_keys: tuple[str, ...] = ()
    takes_submissions: bool = False
    bounded = False

    def duplicate(self, config: TournamentConfig) -> bool:
        """As the config says."""
        return config.duplicate

    def total(self, config: TournamentConfig) -> int:
        """Matches in the tournament (each format counts its own)."""
        raise NotImplementedError

    def describe(self, config: TournamentConfig) -> str:
        """``, duplicate, N matches``."""
        extra = ", duplicate" if config.duplicate else ""
        return f"{extra}, {self.total(config)} matches"

    def set_size(self, config: TournamentConfig, seats: int) -> int:
        """One match per rotation of the seats."""
        return seats if self.duplicate(config) else 1

    def resume_identity(self, config: TournamentConfig) -> dict[str, Any]:
        """Everything that decides the matches."""
        return config.identity()

    def closing(self, outcome: Mapping[str, Any]) -> list[str]:
        """Nothing."""
        return []


def table_problem(config: TournamentConfig) -> Problems:
    """More seats than bots: a bot cannot sit at a table twice."""
    n, k = len(config.bots), config.players
    if k <= n:
        return []
    return [(("players",), f"{k} seats per table but only {n} bots, and a bot cannot sit at a "
             "table twice (list a bot again under another label to field a copy)")]


def sets_only(config: TournamentConfig, name: str, why: str) -> Problems:
    """A format that always plays duplicate sets, once per table: ``duplicate: false`` and
    ``repeat`` refused (``why`` says why ``repeat`` does not apply)."""
    issues: Problems = []
    if "duplicate" in config.model_fields_set and not config.duplicate:
        issues.append((("duplicate",), f"format {name} always plays duplicate sets; leave "
                       "'duplicate' out"))
    if config.repeat != 1:
        issues.append((("repeat",), f"format {name} {why}; 'repeat' does not apply"))
    return issues


class DesignedFormat(BaseFormat):
    """A format whose tables are a design fixed by the config (round robin, gauntlet):
    :meth:`tables` lays out what :meth:`design` gives."""

    def tables(self, schedule: Schedule) -> Iterator[Table]:
        """Every table, in seat order."""
        schedule.check_seed()
        for t, bots in enumerate(self.design(schedule.config)):
            yield Table(f"{schedule.name}-t{t}", bots, None)

    def design(self, config: TournamentConfig) -> Iterator[tuple[int, ...]]:
        """The tables as tuples of the bots' indices (seed 0 standing in while it is
        secret)."""
        raise NotImplementedError
