"""Plackett-Luce strengths by maximum likelihood, and their bootstrap over duplicate sets.

The league ranks its entrants by this fit, not by mean score: a mean score depends on whom a
bot met, and a league that seats close ratings together gives strong bots strong opponents.
The Plackett-Luce model explains each finishing order by the strengths of the bots at that
table, so who was seated where is accounted for by the model itself.

A deal's finishing order ``a > b > c > d`` is three choices ("stages"): ``a`` wins among
``{a, b, c, d}``, ``b`` among ``{b, c, d}``, ``c`` among ``{c, d}``. The fit is Hunter's (2004)
minorise-maximise iteration over those stages, with a weak prior: every bot has drawn one
virtual game against a virtual bot of strength 1 (``prior`` stages won, as many lost), so a
bot that always won or always lost still has a finite strength, and a bot with no deals sits
at 0. Strengths are reported as ``theta = log(gamma)``, centred on the anchors (or on every
bot that played when there are none), so a fixed anchor pins the scale across leagues.

Intervals and rank probabilities come from a bootstrap over clusters (duplicate sets, or
matches outside sets): every resample refits the model with each cluster weighted by the
number of times it was drawn, all resamples at once as one batch of matrix products.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

PRIOR = 0.5
"""Virtual stages won (and as many lost) by each bot against a bot of strength 1."""

_TOL = 1e-6  # convergence: largest change of any centred log-strength in one iteration
_POINT_ITERATIONS = 5000
_DRAW_ITERATIONS = 100


@dataclass(frozen=True)
class StageCounts:
    """Deals reduced to what the fit reads: choice sets, who won them, per cluster."""

    bots: int
    clusters: int
    members: npt.NDArray[np.float64]  # (choice sets, bots): 1 where the bot is in the set
    pair_cluster: npt.NDArray[np.int64]  # per (cluster, choice set) pair: the cluster
    pair_set: npt.NDArray[np.int64]  # ... the choice set
    pair_count: npt.NDArray[np.float64]  # ... how many stages of that cluster it holds
    wins: npt.NDArray[np.float64]  # (clusters, bots): stages won
    deals: npt.NDArray[np.int64]  # (bots,): deals played
    cluster_deals: npt.NDArray[np.int64]  # (clusters, bots): deals played per cluster
    total_deals: int  # deals, each counted once


def stage_counts(
    bots: int,
    label: npt.NDArray[np.int64],
    deal_start: npt.NDArray[np.int64],
    deal_size: npt.NDArray[np.int64],
    deal_cluster: npt.NDArray[np.int64],
) -> StageCounts:
    """Reduce deals (rows ``label[start:start+size]`` best first, as in
    :class:`~arena.ratings.Results`' arrays) to stage counts per cluster."""
    clusters = int(deal_cluster.max()) + 1 if len(deal_cluster) else 0
    width = int(deal_size.max()) if len(deal_size) else 0
    rows: list[npt.NDArray[np.int64]] = []
    winners: list[npt.NDArray[np.int64]] = []
    owners: list[npt.NDArray[np.int64]] = []
    cluster_deals = np.zeros((clusters, bots), dtype=np.int64)
    for size in np.unique(deal_size).tolist():
        chosen = np.flatnonzero(deal_size == size)
        orders = label[deal_start[chosen][:, None] + np.arange(size)]  # (deals, size)
        owner = deal_cluster[chosen]
        np.add.at(cluster_deals, (np.repeat(owner, size), orders.reshape(-1)), 1)
        for j in range(size - 1):
            padded = np.full((len(chosen), width), -1, dtype=np.int64)
            padded[:, : size - j] = np.sort(orders[:, j:], axis=1)
            rows.append(padded)
            winners.append(orders[:, j])
            owners.append(owner)
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return StageCounts(bots, clusters, np.zeros((0, bots)), empty, empty,
                           np.zeros(0), np.zeros((clusters, bots)), np.zeros(bots, np.int64),
                           cluster_deals, 0)
    stage_rows = np.concatenate(rows)
    winner = np.concatenate(winners)
    owner = np.concatenate(owners)
    sets, choice = np.unique(stage_rows, axis=0, return_inverse=True)
    choice = np.asarray(choice, dtype=np.int64).reshape(-1)
    members = np.zeros((len(sets), bots + 1))
    members[np.repeat(np.arange(len(sets)), width), np.where(sets >= 0, sets, bots).reshape(-1)] = 1
    pairs, pair_count = np.unique(owner * len(sets) + choice, return_counts=True)
    wins = np.zeros((clusters, bots))
    np.add.at(wins, (owner, winner), 1.0)
    return StageCounts(
        bots=bots,
        clusters=clusters,
        members=members[:, :bots],
        pair_cluster=pairs // len(sets),
        pair_set=pairs % len(sets),
        pair_count=pair_count.astype(np.float64),
        wins=wins,
        deals=cluster_deals.sum(axis=0),
        cluster_deals=cluster_deals,
        total_deals=len(deal_size),
    )


def fit_gamma(
    data: StageCounts,
    weights: npt.NDArray[np.float64],
    start: npt.NDArray[np.float64] | None = None,
    iterations: int = _POINT_ITERATIONS,
    prior: float = PRIOR,
) -> npt.NDArray[np.float64]:
    """Strengths ``gamma`` (rows: one fit per row of ``weights``, a weight per cluster)."""
    batch = weights.shape[0]
    sets = data.members.shape[0]
    won = weights @ data.wins + prior
    flat = (np.arange(batch)[:, None] * sets + data.pair_set[None, :]).reshape(-1)
    seen = np.bincount(flat, (weights[:, data.pair_cluster] * data.pair_count).reshape(-1),
                       minlength=batch * sets).reshape(batch, sets)
    gamma = np.ones((batch, data.bots)) if start is None else np.array(start, dtype=np.float64)
    for _ in range(iterations):
        total = gamma @ data.members.T  # (batch, sets): sum of strengths in each choice set
        spent = (seen / total) @ data.members + 2.0 * prior / (gamma + 1.0)
        new = won / spent
        # the common scale drifts slowly against the prior and changes no rank: converge on
        # the centred log-strengths
        step = np.log(new) - np.log(gamma)
        change = float(np.max(np.abs(step - step.mean(axis=1, keepdims=True)))) if new.size else 0.0
        gamma = new
        if change < _TOL:
            break
    return gamma


@dataclass(frozen=True)
class StrengthFit:
    """Plackett-Luce strengths of some bots, with bootstrap draws of them."""

    theta: npt.NDArray[np.float64]  # (bots,): log-strength, centred on the anchors
    draws: npt.NDArray[np.float64]  # (resamples, bots): the same, refitted per resample
    deals: npt.NDArray[np.int64]  # (bots,): deals played
    sets: npt.NDArray[np.int64]  # (bots,): clusters (duplicate sets) played in

    def interval(self, confidence: float = 0.95) -> tuple[npt.NDArray[np.float64],
                                                          npt.NDArray[np.float64]]:
        """Percentile interval of each bot's theta over the resamples."""
        if len(self.draws) == 0:
            return self.theta.copy(), self.theta.copy()
        tail = (1.0 - confidence) / 2.0
        low, high = np.quantile(self.draws, [tail, 1.0 - tail], axis=0)
        return np.minimum(low, self.theta), np.maximum(high, self.theta)

    def order(self, among: Sequence[int] | None = None) -> list[int]:
        """Bot indices best first by theta (ties: lower index first)."""
        pool = list(range(len(self.theta))) if among is None else list(among)
        return sorted(pool, key=lambda i: (-float(self.theta[i]), i))

    def ranks(self, among: Sequence[int] | None = None) -> npt.NDArray[np.int64]:
        """(resamples, len(among)): the rank (0 = best) of each bot of ``among`` per draw."""
        pool = np.arange(len(self.theta)) if among is None else np.asarray(among, np.int64)
        if len(pool) == 0 or len(self.draws) == 0:
            return np.zeros((len(self.draws), len(pool)), dtype=np.int64)
        sub = self.draws[:, pool]
        # stable sort on -theta: equal draws rank by position in ``among``
        order = np.argsort(-sub, axis=1, kind="stable")
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(len(pool))[None, :].repeat(len(sub), 0), 1)
        return ranks

    def rank_probabilities(self, among: Sequence[int] | None = None) -> npt.NDArray[np.float64]:
        """(len(among), len(among)): P(bot ``among[i]`` has rank ``r``) over the resamples."""
        ranks = self.ranks(among)
        n = ranks.shape[1]
        out = np.zeros((n, n))
        for i in range(n):
            out[i] = np.bincount(ranks[:, i], minlength=n) / max(1, len(ranks))
        return out

    def p_top_ordered(self, top: int, among: Sequence[int] | None = None) -> float:
        """Share of resamples whose best ``top`` bots of ``among`` are the point estimate's
        best ``top``, in the same order."""
        pool = self.order(among)
        if len(self.draws) == 0 or not pool:
            return 0.0
        k = min(top, len(pool))
        sub = self.draws[:, np.asarray(pool, dtype=np.int64)]
        # the leaders are ordered in a draw, ahead of everyone else, when each beats the next
        # and the last leader beats the best of the rest
        ok = np.ones(len(sub), dtype=bool)
        for r in range(k - 1):
            ok &= sub[:, r] > sub[:, r + 1]
        if k < len(pool):
            ok &= sub[:, k - 1] > sub[:, k:].max(axis=1)
        return float(ok.mean())


