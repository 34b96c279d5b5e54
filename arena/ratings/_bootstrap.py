"""Cluster bootstrap of a per-deal mean: resample whole duplicate sets (or matches).

Deals of one set are not independent (same cards, same opponents), so the resampling unit is the
set, never the deal. The statistic is a ratio (score summed over the resampled sets divided by
the deals in them), which stays right when sets hold different numbers of deals.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

_CHUNK_CELLS = 4_000_000  # resample indices drawn per chunk: bounds memory at ~32 MB


def bootstrap_ratio(
    totals: npt.NDArray[np.float64],
    counts: npt.NDArray[np.float64],
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """Percentile interval of ``sum(totals[s]) / sum(counts[s])`` over resampled clusters ``s``.

    ``totals``/``counts`` hold one entry per cluster the bot played in. With one cluster there
    is nothing to resample and the interval collapses to the point estimate.
    """
    k = len(totals)
    if k == 0:
        return (float("nan"), float("nan"))
    estimate = float(totals.sum() / counts.sum())
    if k == 1 or resamples <= 0:
        return (estimate, estimate)
    per_chunk = max(1, _CHUNK_CELLS // k)
    stats = np.empty(resamples, dtype=np.float64)
    done = 0
    while done < resamples:
        rows = min(per_chunk, resamples - done)
        picks = rng.integers(0, k, size=(rows, k), dtype=np.int64)
        num = totals[picks].sum(axis=1)
        den = counts[picks].sum(axis=1)
        stats[done : done + rows] = num / den
        done += rows
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(stats, [tail, 1.0 - tail])
    return (float(low), float(high))
