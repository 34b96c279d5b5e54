"""Plackett-Luce strengths: their posterior under a prior on the field's spread, and draws from it.

The league ranks its entrants by this fit, not by mean score: a mean score depends on whom a
bot met, and a league that seats close ratings together gives strong bots strong opponents.
The Plackett-Luce model explains each finishing order by the strengths of the bots at that
table, so who was seated where is accounted for by the model itself.

A deal's finishing order ``a > b > c > d`` is three choices ("stages"): ``a`` wins among
``{a, b, c, d}``, ``b`` among ``{b, c, d}``, ``c`` among ``{c, d}``. The log-strengths
``theta`` have the prior ``theta_i ~ N(0, scale**2)``, the field's spread ``scale`` itself
unknown (flat over :data:`SCALES`): the posterior is found by Newton's method for each
``scale``, approximated there by a normal (Laplace), and the approximations are averaged
with the weight each ``scale`` earns from the records. The estimate is the posterior mean,
and intervals and rank probabilities are read from draws of the posterior, centred on the
anchors (or on every bot that played), so a fixed anchor pins the scale across leagues.

Why a posterior and not a bootstrap over sets: a league chooses its tables from the results
so far, and the posterior given the records is the same whatever rule chose the tables from
the past (the schedule's factor of the likelihood holds no strength), while resampling sets
treats the tables as fixed in advance. Maximum likelihood with a bootstrap came out too
stretched and too narrow under the league's schedule; the posterior did not (docs/ratings.md,
"A league's leaderboard").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ._information import take_information
from ._spread_large import draw_spread_large
from ._stages import StageCounts

SCALES = np.exp(np.linspace(math.log(0.05), math.log(5.0), 24))
"""The field's spread (the prior's standard deviation of a log-strength) over which the
posterior is averaged: from bots nearly equal to bots far apart (a log-strength of 5 is a
bot that wins nearly every stage)."""

_TOL = 1e-9  # convergence: largest Newton step of any log-strength
_CHUNK_CELLS = 2_000_000  # cells of the clusters' information held at once: bounds memory (16 MB)
_NEWTON_ITERATIONS = 100
WOODBURY_FROM = 64
"""Bots beyond which the jackknife's leave-one-out moves are solved on each cluster's own bots
(arena/ratings/_spread_large.py, linear in the field) rather than on every bot (cubic): the same
moves to rounding, so fields up to this size keep their figures to the last digit."""


def _stage_totals(data: StageCounts) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Stages won per bot and stages played per choice set, over every cluster."""
    won = data.wins.sum(axis=0)
    seen = np.bincount(data.pair_set, data.pair_count, minlength=data.members.shape[0])
    return won, seen.astype(np.float64)


def _member_index(data: StageCounts) -> npt.NDArray[np.int64]:
    """(choice sets, most members): each choice set's bots, padded with ``data.bots``, a bot
    of strength 0 that is nobody (a choice set holds a few bots of many)."""
    rows, cols = np.nonzero(data.members)
    width = int(np.bincount(rows, minlength=1).max()) if len(rows) else 0
    slot = np.arange(len(rows)) - np.searchsorted(rows, rows)
    index = np.full((data.members.shape[0], width), data.bots, dtype=np.int64)
    index[rows, slot] = cols
    return index


def _weights(theta: npt.NDArray[np.float64], index: npt.NDArray[np.int64]
             ) -> tuple[npt.NDArray[np.float64], float]:
    """``exp(theta - top)`` of each choice set's members (0 for the padding), and ``top``."""
    top = float(theta.max()) if theta.size else 0.0
    return np.append(np.exp(theta - top), 0.0)[index], top


def _log_likelihood(theta: npt.NDArray[np.float64], index: npt.NDArray[np.int64],
                    won: npt.NDArray[np.float64], seen: npt.NDArray[np.float64]) -> float:
    weight, top = _weights(theta, index)
    return float(won @ theta - seen @ (np.log(weight.sum(axis=1)) + top))