def fit_strengths(
    data: StageCounts,
    *,
    resamples: int,
    seed: int,
    anchors: Sequence[int] = (),
    prior: float = PRIOR,
) -> StrengthFit:
    """The point fit and ``resamples`` bootstrap refits (clusters drawn with replacement,
    from ``numpy.random.default_rng(seed)``)."""
    one = np.ones((1, data.clusters))
    point = fit_gamma(data, one, prior=prior)
    draws = np.zeros((0, data.bots))
    if resamples > 0 and data.clusters > 0:
        rng = np.random.default_rng(seed)
        picks = rng.integers(0, data.clusters, size=(resamples, data.clusters))
        weights = np.zeros((resamples, data.clusters))
        np.add.at(weights, (np.repeat(np.arange(resamples), data.clusters), picks.reshape(-1)), 1)
        start = np.repeat(point, resamples, axis=0)
        draws = np.log(fit_gamma(data, weights, start, _DRAW_ITERATIONS, prior))
    theta = np.log(point[0])
    played = np.flatnonzero(data.deals > 0)
    centre_on = np.asarray(anchors, dtype=np.int64) if len(anchors) else played
    shift = float(theta[centre_on].mean()) if len(centre_on) else 0.0
    shifts = draws[:, centre_on].mean(axis=1, keepdims=True) if len(centre_on) else 0.0
    return StrengthFit(
        theta=theta - shift,
        draws=draws - shifts,
        deals=data.deals,
        sets=(data.cluster_deals > 0).sum(axis=0).astype(np.int64),
    )
