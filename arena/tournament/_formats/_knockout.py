"""Format ``knockout``: an elimination at tables of ``players`` seats, each table a
duplicate set (docs/tournaments.md, "Knockout").

Round after round, the survivors (at first every entrant) are seated at tables by their
seeds, the config's order of the bots: with ``n`` survivors at tables of ``k``, a round has
``n // k`` tables, and the ``n % k`` best seeds sit it out (byes: they go on without
playing). The others are dealt to the tables in a snake (seeds 1, 2, ... T to tables 1 to
T, then T to 1, and so on), so the tables are alike in strength. Each table plays one
duplicate set (every rotation of its seats, on the table's seed), and its best ``advance``
entrants go on: ranked by the set's results as the standings rank (mean score, then wins,
then game points), a tie going to the better seed; an error record counts for no one. The
rounds go on while at least ``k`` entrants survive; the survivors of the last round are the
winners. The final order: later rounds first, then the place at the table of that round
(a bye as first place), then the seed.

Everything is a function of the seed, the config and the records, so a resumed run plays
the same rounds: each round is paired from the records of the one before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from arena.tournament._config._formats import FormatSettings, Problems
from arena.tournament._formats._base import BaseFormat, ConfigFile, sets_only, table_problem
from arena.tournament._plans import Batch, ByRound, table_specs
from arena.tournament._schedule import Table
from arena.tournament._standings import Standings

if TYPE_CHECKING:
    from arena.tournament._config import TournamentConfig
    from arena.tournament._reporter import Reporter
    from arena.tournament._schedule import Schedule


class KnockoutFormat(FormatSettings):
    """An elimination: each round's tables are duplicate sets, their best go on."""

    type: Literal["knockout"]
    advance: int = Field(
        default=1, gt=0,
        description="Entrants of each table who go on to the next round (the best of its "
        "duplicate set); below 'players'.",
    )


def _settings(config: TournamentConfig) -> KnockoutFormat:
    fmt = config.format
    assert isinstance(fmt, KnockoutFormat)
    return fmt


def rounds(entrants: int, players: int, advance: int) -> list[tuple[int, int]]:
    """Each round's tables and byes, from ``entrants`` on, while a table can be filled."""
    out = []
    while entrants >= players:
        tables, byes = entrants // players, entrants % players
        out.append((tables, byes))
        entrants = tables * advance + byes
    return out


def seat(survivors: Sequence[int], players: int) -> tuple[list[int], list[tuple[int, ...]]]:
    """The byes and the tables of a round: ``survivors`` best seed first, the best
    ``len % players`` sitting out, the rest dealt to the tables in a snake."""
    count = len(survivors) // players
    byes = list(survivors[: len(survivors) % players])
    playing = survivors[len(byes):]
    tables: list[list[int]] = [[] for _ in range(count)]
    for i, entrant in enumerate(playing):
        row, column = divmod(i, count)
        tables[column if row % 2 == 0 else count - 1 - column].append(entrant)
    return byes, [tuple(table) for table in tables]


def table_order(table: Sequence[int], records: Sequence[Mapping[str, Any]],
                labels: Sequence[str]) -> list[int]:
    """A table's entrants best first by its set's results: mean score, wins, game points
    (as the standings rank), then the better seed (the smaller index)."""
    standings = Standings([labels[e] for e in table])
    standings.extend(records)
    rows = {row.label: row.sort_key()[:3] for row in standings.rows()}
    return sorted(table, key=lambda e: (rows[labels[e]], e))


