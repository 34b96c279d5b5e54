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
- sprt: every bot sits at every set, so team-mates cannot be kept apart: refused;
- knockout: refused too (its tables are seeded from the config's order alone).

Each format's checks (:meth:`TournamentFormat.issues`) say, one line each, where a config's
teams cannot be kept apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.tournament._config._models import BotConfig

Teams = Mapping[int, str]
"""Entrant index -> team, for the entrants that have one."""


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
