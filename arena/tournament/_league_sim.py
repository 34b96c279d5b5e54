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

from arena.ratings import StageCounts, fit_strengths, stage_counts
from arena.seeds import derive
from arena.tournament._league import (
    Assessment,
    LeagueRules,
    Table,
    TableChoice,
    assess,
    choose_round,
)

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


@dataclass(frozen=True)
class FitBias:
    """How the fitted strengths of many planted leagues of one schedule miss the truth."""

    table_choice: str
    leagues: int
    deals: int  # the fixed budget of each league
    truth: npt.NDArray[np.float64]  # per entrant: the planted strength, centred
    bias: npt.NDArray[np.float64]  # per entrant: mean of (fitted - planted), centred
    se: npt.NDArray[np.float64]  # per entrant: its standard error over the leagues
    coverage: float  # share of (league, entrant) whose interval holds the planted strength
    width: float  # mean width of those intervals


def fit_bias(strengths: Sequence[float], table_choice: TableChoice, *, leagues: int, deals: int,
             seed: int = 0, confidence: float = 0.95, resamples: int = 200,
             luck: float = 0.0, replay: bool = False) -> FitBias:
    """Play ``leagues`` planted leagues of one schedule for a fixed budget of ``deals`` (the
    schedule is the one of ``stop: {confident: 0.95, top: 3}``, but no league stops before
    the budget), fit each one's records as ``arena ratings`` does (strengths centred on every
    entrant, intervals from the posterior's draws) and compare with the planted strengths:
    the per-entrant bias and the coverage of the ``confidence`` intervals.
    ``luck=0`` makes Plackett-Luce the true model, so the planted numbers are what the fit
    estimates (with the cards' luck the fitted scale is compressed under any schedule).
    ``replay``: fit instead the same tables played again with fresh results: a design as
    unequal as the schedule's, chosen from results that the fit does not see (so, unlike the
    league's own, not ignorable: docs/ratings.md)."""
    truth = np.asarray(strengths, dtype=np.float64) - float(np.mean(strengths))
    errors, held, widths = [], [], []
    for run in range(leagues):
        rules = LeagueRules(table_choice=table_choice, confident=0.95, top=3, min_sets=2,
                            deals=deals, tables_per_round=3, resamples=20)
        league = PlantedLeague(list(strengths), rules, seed=derive(seed, "bias", run),
                               luck=luck)
        tables: list[Table] = []
        while league.deals < deals:
            chosen = league.play_round(league.assess())
            if not chosen:
                break
            tables += chosen
        data = league.data()
        if replay:
            data = _replayed(tables, strengths, league.deals_per_match, luck,
                             np.random.default_rng(derive(seed, "bias", run, "replay")))
        fit = fit_strengths(data, resamples=resamples,
                            seed=derive(seed, "bias", run, "bootstrap"))
        low, high = fit.interval(confidence)
        errors.append(fit.theta - truth)
        held.append((low <= truth) & (truth <= high))
        widths.append(high - low)
    err = np.asarray(errors)
    return FitBias(table_choice=table_choice + (" replayed" if replay else ""),
                   leagues=leagues, deals=deals, truth=truth,
                   bias=err.mean(axis=0), se=err.std(axis=0, ddof=1) / np.sqrt(leagues),
                   coverage=float(np.mean(held)), width=float(np.mean(widths)))


def _replayed(tables: Sequence[Table], strengths: Sequence[float], deals: int, luck: float,
              rng: np.random.Generator) -> StageCounts:
    """The sets of ``tables`` played again with fresh results, reduced for the fit."""
    theta = np.asarray(strengths, dtype=np.float64)
    orders = []
    for table in tables:
        members = np.asarray(table, dtype=np.int64)
        orders.append(members[planted_set(theta[members], deals, luck, rng)])
    rows = np.concatenate(orders)
    players = rows.shape[1]
    clusters = np.repeat(np.arange(len(orders)), [len(o) for o in orders]).astype(np.int64)
    return stage_counts(len(strengths), rows.reshape(-1), np.arange(len(rows)) * players,
                        np.full(len(rows), players, dtype=np.int64), clusters)