def posterior_mode(
    data: StageCounts, scale: float, start: npt.NDArray[np.float64] | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]:
    """The most probable log-strengths under the prior ``theta_i ~ N(0, scale**2)``.

    Newton's method on the log posterior (concave: the Plackett-Luce log-likelihood is, and
    the prior strictly), halving a step that would lower it. Returns ``theta``, the
    posterior's precision matrix there (the likelihood's observed information plus
    ``1 / scale**2``) and the Laplace approximation of ``log p(records | scale)`` (up to a
    constant that does not depend on ``scale``).
    """
    won, seen = _stage_totals(data)
    precision = 1.0 / (scale * scale)
    theta = np.zeros(data.bots) if start is None else np.array(start, dtype=np.float64)
    index = _member_index(data)
    pair = (index[:, :, None] * (data.bots + 1) + index[:, None, :]).reshape(-1)

    def objective(t: npt.NDArray[np.float64]) -> float:
        return _log_likelihood(t, index, won, seen) - 0.5 * precision * float(t @ t)

    def information(t: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64],
                                                         npt.NDArray[np.float64]]:
        weight, _ = _weights(t, index)
        share = weight / weight.sum(axis=1, keepdims=True)  # (choice sets, members): p(win)
        spent = np.bincount(index.reshape(-1), (seen[:, None] * share).reshape(-1),
                            minlength=data.bots + 1)[: data.bots]
        outer = (seen[:, None, None] * share[:, :, None] * share[:, None, :]).reshape(-1)
        together = np.bincount(pair, outer, minlength=(data.bots + 1) ** 2)
        hessian = np.diag(spent) - together.reshape(data.bots + 1, -1)[: data.bots, : data.bots]
        return won - spent - precision * t, hessian + precision * np.eye(data.bots)

    value = objective(theta)
    for _ in range(_NEWTON_ITERATIONS):
        gradient, hessian = information(theta)
        step = np.linalg.solve(hessian, gradient)
        length = 1.0
        while length > 1e-6 and objective(theta + length * step) < value - 1e-12:
            length /= 2.0
        if length <= 1e-6:  # no ascent left along Newton's direction: at the mode
            break
        theta = theta + length * step
        value = objective(theta)
        if float(np.max(np.abs(length * step), initial=0.0)) < _TOL:
            break
    _, hessian = information(theta)
    _, log_det = np.linalg.slogdet(hessian)
    evidence = value - data.bots * math.log(scale) - 0.5 * float(log_det)
    return theta, hessian, evidence


