"""Format ``round_robin``: every k-subset of the bots meets once, or a balanced design of
whole rotation classes when capped (``max_tables``); one batch, results change nothing."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from arena.tournament._config._formats import FormatSettings, Problems
from arena.tournament._design import (
    equitable_seats,
    full_round_robin,
    round_robin_tables,
    sampled_round_robin,
)
from arena.tournament._formats._base import ConfigFile, DesignedFormat, table_problem
from arena.tournament._plans import AllTables
from arena.tournament._teams import apart, group_count, team_map

if TYPE_CHECKING:
    from arena.tournament._config import TournamentConfig
    from arena.tournament._schedule import Schedule


class RoundRobinFormat(FormatSettings):
    """Every k-subset of the bots meets once, or a balanced design when capped."""

    type: Literal["round_robin"]
    max_tables: int | None = Field(
        default=None,
        gt=0,
        description="Cap on tables; above it, whole rotation classes are sampled so every "
        "bot plays equally often in every seat.",
    )


def kept_apart(design: Iterator[tuple[int, ...]], config: TournamentConfig
               ) -> Iterator[tuple[int, ...]]:
    """The tables of ``design``; with teams, those that keep team-mates apart, seated again
    so each bot's seat counts stay within one."""
    teams = team_map(config.bots)
    if not teams:
        yield from design
        return
    kept = [table for table in design if apart(table, teams)]
    yield from equitable_seats(kept, config.players) if kept else []


class RoundRobin(DesignedFormat):
    """Format ``round_robin``."""

    name = "round_robin"
    settings = RoundRobinFormat

    def issues(self, config: TournamentConfig, seen: Mapping[str, int]) -> Problems:
        """Enough bots for a table, a cap that lets every bot play equally, teams apart."""
        fmt = config.format
        assert isinstance(fmt, RoundRobinFormat)
        n, k = len(config.bots), config.players
        short = table_problem(config)
        issues = list(short)
        if fmt.max_tables is not None and fmt.max_tables < n:
            issues.append((("format", "max_tables"), f"must be at least the number of bots "
                           f"({n}) so every bot plays equally often"))
        teams = team_map(config.bots)
        groups = group_count(list(range(n)), teams)
        if not short and teams and groups < k:
            issues.append((("bots",), f"no table of {k} keeps team-mates apart: the {n} bots "
                           f"make only {groups} different teams (a bot without a team counts "
                           "as its own)"))
        return issues

    def design(self, config: TournamentConfig) -> Iterator[tuple[int, ...]]:
        """The tables, from the config (seed 0 standing in while it is secret)."""
        fmt = config.format
        assert isinstance(fmt, RoundRobinFormat)
        n, k = len(config.bots), config.players
        design = (full_round_robin(n, k) if fmt.max_tables is None
                  else sampled_round_robin(n, k, fmt.max_tables, config.seed or 0))
        return kept_apart(design, config)

    def total(self, config: TournamentConfig) -> int:
        """Tables times the matches of each."""
        fmt = config.format
        assert isinstance(fmt, RoundRobinFormat)
        n, k = len(config.bots), config.players
        if team_map(config.bots):  # the tables that keep team-mates apart: counted by making them
            tables = sum(1 for _ in self.design(config))
        else:
            tables = round_robin_tables(n, k, fmt.max_tables)
        return tables * (k if config.duplicate else 1) * config.repeat

    def plan(self, schedule: Schedule, source: ConfigFile | None = None) -> AllTables:
        """Every table in one batch."""
        return AllTables(schedule, self.tables)


FORMAT = RoundRobin()
