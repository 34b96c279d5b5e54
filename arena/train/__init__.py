"""Training the built-in bot ``learned`` (docs/learning.md, "Training a network"):
``python -m arena.train --preset runs --seed 1``.

Stages, each resumable from its folder: ``label`` (the teacher's choices on matches the
engine deals, :mod:`arena.train._label`), ``fit`` (behaviour cloning, in numpy,
:mod:`arena.train._fit`) and ``export`` (the float16 ``.npz`` file ``bots.learned``
plays).
"""

from __future__ import annotations

from ._fit import Trainer, agreement, export, init_params
from ._label import Samples, label_match, label_shards, load_shards
from ._run import Plan, run

__all__ = ["Plan", "Samples", "Trainer", "agreement", "export", "init_params", "label_match",
           "label_shards", "load_shards", "run"]