@dataclass(frozen=True)
class StrengthFit:
    """Plackett-Luce strengths of some bots, with draws of them from their posterior."""

    theta: npt.NDArray[np.float64]  # (bots,): log-strength, centred on the anchors
    draws: npt.NDArray[np.float64]  # (draws, bots): the same, drawn from the posterior
    deals: npt.NDArray[np.int64]  # (bots,): deals played
    sets: npt.NDArray[np.int64]  # (bots,): clusters (duplicate sets) played in

    def interval(self, confidence: float = 0.95) -> tuple[npt.NDArray[np.float64],
                                                          npt.NDArray[np.float64]]:
        """Percentile interval of each bot's theta over the draws."""
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
        """(draws, len(among)): the rank (0 = best) of each bot of ``among`` per draw."""
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
        """(len(among), len(among)): P(bot ``among[i]`` has rank ``r``) over the draws."""
        ranks = self.ranks(among)
        n = ranks.shape[1]
        out = np.zeros((n, n))
        for i in range(n):
            out[i] = np.bincount(ranks[:, i], minlength=n) / max(1, len(ranks))
        return out

    def p_top_ordered(self, top: int, among: Sequence[int] | None = None) -> float:
        """Share of draws whose best ``top`` bots of ``among`` are the point estimate's
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


def _draw_spread(data: StageCounts, theta: npt.NDArray[np.float64],
              precision: npt.NDArray[np.float64], scale: float) -> npt.NDArray[np.float64]:
    """The covariance of the draws around the mode ``theta`` of one ``scale``: how far the
    mode moves when each cluster is left out in turn (a jackknife over duplicate sets, each
    leave-one-out mode taken one Newton step from ``theta``), plus the prior's share.

    Leaving cluster ``c`` out moves the mode by ``(A - A_c)^-1 g_c``, ``A`` the posterior's
    precision, ``A_c`` the information of ``c``'s stages and ``g_c`` their score (gradient of
    their log-likelihood). Where the model holds and sets are many, the sum of those moves
    squared is about the likelihood's share of ``A^-1``, so the draws are the posterior's.
    Where deals of a set are not independent draws of the model (a duplicate set shares its
    cards, whose luck cancels across its rotations), it measures how much the sets' results
    really vary, as a bootstrap over sets would, but without resampling the tables: each
    set's score has mean zero given the rounds before it, whatever rule chose its table, so
    the sum stays right under an adaptive schedule. A bot with few sets moves far when one
    is left out, so its interval stays wide (a newcomer's first set does not make it sure).
    """
    if data.bots > WOODBURY_FROM:
        return draw_spread_large(data, theta, precision, scale)
    weight = data.members * np.exp(theta - float(theta.max()))
    share = weight / weight.sum(axis=1, keepdims=True)  # (choice sets, bots)
    bots = data.bots
    spread = np.linalg.inv(precision)
    spread = spread @ spread / (scale * scale)  # the prior's share
    per_cluster = -(-len(data.pair_cluster) // max(1, data.clusters))  # pairs, rounded up
    step = max(1, _CHUNK_CELLS // (bots * bots * max(1, per_cluster)))
    # pairs are sorted by cluster: a run of clusters is a run of pairs
    bounds = np.searchsorted(data.pair_cluster, np.arange(0, data.clusters + step, step))
    for first in range(0, data.clusters, step):
        lo, hi = int(bounds[first // step]), int(bounds[first // step + 1])
        count = min(step, data.clusters - first)
        score = data.wins[first : first + count].copy()  # stages won less stages expected
        own = np.zeros((count, bots, bots))  # A_c: each cluster's information
        if hi > lo:
            take_information(data, lo, hi, first, share[data.pair_set[lo:hi]], score, own)
        moves = np.linalg.solve(precision[None] - own, score[:, :, None])[:, :, 0]
        spread += moves.T @ moves
    return (spread + spread.T) / 2.0


def fit_strengths(
    data: StageCounts,
    *,
    resamples: int,
    seed: int,
    anchors: Sequence[int] = (),
) -> StrengthFit:
    """The posterior mean of the strengths and ``resamples`` draws from their posterior
    (from ``numpy.random.default_rng(seed)``), centred on ``anchors`` (or on every bot that
    played).

    The posterior is averaged over the field's spread ``scale`` on the grid :data:`SCALES`
    (a flat prior on it): each point of the grid weighs its Laplace approximation by how
    well it explains the records, and each draw picks a point by those weights, then
    ``theta`` around that point's mode, spread as the jackknife over clusters of
    :func:`_draw_spread` says.
    """
    if data.members.shape[0] == 0:  # no stage played: nothing to fit, nothing to draw
        zero = np.zeros(data.bots)
        return StrengthFit(theta=zero, draws=np.zeros((0, data.bots)), deals=data.deals,
                           sets=(data.cluster_deals > 0).sum(axis=0).astype(np.int64))
    modes, precisions, evidence = [], [], []
    theta: npt.NDArray[np.float64] | None = None
    for scale in SCALES:  # small to large: each mode starts from the last
        theta, precision, log_p = posterior_mode(data, float(scale), theta)
        modes.append(theta)
        precisions.append(precision)
        evidence.append(log_p + math.log(float(scale)))  # flat in scale on a log-spaced grid
    log_w = np.asarray(evidence)
    weight = np.exp(log_w - log_w.max())
    weight /= weight.sum()
    mean = np.tensordot(weight, np.asarray(modes), axes=1)
    draws = np.zeros((0, data.bots))
    if resamples > 0:
        rng = np.random.default_rng(seed)
        pick = rng.choice(len(SCALES), size=resamples, p=weight)
        noise = rng.standard_normal((resamples, data.bots))
        draws = np.empty((resamples, data.bots))
        for k in np.unique(pick).tolist():
            rows = pick == k
            spread = _draw_spread(data, modes[k], precisions[k], float(SCALES[k]))
            draws[rows] = modes[k] + noise[rows] @ np.linalg.cholesky(spread).T
    played = np.flatnonzero(data.deals > 0)
    centre_on = np.asarray(anchors, dtype=np.int64) if len(anchors) else played
    shift = float(mean[centre_on].mean()) if len(centre_on) else 0.0
    shifts = draws[:, centre_on].mean(axis=1, keepdims=True) if len(centre_on) else 0.0
    return StrengthFit(
        theta=mean - shift,
        draws=draws - shifts,
        deals=data.deals,
        sets=(data.cluster_deals > 0).sum(axis=0).astype(np.int64),
    )
