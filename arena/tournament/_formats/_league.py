"""Format ``league``: rounds of duplicate sets chosen where the ratings are least sure, the
field following the config file while it runs (docs/league.md). Its settings and pure core
are in :mod:`arena.tournament._league` (which the simulations use alone), its plan in
:mod:`arena.tournament._league_plan`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from arena.tournament._config._formats import Problems
from arena.tournament._formats._base import BaseFormat, ConfigFile, sets_only, table_problem
from arena.tournament._league import (
    MAX_FIELD,
    LeagueFormat,
    LeagueStop,
    entry_problem,
    label_problem,
    league_rules,
)
from arena.tournament._league_plan import LeaguePlan
from arena.tournament._league_status import LeagueStatus
from arena.tournament._teams import group_count, team_map

__all__ = ["FORMAT", "LeagueFormat", "LeagueStop"]

if TYPE_CHECKING:
    from arena.tournament._config import TournamentConfig
    from arena.tournament._schedule import Schedule


def _settings(config: TournamentConfig) -> LeagueFormat:
    fmt = config.format
    assert isinstance(fmt, LeagueFormat)
    return fmt


class League(BaseFormat):
    """Format ``league``."""

    name = "league"
    settings = LeagueFormat
    topics = ("league",)
    bot_keys = ("version", "retired", "anchor")
    takes_submissions = True

    def duplicate(self, config: TournamentConfig) -> bool:
        """Always sets."""
        return True

    def total(self, config: TournamentConfig) -> int:
        """0: the rounds are chosen as it goes (the plan counts what it chose)."""
        return 0

    def describe(self, config: TournamentConfig) -> str:
        """The size of a round and when it stops (its length is not known in advance)."""
        rules = league_rules(_settings(config), config.players)
        active = sum(1 for bot in config.bots if not bot.retired)
        tables = rules.tables(active)
        size = (f"rounds of {tables} duplicate set{'s' if tables != 1 else ''} "
                f"({tables * config.players} matches) chosen by {rules.table_choice}")
        if rules.deals is not None:
            stop = f"stops after {rules.deals} deals"
        elif rules.confident is not None:
            stop = (f"stops once P(order of top {rules.top}) >= {rules.confident:g} with "
                    f"{rules.min_sets} sets for every active entrant")
        else:
            stop = "runs until stopped (Ctrl-C; run again to resume)"
        return f", {active} active, {size}, {stop}"

    def plan(self, schedule: Schedule, source: ConfigFile | None = None) -> LeaguePlan:
        """A round per batch, following the config file."""
        return LeaguePlan(schedule, source)

    def resume_identity(self, config: TournamentConfig) -> dict[str, Any]:
        """All but the field and the stopping rule, which may change (the league keeps its
        own history of them in its journal, league.jsonl)."""
        identity = config.identity()
        identity.pop("bots")
        identity["format"] = {"type": "league"}
        return identity

    def closing(self, outcome: Mapping[str, Any]) -> list[str]:
        """Where the league stood after its last round."""
        return [LeagueStatus(**outcome).line()]

    def issues(self, config: TournamentConfig, seen: Mapping[str, int]) -> Problems:
        """Whole duplicate sets once per table, labels free of '@' and short, a bounded field,
        enough active entrants
        for a table (of different teams), a ``top`` below the field."""
        short = table_problem(config)
        issues = short + sets_only(config, self.name, "chooses its tables round by round")
        for i, (label, bot) in enumerate(zip(config.labels, config.bots, strict=True)):
            problem = label_problem(label) or entry_problem(
                bot.model_dump(mode="json", exclude_defaults=True))
            if problem is not None:
                issues.append((("bots", i), problem))
        if len(config.bots) > MAX_FIELD:
            issues.append((("bots",), f"{len(config.bots)} entries: a league's field holds "
                           f"at most {MAX_FIELD} entrants"))
        stop = _settings(config).stop
        k = config.players
        pool = [i for i, bot in enumerate(config.bots) if not bot.retired]
        if len(pool) < k:  # no table could be seated: the league would play nothing
            issues.append((("bots",), f"{len(pool)} active entrants cannot fill a table of "
                           f"{k}: a league needs at least {k}"))
        if stop is not None and stop.confident is not None and (stop.top or 3) >= len(pool):
            issues.append((("format", "stop", "top"), f"must be below the {len(pool)} active "
                           "entrants, or the order of the top is the whole field"))
        teams = team_map(config.bots)
        groups = group_count(pool, teams)
        if not short and len(set(teams.values())) != len(teams) and groups < k:
            issues.append((("bots",), f"no table of {k} keeps team-mates apart: the "
                           f"{len(pool)} active entrants make only {groups} different teams "
                           "(a bot without a team counts as its own)"))
        return issues


FORMAT = League()