class KnockoutRounds(ByRound):
    """Format knockout's plan: one batch per round, seated from the survivors of the round
    before (records are held per round until it is complete, so the seating does not
    depend on the order they came in)."""

    def __init__(self, schedule: Schedule) -> None:
        super().__init__(schedule)
        self.advance = _settings(schedule.config).advance
        self.players = schedule.config.players
        self.survivors = list(range(len(self.labels)))  # best seed first
        self.reached: dict[int, tuple[int, int]] = {}  # entrant -> (round, place there)
        self._tables: list[tuple[int, ...]] = []
        self._byes: list[int] = []
        self._round = 0
        self._notes: list[str] = []

    def next_batch(self) -> Batch | None:
        """The next round, or None once fewer than a table's seats survive."""
        if self._round:
            self._fold(self._round - 1)
        if len(self.survivors) < self.players:
            if self._round and not self._notes:
                self._notes.append(f"knockout over after {self._round} round"
                                   f"{'s' if self._round != 1 else ''}: "
                                   f"{', '.join(self.winners())} "
                                   f"{'go' if len(self.survivors) != 1 else 'goes'} through")
            return None
        self._byes, self._tables = seat(self.survivors, self.players)
        name, round_ = self.schedule.name, self._round
        tables = [Table(f"{name}-r{round_}-t{t}", bots, round_)
                  for t, bots in enumerate(self._tables)]
        self._notes.append(f"knockout round {round_}: {len(self.survivors)} entrants at "
                           f"{len(tables)} table{'s' if len(tables) != 1 else ''}, "
                           f"{len(self._byes)} bye{'s' if len(self._byes) != 1 else ''}")
        self._round += 1
        return Batch(table_specs(self.schedule, tables), [self.labels[b] for b in self._byes])

    def _fold(self, round_: int) -> None:
        """The survivors of ``round_``: its byes and the best of each table."""
        by_set: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for record in self._by_round.pop(round_, []):
            by_set[str(record.get("set"))].append(record)
        going = list(self._byes)
        for bye in self._byes:
            self.reached[bye] = (round_, 0)
        for t, table in enumerate(self._tables):
            order = table_order(table, by_set[f"{self.schedule.name}-r{round_}-t{t}"],
                                self.labels)
            for place, entrant in enumerate(order):
                self.reached[entrant] = (round_, place)
            going += order[: self.advance]
        self.survivors = sorted(going)

    def winners(self) -> list[str]:
        """The survivors, best first."""
        return [self.labels[e] for e in self._order() if e in self.survivors]

    def _order(self) -> list[int]:
        return sorted(range(len(self.labels)),
                      key=lambda e: (-self.reached.get(e, (-1, 0))[0],
                                     self.reached.get(e, (-1, 0))[1], e))

    def report(self, reporter: Reporter) -> None:
        """Each round as it is seated, and the winners."""
        for line in self._notes:
            reporter.note(line)
        self._notes.clear()

    def summary(self) -> dict[str, Any] | None:
        """The winners, the final order and the round each entrant went out in."""
        finished = len(self.survivors) < self.players and self._round > 0
        return {
            "rounds": self._round,
            "finished": finished,
            "winners": self.winners() if finished else [],
            "order": [self.labels[e] for e in self._order()],
            "out": {self.labels[e]: self.reached[e][0] for e in self.reached
                    if e not in self.survivors},
        }


class Knockout(BaseFormat):
    """Format ``knockout``."""

    name = "knockout"
    settings = KnockoutFormat

    def duplicate(self, config: TournamentConfig) -> bool:
        """Always sets."""
        return True

    def _rounds(self, config: TournamentConfig) -> list[tuple[int, int]]:
        return rounds(len(config.bots), config.players, _settings(config).advance)

    def total(self, config: TournamentConfig) -> int:
        """Every table of every round, one match per seat."""
        return sum(tables for tables, _ in self._rounds(config)) * config.players

    def describe(self, config: TournamentConfig) -> str:
        """The rounds' tables and who goes on."""
        plan = self._rounds(config)
        tables = ", ".join(str(t) for t, _ in plan)
        advance = _settings(config).advance
        return (f", best {advance} of each table go on, {len(plan)} round"
                f"{'s' if len(plan) != 1 else ''} (tables: {tables}), "
                f"{self.total(config)} matches")

    def plan(self, schedule: Schedule, source: ConfigFile | None = None) -> KnockoutRounds:
        """A round per batch."""
        return KnockoutRounds(schedule)

    def closing(self, outcome: Mapping[str, Any]) -> list[str]:
        """The winners."""
        winners = outcome.get("winners") or []
        if not winners:
            return [f"knockout stopped after {outcome.get('rounds', 0)} rounds"]
        return [f"Knockout {'winner' if len(winners) == 1 else 'winners'}: "
                f"{', '.join(winners)}"]

    def issues(self, config: TournamentConfig, seen: Mapping[str, int]) -> Problems:
        """A table the field fills, someone knocked out at each table, sets once per
        table, no teams."""
        issues = table_problem(config)
        k, advance = config.players, _settings(config).advance
        if advance >= k:
            issues.append((("format", "advance"), f"must be below 'players' ({k}), or no one "
                           "at a table is knocked out"))
        issues += sets_only(config, self.name, "plays each table once, as a duplicate set")
        for i, bot in enumerate(config.bots):
            if bot.team is not None:
                issues.append((("bots", i, "team"), "format knockout seats entrants by their "
                               "seeds alone and cannot keep team-mates apart; leave 'team' "
                               "out"))
        return issues


FORMAT = Knockout()
