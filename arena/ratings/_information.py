"""Each duplicate set's (cluster's) share of the strengths' information, for the jackknife
of :func:`arena.ratings._strength.draw_spread` and of its large-field twin."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._stages import StageCounts

__all__ = ["take_information"]


def take_information(data: StageCounts, lo: int, hi: int, first: int,
                     p: npt.NDArray[np.float64], score: npt.NDArray[np.float64],
                     own: npt.NDArray[np.float64]) -> None:
    """For the pairs ``lo:hi`` of the clusters from ``first`` on, given ``p``, each pair's
    probabilities over the columns that ``score`` and ``own`` keep (every bot, or a
    cluster's own): subtract the stages each cluster was expected to win from ``score``,
    and set ``own`` to each cluster's information (A_c)."""
    cluster = data.pair_cluster[lo:hi] - first
    expected = p * data.pair_count[lo:hi, None]  # per (cluster, choice set) pair
    starts = np.flatnonzero(np.r_[True, cluster[1:] != cluster[:-1]])
    present = cluster[starts]
    score[present] -= np.add.reduceat(expected, starts, axis=0)
    outer = expected[:, :, None] * p[:, None, :]
    own[present] = -np.add.reduceat(outer, starts, axis=0)
    diagonal = np.add.reduceat(expected, starts, axis=0)
    width = own.shape[1]
    own[present[:, None], np.arange(width), np.arange(width)] += diagonal
