"""The move features of labelled decisions (:data:`bots.learned.FEATURES`), computed once per
shard from its observations and masks and kept beside it (``shard-K.features.npz``), so a
resumed fit reads them rather than computing them again.

A shard's features are three arrays in the order of its decisions: ``feat_start`` (the
first entry of each decision, and one past the last), ``feat_act`` (each entry's legal
action, in increasing order within a decision) and ``feat`` (each entry's features).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.env import Encoding
from bots.learned import FEATURES, observed_features

from ._label import SAVEZ

__all__ = ["attach", "shard_features"]


def shard_features(coder: Encoding, data: dict[str, npt.NDArray[Any]]
                   ) -> dict[str, npt.NDArray[Any]]:
    """The move features of every decision of ``data`` (a shard's arrays)."""
    starts = [0]
    acts: list[npt.NDArray[np.intp]] = []
    rows: list[npt.NDArray[np.float32]] = []
    masks = np.unpackbits(data["mask"], axis=1, count=coder.action_size)
    for observation, mask in zip(data["obs"], masks, strict=True):
        legal = np.flatnonzero(mask)
        acts.append(legal)
        rows.append(observed_features(coder, observation, legal))
        starts.append(starts[-1] + len(legal))
    width = len(FEATURES)
    return {"feat_start": np.asarray(starts, dtype=np.int64),
            "feat_act": (np.concatenate(acts) if acts else np.zeros(0)).astype(np.int32),
            "feat": (np.concatenate(rows) if rows else np.zeros((0, width))).astype(np.float16)}


def _features_of(coder: Encoding, shard: Path) -> dict[str, npt.NDArray[Any]]:
    path = shard.with_name(shard.name.removesuffix(".npz") + ".features.npz")
    if path.exists():
        with np.load(path) as saved:
            if saved["feat"].shape[1] != len(FEATURES):  # kept before features were added
                path.unlink()
    if not path.exists():
        with np.load(shard) as data:
            arrays = shard_features(coder, {k: data[k] for k in ("obs", "mask")})
        partial = path.with_suffix(".part.npz")
        SAVEZ(partial, **arrays)
        partial.replace(path)
    with np.load(path) as saved:
        return {k: saved[k] for k in saved.files}


def attach(coder: Encoding, data: dict[str, npt.NDArray[Any]],
           shards: list[Path]) -> dict[str, npt.NDArray[Any]]:
    """``data`` (the shards' samples joined, :func:`arena.train.load_shards`) with the
    shards' move features joined in the same order."""
    parts = [_features_of(coder, shard) for shard in shards]
    offset = 0
    starts = []
    for part in parts:
        starts.append(part["feat_start"][:-1] + offset)
        offset += int(part["feat_start"][-1])
    joined = {"feat_start": np.concatenate([*starts, np.asarray([offset])]).astype(np.int64),
              "feat_act": np.concatenate([p["feat_act"] for p in parts]),
              "feat": np.concatenate([p["feat"] for p in parts])}
    if len(joined["feat_start"]) != len(data["action"]) + 1:
        raise ValueError("the move features do not match the shards' decisions")
    return data | joined
