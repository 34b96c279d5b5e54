"""Teams: entrants given one ``team:`` are never seated at one table.

Entrants of one team (one author's bots, say) could pass each other what they hold through
any channel the sandbox cannot close, such as the timing of their answers
(docs/security.md, "Collusion"); seated apart they have nothing to gain. Every format that
seats entrants asks these functions, so the rule is one rule:

- round robin: the tables that would seat team-mates together are left out (and the seats
  of the rest balanced again); a table needs ``players`` entrants of different teams;
- gauntlet: the same, challenger by challenger;
- Swiss: team-mates are never paired, before any other criterion; a round needs at least as
  many tables as the largest team has members;
- league: the closest table that keeps team-mates apart (docs/league.md);
- sprt: every bot sits at every set, so team-mates cannot be kept apart: refused.

:func:`team_issues` says, one line each, where a config's teams cannot be kept apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from arena.tournament._config._formats import (
    GauntletFormat,
    LeagueFormat,
    RoundRobinFormat,
    SprtFormat,
    SwissFormat,
)

if TYPE_CHECKING:
    from arena.tournament._config._models import BotConfig, TournamentConfig

Teams = Mapping[int, str]
"""Entrant index -> team, for the entrants that have one."""

Problems = list[tuple[tuple[str | int, ...], str]]


def team_map(bots: Sequence[BotConfig]) -> dict[int, str]:
    """The teams of a config's bots, by index."""
    return {i: bot.team for i, bot in enumerate(bots) if bot.team is not None}


def apart(members: Sequence[int], teams: Teams) -> bool:
    """Whether no two of ``members`` are team-mates."""
    named = [teams[m] for m in members if m in teams]
    return len(named) == len(set(named))


def group_count(members: Sequence[int], teams: Teams) -> int:
    """How many of ``members`` can share a table at most: a team counts once."""
    return len({teams.get(m, f"\0{m}") for m in members})


def mates(n: int, teams: Teams) -> list[set[int]]:
    """Per entrant of ``range(n)``: its team-mates."""
    out: list[set[int]] = [set() for _ in range(n)]
    for a, team in teams.items():
        out[a] = {b for b, other in teams.items() if other == team and b != a}
    return out


def largest_team(teams: Teams) -> tuple[str, int] | None:
    """The team with most members and their number (None without teams)."""
    sizes: dict[str, int] = {}
    for team in teams.values():
        sizes[team] = sizes.get(team, 0) + 1
    if not sizes:
        return None
    team = max(sorted(sizes), key=sizes.__getitem__)
    return team, sizes[team]


def team_issues(config: TournamentConfig) -> Problems:
    """Where the config's format cannot seat its team-mates apart, one line each."""
    teams = team_map(config.bots)
    if not teams or len(set(teams.values())) == len(teams):
        return []
    k, fmt = config.players, config.format
    labels = config.labels
    everyone = list(range(len(labels)))
    if isinstance(fmt, SprtFormat):
        team, _ = largest_team(teams) or ("", 0)
        names = [labels[i] for i, t in teams.items() if t == team]
        return [(("bots",), f"format sprt seats every bot at every set: team-mates "
                 f"{' and '.join(names)} (team {team!r}) would meet")]
    if isinstance(fmt, RoundRobinFormat | LeagueFormat):
        pool = everyone if isinstance(fmt, RoundRobinFormat) else [
            i for i in everyone if not config.bots[i].retired]
        groups = group_count(pool, teams)
        if groups < k:
            who = "bots" if isinstance(fmt, RoundRobinFormat) else "active entrants"
            return [(("bots",), f"no table of {k} keeps team-mates apart: the {len(pool)} "
                     f"{who} make only {groups} different teams (a bot without a team "
                     "counts as its own)")]
    if isinstance(fmt, GauntletFormat):
        return _gauntlet_team_issues(config, fmt, teams)
    if isinstance(fmt, SwissFormat):
        from arena.tournament._swiss import table_sizes

        sizes, _ = table_sizes(len(labels), k, fmt.odd)
        team, size = largest_team(teams) or ("", 0)
        if size > len(sizes):
            return [(("bots",), f"team {team!r} has {size} members but a Swiss round of "
                     f"{len(labels)} bots has {len(sizes)} table{'s' if len(sizes) != 1 else ''}"
                     ": its members cannot all be seated apart")]
    return []


def _gauntlet_team_issues(config: TournamentConfig, fmt: GauntletFormat,
                          teams: Teams) -> Problems:
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
