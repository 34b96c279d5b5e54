"""Leagues of planted strengths: the league's schedule and stopping rule, checked on bots
whose true order is known, with no referee.

A planted duplicate set seats ``players`` entrants, plays ``deals`` deals at each of the
``players`` rotations of the seats, and draws each finishing order from Plackett-Luce (the
Gumbel trick, as :mod:`arena.ratings`' ``simulate_records`` does) with a luck term per deal
and seat: the cards. Every member holds every seat's cards once across the rotations, so the
luck cancels within the set as it does with duplicate deals, and deals within a set are
correlated as real ones are. Everything is seeded through ``arena.seeds`` from the run's seed.

tests/tournament/test_league_sim.py and benchmarks/league.py use this; docs/league.md gives
the figures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from arena.ratings import StageCounts, stage_counts
from arena.seeds import derive
from arena.tournament._league import Assessment, LeagueRules, Table, assess, choose_round

LUCK = 1.0
"""Standard deviation of the cards' contribution to a seat's draw in one deal."""


def planted_set(
    theta: npt.NDArray[np.float64], deals: int, luck: float, rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """Finishing orders (member indices, best first) of one duplicate set of the table whose
    members have strengths ``theta``: ``players * deals`` rows, rotation by rotation."""
    players = len(theta)
    cards = rng.normal(0.0, luck, size=(deals, players))  # per deal and seat
    rows = []
    for rotation in range(players):
        seat_of = (np.arange(players) + rotation) % players  # member m sits at seat_of[m]
        draws = theta[None, :] + cards[:, seat_of] + rng.gumbel(size=(deals, players))
        rows.append(np.argsort(-draws, axis=1))
    return np.concatenate(rows).astype(np.int64)


@dataclass
class PlantedLeague:
    """A league of planted entrants, played round by round."""

    strengths: list[float]
    rules: LeagueRules
    seed: int
    deals_per_match: int = 2
    luck: float = LUCK
    anchors: Sequence[int] = ()
    retired: set[int] = field(default_factory=set)
    rounds: int = 0
    played: dict[Table, int] = field(default_factory=dict)
    _orders: list[npt.NDArray[np.int64]] = field(default_factory=list)

    def add(self, strength: float) -> int:
        """A new entrant joins (it plays from the next round); returns its index."""
        self.strengths.append(strength)
        return len(self.strengths) - 1

    @property
    def deals(self) -> int:
        """Deals played so far."""
        return sum(len(rows) for rows in self._orders)

    def data(self) -> StageCounts:
        """Every deal so far, reduced for the fit (one cluster per set)."""
        n = len(self.strengths)
        if not self._orders:
            empty = np.zeros(0, dtype=np.int64)
            return stage_counts(n, empty, empty, empty, empty)
        orders = np.concatenate(self._orders)
        clusters = np.repeat(np.arange(len(self._orders)), [len(o) for o in self._orders])
        size = np.full(len(orders), self.rules.players, dtype=np.int64)
        return stage_counts(n, orders.reshape(-1), np.arange(len(orders)) * self.rules.players,
                            size, clusters.astype(np.int64))

    def assess(self) -> Assessment:
        """The fit and the stopping rule before the next round."""
        active = [i for i in range(len(self.strengths)) if i not in self.retired]
        return assess(self.data(), active, self.rules, seed=self.seed,
                      round_index=self.rounds, anchors=self.anchors)

    def play_round(self, assessment: Assessment) -> list[Table]:
        """Choose the next round from ``assessment`` and play it."""
        tables = choose_round(assessment, self.rules, seed=self.seed, round_index=self.rounds,
                              played=self.played)
        theta = np.asarray(self.strengths)
        for number, table in enumerate(tables):
            rng = np.random.default_rng(derive(self.seed, "planted", self.rounds, number))
            members = np.asarray(table, dtype=np.int64)
            self._orders.append(members[planted_set(theta[members], self.deals_per_match,
                                                    self.luck, rng)])
            key = tuple(sorted(table))
            self.played[key] = self.played.get(key, 0) + 1
        self.rounds += 1
        return tables

    def run(self, until: Callable[[Assessment], bool] | None = None,
            max_deals: int = 100_000) -> Assessment:
        """Play rounds until the stopping rule (or ``until``) holds or ``max_deals`` are
        played; returns the last assessment."""
        while True:
            assessment = self.assess()
            done = until(assessment) if until is not None else assessment.stop is not None
            if done or self.deals >= max_deals:
                return assessment
            if not self.play_round(assessment):
                return assessment


def true_order(strengths: Sequence[float], among: Sequence[int] | None = None) -> list[int]:
    """Entrants best first by planted strength."""
    pool = list(range(len(strengths))) if among is None else list(among)
    return sorted(pool, key=lambda i: (-strengths[i], i))


def top_right(assessment: Assessment, strengths: Sequence[float], top: int) -> bool:
    """Whether the league's best ``top`` are the planted best ``top``, in order."""
    return assessment.order[:top] == true_order(strengths, assessment.active)[:top]
