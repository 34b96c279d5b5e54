"""OpenSkill's Plackett-Luce rating update (Weng & Lin 2011, Algorithm 4), for one-player teams.

openskill's ``PlackettLuce.rate`` validates its arguments, deep-copies rating objects and handles
teams, ties, weights and score margins on every call; on a million deals that overhead dominates
(see docs/ratings.md for the measured figures). A deal of President has no teams and no ties,
so the update reduces to a few loops over the finishing order. This module is that reduction,
with openskill's default constants; tests check it against openskill's own model deal by deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
Z = 3.0  # ordinal = mu - Z * sigma, openskill's default


@dataclass(frozen=True)
class PlackettLuceParams:
    """The model's constants (openskill's defaults): prior mean and spread, performance noise
    ``beta``, the per-game spread increase ``tau`` and the variance floor ``kappa``."""

    mu: float = MU
    sigma: float = SIGMA
    beta: float = BETA
    tau: float = TAU
    kappa: float = KAPPA


def rate_deals(
    bots: int,
    label: npt.NDArray[np.int64],
    deal_start: npt.NDArray[np.int64],
    deal_size: npt.NDArray[np.int64],
    params: PlackettLuceParams | None = None,
) -> tuple[list[float], list[float]]:
    """Rate deals in the order given; each deal's rows ``label[start:start+size]`` are its
    finishing order, best first. Returns (mu, sigma) per bot index."""
    p = params or PlackettLuceParams()
    mu = [p.mu] * bots
    var = [p.sigma * p.sigma] * bots
    tau2 = p.tau * p.tau
    beta2 = p.beta * p.beta
    kappa = p.kappa
    exp = math.exp
    sqrt = math.sqrt
    labels = label.tolist()
    starts = deal_start.tolist()
    sizes = deal_size.tolist()
    for start, size in zip(starts, sizes, strict=True):
        order = labels[start : start + size]
        s2 = [var[i] + tau2 for i in order]
        c2 = sum(s2) + size * beta2
        c = sqrt(c2)
        m = [mu[i] for i in order]
        top = max(m)
        # exp((mu - top) / c): the common factor cancels in every ratio and keeps exp in range
        e = [exp((x - top) / c) for x in m]
        suffix = [0.0] * size
        acc = 0.0
        for q in range(size - 1, -1, -1):
            acc += e[q]
            suffix[q] = acc
        new_mu = []
        new_var = []
        for i in range(size):
            ei = e[i]
            omega = 1.0
            delta = 0.0
            for q in range(i + 1):
                share = ei / suffix[q]
                omega -= share
                delta += share * (1.0 - share)
            s2i = s2[i]
            new_mu.append(m[i] + s2i / c * omega)
            shrink = 1.0 - s2i * sqrt(s2i) / (c2 * c) * delta
            new_var.append(s2i * (shrink if shrink > kappa else kappa))
        for i, bot in enumerate(order):
            mu[bot] = new_mu[i]
            var[bot] = new_var[i]
    return mu, [sqrt(v) for v in var]


def rate_orders(
    orders: Sequence[Sequence[int]], bots: int, params: PlackettLuceParams | None = None
) -> tuple[list[float], list[float]]:
    """Convenience form of :func:`rate_deals`: each item lists bot indices best..worst."""
    flat = [bot for order in orders for bot in order]
    sizes = [len(order) for order in orders]
    starts = np.cumsum([0, *sizes[:-1]]) if sizes else np.zeros(0, dtype=np.int64)
    return rate_deals(
        bots,
        np.asarray(flat, dtype=np.int64),
        np.asarray(starts, dtype=np.int64),
        np.asarray(sizes, dtype=np.int64),
        params,
    )
