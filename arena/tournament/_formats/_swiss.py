"""Format ``swiss``: rounds of tables formed from the standings (pairing in
:mod:`arena.tournament._swiss`), one batch per round, paired from the records of the rounds
before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from arena.seeds import rng as seeded
from arena.tournament._config._formats import FormatSettings, Problems
from arena.tournament._formats._base import BaseFormat, ConfigFile, table_problem
from arena.tournament._plans import Batch, ByRound, table_specs
from arena.tournament._schedule import Table
from arena.tournament._standings import Standings
from arena.tournament._swiss import choose_byes, pair_round, table_sizes
from arena.tournament._teams import largest_team, mates, team_map

if TYPE_CHECKING:
    from arena.tournament._config import TournamentConfig
    from arena.tournament._schedule import Schedule


class SwissFormat(FormatSettings):
    """Rounds of tables formed from the standings."""

    type: Literal["swiss"]
    rounds: int = Field(gt=0, description="Number of rounds.")
    odd: Literal["short_tables", "byes"] = Field(
        default="short_tables",
        description="When the bots do not fill whole tables: tables one seat short, or byes.",
    )


def _settings(config: TournamentConfig) -> SwissFormat:
    fmt = config.format
    assert isinstance(fmt, SwissFormat)
    return fmt


class SwissHistory:
    """What Swiss pairing needs from earlier rounds, rebuilt from their records."""

    def __init__(self, labels: Sequence[str], players: int) -> None:
        self.labels = list(labels)
        self._index = {label: i for i, label in enumerate(labels)}
        n = len(labels)
        self.met: list[set[int]] = [set() for _ in range(n)]
        self.seat_counts: list[list[int]] = [[0] * players for _ in range(n)]
        self.byes = [0] * n
        self.standings = Standings(labels)

    def scores(self) -> list[Fraction]:
        """Each bot's mean score per match so far (what a table's spread is measured in)."""
        rows = {row.label: row for row in self.standings.rows()}
        return [
            Fraction(rows[label].units, rows[label].matches) if rows[label].matches
            else Fraction(0)
            for label in self.labels
        ]

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one match: who met whom, who sat where, and its result."""
        self.standings.add(record)
        bots = [self._index[seat["label"]] for seat in record["seats"]]
        for s, bot in enumerate(bots):
            if s < len(self.seat_counts[bot]):
                self.seat_counts[bot][s] += 1
            self.met[bot].update(b for b in bots if b != bot)


def swiss_tables(schedule: Schedule, round_: int,
                 history: SwissHistory) -> tuple[list[Table], list[int]]:
    """The tables and byes of Swiss round ``round_`` (see :func:`swiss_round`)."""
    seatings, byes = swiss_round(schedule, round_, history)
    tables = [
        Table(f"{schedule.name}-r{round_}-t{t}", bots, round_) for t, bots in enumerate(seatings)
    ]
    return tables, byes


def swiss_round(schedule: Schedule, round_: int,
                history: SwissHistory) -> tuple[list[tuple[int, ...]], list[int]]:
    """Tables (seat order) and byes of Swiss round ``round_``, from standings and history."""
    fmt = _settings(schedule.config)
    n, k = len(schedule.labels), schedule.config.players
    order = swiss_order(schedule, round_, history)
    sizes, bye_count = table_sizes(n, k, fmt.odd)
    byes = choose_byes(order, history.byes, bye_count)
    playing = [b for b in order if b not in byes]
    tables = pair_round(
        playing, sizes, history.met, history.seat_counts, scores=history.scores(),
        mates=mates(n, schedule.teams),
    )
    return tables, byes


def swiss_order(schedule: Schedule, round_: int, history: SwissHistory) -> list[int]:
    """Bots best first: a seeded shuffle in round 0, the standings afterwards."""
    schedule.check_seed()
    rng = seeded(schedule.seed, "swiss")
    shuffled = list(range(len(schedule.labels)))
    rng.shuffle(shuffled)
    if round_ == 0:
        return shuffled
    standing = history.standings.order()
    position = {label: i for i, label in enumerate(standing)}
    return sorted(range(len(schedule.labels)), key=lambda b: position[schedule.labels[b]])


class SwissRounds(ByRound):
    """Swiss: one batch per round, paired from the history of the rounds before.

    Records are held per round until the next round is paired; they are then added to the
    history in the order of their round's specs, so the pairing is the same whatever order
    the records came in (resumed, or from any number of workers).
    """

    def __init__(self, schedule: Schedule) -> None:
        super().__init__(schedule)
        self.history = SwissHistory(schedule.labels, schedule.config.players)
        self._round = 0
        self._order: dict[str, int] = {}

    def next_batch(self) -> Batch | None:
        """The next round's tables, its byes counted in the history."""
        if self._round:
            self._fold(self._round - 1)
        if self._round >= _settings(self.schedule.config).rounds:
            return None
        tables, byes = swiss_tables(self.schedule, self._round, self.history)
        for bye in byes:
            self.history.byes[bye] += 1
        ids = (spec.match_id for spec in table_specs(self.schedule, tables))
        self._order = {match_id: i for i, match_id in enumerate(ids)}
        self._round += 1
        return Batch(table_specs(self.schedule, tables), [self.labels[b] for b in byes])

    def _fold(self, round_: int) -> None:
        records = self._by_round.pop(round_, [])
        order = self._order
        records.sort(key=lambda r: order.get(r["match_id"], len(order)))
        for record in records:
            self.history.add(record)


class Swiss(BaseFormat):
    """Format ``swiss``."""

    name = "swiss"
    settings = SwissFormat

    def issues(self, config: TournamentConfig, seen: Mapping[str, int]) -> Problems:
        """Enough bots for a table; no short tables with points per place; teams no larger
        than a round's tables."""
        fmt = _settings(config)
        n, k = len(config.bots), config.players
        short = table_problem(config)
        issues = list(short)
        teams = team_map(config.bots)
        sizes, _ = table_sizes(n, k, fmt.odd)
        team, size = largest_team(teams) or ("", 0)
        if not short and size > len(sizes):
            issues.append((("bots",), f"team {team!r} has {size} members but a Swiss round of "
                           f"{n} bots has {len(sizes)} table{'s' if len(sizes) != 1 else ''}"
                           ": its members cannot all be seated apart"))
        if config.rules.get("points") is not None and any(s != k for s in sizes):
            issues.append((("format", "odd"), f"{n} bots do not fill tables of {k}, and short "
                           "tables cannot use 'rules.points' (a list per place); use odd: byes"))
        return issues

    def total(self, config: TournamentConfig) -> int:
        """Rounds times the matches of a round."""
        fmt = _settings(config)
        sizes, _ = table_sizes(len(config.bots), config.players, fmt.odd)
        per_round = sum(sizes) if config.duplicate else len(sizes)
        return fmt.rounds * per_round * config.repeat

    def plan(self, schedule: Schedule, source: ConfigFile | None = None) -> SwissRounds:
        """A round per batch."""
        return SwissRounds(schedule)


FORMAT = Swiss()
