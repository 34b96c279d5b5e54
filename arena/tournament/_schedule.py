"""From a config to match specs: seats, duplicate sets and seeds.

The format (:mod:`arena.tournament._formats`) chooses the tables, round by round; the
schedule turns a table into its matches: one match, or with duplicate sets one match per
rotation of its bots through the seats, all with the table's seed. Match ids name the
round, table and rotation (``demo-r2-t7-p1``) and are the resume key.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arena.referee import MatchSpec, Seat
from arena.seeds import match_seed
from arena.tournament._config._table import format_of
from arena.tournament._teams import team_map

if TYPE_CHECKING:
    from arena.game import Rules
    from arena.referee import Limits
    from arena.tournament._config import TournamentConfig
    from arena.tournament._config._table import ConfigFormat


@dataclass(frozen=True)
class Table:
    """One table of a round: its id and its bots (indices into the config's bots) by seat."""

    table_id: str
    bots: tuple[int, ...]
    round: int | None


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
        self.format: ConfigFormat = format_of(config.format)
        """The format, which the schedule asks for its size and sets."""

    @property
    def rules(self) -> Rules:
        """The rules of every match."""
        return self._rules

    @property
    def limits(self) -> Limits:
        """The limits of every match."""
        return self._limits

    @property
    def total(self) -> int:
        """Number of matches in the whole tournament, known before any is played (at most,
        for a format that may stop early; 0 for one that chooses its rounds as it goes)."""
        return self.format.total(self.config)

    @property
    def duplicate(self) -> bool:
        """Whether a table is a duplicate set (as the config says, or always in some
        formats)."""
        return self.format.duplicate(self.config)

    def specs(self, table: Table, seats: Sequence[Seat] | None = None) -> Iterator[MatchSpec]:
        """The match specs of one table: one match, or one per rotation in duplicate mode.

        ``seats`` are the entrants ``table.bots`` index (default: the config's bots; a league
        passes its field, which grows)."""
        self.check_seed()
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

    def check_seed(self) -> None:
        """ValueError while the seed is secret and not drawn: the matches are not known."""
        if self.secret:
            raise ValueError("the config has no seed: draw one first (run_tournament draws a "
                             "secret seed and keeps it in the output folder)")


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
