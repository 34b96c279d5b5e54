"""From a config to match specs: formats, seats, duplicate sets and seeds.

A schedule is a sequence of rounds (one for round robin and gauntlet, one
per Swiss round); a round is a lazy sequence of tables; a table becomes one
match, or with ``duplicate: true`` one match per rotation of its bots
through the seats, all with the table's seed. Match ids name the round,
table and rotation (``demo-r2-t7-p1``) and are the resume key.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from arena.referee import MatchSpec, Seat
from arena.seeds import match_seed
from arena.seeds import rng as seeded
from arena.tournament._config import (
    GauntletFormat,
    LeagueFormat,
    RoundRobinFormat,
    SprtFormat,
    SwissFormat,
    TournamentConfig,
)
from arena.tournament._design import (
    equitable_seats,
    full_round_robin,
    round_robin_tables,
    sampled_round_robin,
)
from arena.tournament._league import league_summary
from arena.tournament._sprt import SprtPlan
from arena.tournament._standings import Standings
from arena.tournament._swiss import choose_byes, pair_round, table_sizes
from arena.tournament._teams import apart, mates, team_map


@dataclass(frozen=True)
class Table:
    """One table of a round: its id and its bots (indices into the config's bots) by seat."""

    table_id: str
    bots: tuple[int, ...]
    round: int | None


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


class Schedule:
    """Every match of a tournament, produced lazily as plain match specs."""

    def __init__(self, config: TournamentConfig) -> None:
        from arena.game import Rules

        self.secret = config.seed is None
        """The config has no seed yet: the schedule's shape is known, not its matches."""
        if self.secret:
            config = config.model_copy(update={"seed": 0})
        self.config = config
        self.seed: int = config.seed or 0
        """The tournament seed (``0`` standing in while it is secret and not drawn)."""
        self.labels = config.labels
        self.name = config.name
        self._seats = [bot.seat() for bot in config.bots]
        self.teams = team_map(config.bots)
        """Entrant index -> team: team-mates are never seated at one table (_teams.py)."""
        self._rules = Rules.from_dict(config.rules_mapping())
        self._limits = config.limits.limits()

    @property
    def is_swiss(self) -> bool:
        """Whether rounds depend on earlier results."""
        return isinstance(self.config.format, SwissFormat)

    @property
    def is_sprt(self) -> bool:
        """Whether duplicate sets are played until a sequential test decides."""
        return isinstance(self.config.format, SprtFormat)

    def sprt_plan(self) -> SprtPlan:
        """The sets of an sprt tournament (seating, seeds, what the challenger is scored on)."""
        return SprtPlan(self.config, self._rules, self._limits)

    @property
    def rounds(self) -> int:
        """Number of rounds (1 unless Swiss)."""
        fmt = self.config.format
        return fmt.rounds if isinstance(fmt, SwissFormat) else 1

    @property
    def total(self) -> int:
        """Number of matches in the whole tournament, known before any is played."""
        n, k = len(self.labels), self.config.players
        fmt = self.config.format
        dup = self.config.duplicate
        if isinstance(fmt, SprtFormat):
            return fmt.max_sets * self.sprt_plan().set_size  # at most: the test stops early
        if isinstance(fmt, LeagueFormat):
            return 0  # chosen round by round: the league's plan counts what it chose
        if isinstance(fmt, SwissFormat):
            sizes, _ = table_sizes(n, k, fmt.odd)
            return fmt.rounds * (sum(sizes) if dup else len(sizes)) * self.config.repeat
        if self.teams:  # the tables that keep team-mates apart: counted by making them
            tables = sum(1 for _ in self._design())
        elif isinstance(fmt, RoundRobinFormat):
            tables = round_robin_tables(n, k, fmt.max_tables)
        else:
            challengers = len(fmt.challengers)
            field = n - challengers
            tables = challengers * round_robin_tables(field, k - 1, fmt.max_tables)
        return tables * (k if dup else 1) * self.config.repeat

    def league_summary(self) -> str:
        """A league's round size and stopping rule, in words (its :attr:`total` is 0: its
        rounds are chosen as it goes)."""
        return league_summary(self.config)

    def tables(self, round_: int, history: SwissHistory | None = None) -> Iterator[Table]:
        """The tables of round ``round_`` (Swiss rounds need the history of earlier ones)."""
        self._check_seed()
        fmt = self.config.format
        if isinstance(fmt, SprtFormat):
            raise ValueError("an sprt tournament is played in sets: see sprt_plan()")
        elif isinstance(fmt, LeagueFormat):
            raise ValueError("a league chooses its tables round by round: see LeaguePlan")
        elif isinstance(fmt, RoundRobinFormat | GauntletFormat):
            for t, bots in enumerate(self._design()):
                yield Table(f"{self.name}-t{t}", bots, None)
        else:
            if history is None:
                raise ValueError("Swiss rounds are formed from the history of earlier rounds")
            yield from self.swiss_tables(round_, history)[0]

    def _design(self) -> Iterator[tuple[int, ...]]:
        """The tables of a round robin or gauntlet, seat order; with teams, those that keep
        team-mates apart, seated again so each bot's seat counts stay within one."""
        fmt = self.config.format
        n, k = len(self.labels), self.config.players
        design: Iterator[tuple[int, ...]]
        if isinstance(fmt, GauntletFormat):
            design = iter(self._gauntlet())
        else:
            assert isinstance(fmt, RoundRobinFormat)
            design = (full_round_robin(n, k) if fmt.max_tables is None
                      else sampled_round_robin(n, k, fmt.max_tables, self.seed))
        if not self.teams:
            yield from design
            return
        kept = [table for table in design if apart(table, self.teams)]
        yield from equitable_seats(kept, k) if kept else []

    def swiss_tables(self, round_: int, history: SwissHistory) -> tuple[list[Table], list[int]]:
        """The tables and byes of Swiss round ``round_`` (see :meth:`swiss_round`)."""
        seatings, byes = self.swiss_round(round_, history)
        tables = [
            Table(f"{self.name}-r{round_}-t{t}", bots, round_) for t, bots in enumerate(seatings)
        ]
        return tables, byes

    def swiss_round(
        self, round_: int, history: SwissHistory
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """Tables (seat order) and byes of Swiss round ``round_``, from standings and history."""
        fmt = self.config.format
        assert isinstance(fmt, SwissFormat)
        n, k = len(self.labels), self.config.players
        order = self.swiss_order(round_, history)
        sizes, bye_count = table_sizes(n, k, fmt.odd)
        byes = choose_byes(order, history.byes, bye_count)
        playing = [b for b in order if b not in byes]
        tables = pair_round(
            playing, sizes, history.met, history.seat_counts, scores=history.scores(),
            mates=mates(n, self.teams),
        )
        return tables, byes

    def swiss_order(self, round_: int, history: SwissHistory) -> list[int]:
        """Bots best first: a seeded shuffle in round 0, the standings afterwards."""
        self._check_seed()
        rng = seeded(self.seed, "swiss")
        shuffled = list(range(len(self.labels)))
        rng.shuffle(shuffled)
        if round_ == 0:
            return shuffled
        standing = history.standings.order()
        position = {label: i for i, label in enumerate(standing)}
        return sorted(range(len(self.labels)), key=lambda b: position[self.labels[b]])

    @property
    def duplicate(self) -> bool:
        """Whether a table is a duplicate set (always in a league)."""
        return self.config.duplicate or self.config.format.type == "league"

    def specs(self, table: Table, seats: Sequence[Seat] | None = None) -> Iterator[MatchSpec]:
        """The match specs of one table: one match, or one per rotation in duplicate mode.

        ``seats`` are the entrants ``table.bots`` index (default: the config's bots; a league
        passes its field, which grows)."""
        self._check_seed()
        seats = self._seats if seats is None else seats
        duplicate = self.duplicate
        m = len(table.bots)
        rotations = range(m) if duplicate else range(1)
        repeat = self.config.repeat
        for s in range(repeat):
            play_id = f"{table.table_id}-s{s}" if repeat > 1 else table.table_id
            seed = match_seed(self.seed, play_id)
            base = cyclic_order(table.bots, s) if duplicate else table.bots
            for p in rotations:
                # Rotation p moves every bot p seats on: over the set, each bot holds
                # each seat's cards once.
                bots = base[m - p :] + base[: m - p] if p else base
                yield MatchSpec(
                    match_id=f"{play_id}-p{p}" if duplicate else play_id,
                    tournament=self.name,
                    seed=seed,
                    rules=self._rules,
                    seats=tuple(seats[b] for b in bots),
                    limits=self._limits,
                    set=play_id if duplicate else None,
                    round=table.round,
                )

    def _check_seed(self) -> None:
        if self.secret:
            raise ValueError("the config has no seed: draw one first (run_tournament draws a "
                             "secret seed and keeps it in the output folder)")

    def _gauntlet(self) -> list[tuple[int, ...]]:
        fmt = self.config.format
        assert isinstance(fmt, GauntletFormat)
        k = self.config.players
        index = {label: i for i, label in enumerate(self.labels)}
        challengers = [index[c] for c in fmt.challengers]
        field = [i for i in range(len(self.labels)) if i not in challengers]
        tables: list[tuple[int, ...]] = []
        for ci, challenger in enumerate(challengers):
            if fmt.max_tables is None:
                design = full_round_robin(len(field), k - 1)
            else:
                design = sampled_round_robin(
                    len(field), k - 1, fmt.max_tables, self.seed, ci
                )
            tables.extend((challenger, *(field[j] for j in subset)) for subset in design)
        return equitable_seats(tables, k)


def cyclic_order(bots: tuple[int, ...], play: int) -> tuple[int, ...]:
    """The seating order of play number ``play`` of a duplicate table.

    Rotations keep every bot's neighbours: who plays right after whom matters in
    President, so one fixed order would favour some bot over another for the whole
    tournament. Successive plays of a table therefore cycle through the table's
    distinct cyclic orders (the first bot fixed, the others permuted), so with
    ``repeat: N`` each order is used equally often, to within one.
    """
    if len(bots) < 3:
        return bots
    # The permutation of the other bots numbered `play` in lexicographic order.
    rest = list(bots[1:])
    index = play % math.factorial(len(rest))
    order = [bots[0]]
    while rest:
        block = math.factorial(len(rest) - 1)
        order.append(rest.pop(index // block))
        index %= block
    return tuple(order)
