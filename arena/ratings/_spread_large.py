"""The jackknife's spread of a large field's strengths, linear in the field.

``_draw_spread`` (arena/ratings/_strength.py) solves each cluster's leave-one-out move on
every bot, a cost cubic in the field; a cluster (a duplicate set) involves only its table's
few bots, so by Woodbury's identity the same move is a solve on those alone. Used beyond
``WOODBURY_FROM`` bots (a league's large field, docs/league.md "Bounds"); equal to rounding.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._information import take_information
from ._stages import StageCounts

_CHUNK_CELLS = 2_000_000  # cells held at once, as _strength's: bounds memory (16 MB)


def _cluster_members(data: StageCounts) -> npt.NDArray[np.int64]:
    """(clusters, most bots of a cluster): each cluster's bots, padded with ``data.bots``."""
    rows, cols = np.nonzero(data.cluster_deals[: data.clusters])
    width = int(np.bincount(rows, minlength=1).max()) if len(rows) else 0
    slot = np.arange(len(rows)) - np.searchsorted(rows, rows)
    index = np.full((data.clusters, width), data.bots, dtype=np.int64)
    index[rows, slot] = cols
    return index


def draw_spread_large(data: StageCounts, theta: npt.NDArray[np.float64],
                      precision: npt.NDArray[np.float64], scale: float
                      ) -> npt.NDArray[np.float64]:
    """``_draw_spread`` for a large field: the same moves by Woodbury's identity, a solve
    on a cluster's few bots each (equal to rounding)."""
    weight = data.members * np.exp(theta - float(theta.max()))
    share = weight / weight.sum(axis=1, keepdims=True)  # (choice sets, bots)
    bots = data.bots
    covariance = np.linalg.inv(precision)
    spread = covariance @ covariance / (scale * scale)  # the prior's share
    # A_c involves only the bots of cluster c (S, a table's few): by Woodbury's identity,
    # (A - A_c)^-1 g_c = B[:, S] (I - M B[S, S])^-1 g_S, with B = A^-1 and M = A_c on S,
    # a solve of |S| unknowns per cluster instead of one of every bot's
    member = _cluster_members(data)  # (clusters, width): padded with ``bots``
    width = member.shape[1]
    padded = np.zeros((bots + 1, bots + 1))
    padded[:bots, :bots] = covariance
    share = np.hstack([share, np.zeros((len(share), 1))])
    per_cluster = -(-len(data.pair_cluster) // max(1, data.clusters))  # pairs, rounded up
    step = max(1, _CHUNK_CELLS // (max(bots, width * width) * max(1, per_cluster, width)))
    # pairs are sorted by cluster: a run of clusters is a run of pairs
    bounds = np.searchsorted(data.pair_cluster, np.arange(0, data.clusters + step, step))
    for first in range(0, data.clusters, step):
        lo, hi = int(bounds[first // step]), int(bounds[first // step + 1])
        count = min(step, data.clusters - first)
        index = member[first : first + count]  # (count, width)
        score = np.hstack([data.wins[first : first + count], np.zeros((count, 1))])
        score = np.take_along_axis(score, index, axis=1)  # stages won less stages expected
        own = np.zeros((count, width, width))  # A_c on its bots
        if hi > lo:
            cluster = data.pair_cluster[lo:hi] - first
            p = np.take_along_axis(share[data.pair_set[lo:hi]], index[cluster], axis=1)
            take_information(data, lo, hi, first, p, score, own)
        within = padded[index[:, :, None], index[:, None, :]]  # B[S, S]
        solved = np.linalg.solve(np.eye(width)[None] - own @ within, score[:, :, None])
        moves = np.einsum("cw,cwb->cb", solved[:, :, 0], padded[index][:, :, :bots])
        spread += moves.T @ moves
    return (spread + spread.T) / 2.0
