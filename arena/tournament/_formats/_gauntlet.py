"""Format ``gauntlet``: one or more challengers, each against the rest of the field (every
(k-1)-subset of it, or a balanced design when capped); one batch."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from arena.tournament._config._checks import unknown_label
from arena.tournament._config._formats import FormatSettings, Problems
from arena.tournament._design import (
    equitable_seats,
    full_round_robin,
    round_robin_tables,
    sampled_round_robin,
)
from arena.tournament._formats._base import ConfigFile, DesignedFormat, table_problem
from arena.tournament._formats._round_robin import kept_apart
from arena.tournament._plans import AllTables
from arena.tournament._teams import Teams, apart, group_count, team_map

if TYPE_CHECKING:
    from arena.tournament._config import TournamentConfig
    from arena.tournament._schedule import Schedule


class GauntletFormat(FormatSettings):
    """One or more challengers, each against the rest of the field."""

    type: Literal["gauntlet"]
    challengers: list[str] = Field(min_length=1, description="Labels of the challengers.")
    max_tables: int | None = Field(
        default=None, gt=0, description="Cap on tables per challenger (balanced design)."
    )


def _settings(config: TournamentConfig) -> GauntletFormat:
    fmt = config.format
    assert isinstance(fmt, GauntletFormat)
    return fmt


class Gauntlet(DesignedFormat):
    """Format ``gauntlet``."""

    name = "gauntlet"
    settings = GauntletFormat

    def issues(self, config: TournamentConfig, seen: Mapping[str, int]) -> Problems:
        """Challengers the field knows, listed once, leaving enough opponents for a table;
        each with a table free of its team-mates."""
        fmt = _settings(config)
        short = table_problem(config)
        issues = list(short)
        labels, k = config.labels, config.players
        for j, challenger in enumerate(fmt.challengers):
            if challenger not in seen:
                issues.append((("format", "challengers", j), unknown_label(challenger, labels)))
        if len(set(fmt.challengers)) != len(fmt.challengers):
            issues.append((("format", "challengers"), "a challenger is listed twice"))
        field = len(labels) - len(set(fmt.challengers) & set(labels))
        if field < k - 1:
            issues.append((("format", "challengers"), f"leaves {field} bot"
                           f"{'s' if field != 1 else ''} in the field, fewer than the {k - 1} "
                           f"opponents a table of {k} needs"))
        teams = team_map(config.bots)
        if not short and teams and len(set(teams.values())) != len(teams):
            issues.extend(_team_issues(config, fmt, teams))
        return issues

    def design(self, config: TournamentConfig) -> Iterator[tuple[int, ...]]:
        """The tables, from the config (seed 0 standing in while it is secret)."""
        fmt = _settings(config)
        k = config.players
        labels = config.labels
        index = {label: i for i, label in enumerate(labels)}
        challengers = [index[c] for c in fmt.challengers]
        field = [i for i in range(len(labels)) if i not in challengers]
        tables: list[tuple[int, ...]] = []
        for ci, challenger in enumerate(challengers):
            if fmt.max_tables is None:
                design = full_round_robin(len(field), k - 1)
            else:
                design = sampled_round_robin(len(field), k - 1, fmt.max_tables, config.seed or 0,
                                             ci)
            tables.extend((challenger, *(field[j] for j in subset)) for subset in design)
        return kept_apart(iter(equitable_seats(tables, k)), config)

    def total(self, config: TournamentConfig) -> int:
        """Tables times the matches of each."""
        fmt = _settings(config)
        n, k = len(config.bots), config.players
        if team_map(config.bots):  # the tables that keep team-mates apart: counted by making them
            tables = sum(1 for _ in self.design(config))
        else:
            challengers = len(fmt.challengers)
            tables = challengers * round_robin_tables(n - challengers, k - 1, fmt.max_tables)
        return tables * (k if config.duplicate else 1) * config.repeat

    def plan(self, schedule: Schedule, source: ConfigFile | None = None) -> AllTables:
        """Every table in one batch."""
        return AllTables(schedule, self.tables)


def _team_issues(config: TournamentConfig, fmt: GauntletFormat, teams: Teams) -> Problems:
    labels, k = config.labels, config.players
    index = {label: i for i, label in enumerate(labels)}
    challengers = [index[c] for c in fmt.challengers if c in index]
    field = [i for i in range(len(labels)) if i not in challengers]
    issues: Problems = []
    for j, c in enumerate(challengers):
        others = [i for i in field if apart((c, i), teams)]
        groups = group_count(others, teams)
        if groups < k - 1:
            issues.append((("format", "challengers", j), f"challenger {labels[c]!r} has no "
                           f"table of {k} without a team-mate: its opponents make only "
                           f"{groups} different teams"))
    return issues


FORMAT = Gauntlet()
