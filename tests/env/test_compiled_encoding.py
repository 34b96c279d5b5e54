"""The compiled encoding (setup.py compiles arena/env/_encoding.py and _table.py with mypyc)
and its pure fallback give the same observations, masks and steps, flag for flag.

The same seeded random matches are observed in two subprocesses, one on the modules compiled
at install and one with ``ARENA_PURE=1``, and a digest of every observation and mask is
compared. Skipped, saying why, where the install compiled nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the extra 'env' (numpy) is not installed")

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import hashlib, random
import numpy as np
from arena.game import Rules, engine
from arena.env import PlayedCards, encoding
from arena.env._table import Table
digest = hashlib.sha256()
for preset, players, options in [("runs", 4, {}), ("daifugo", 5, {"jokers": 2}),
                                  ("uecda", 5, {}), ("standard", 2, {}),
                                  ("daifugo", 8, {"suit_lock": True})]:
    rules = Rules.preset(preset, **options)
    coder = encoding(rules, players)
    rng = random.Random(players)
    for match_seed in range(3):
        table = Table(rules, players, match_seed)
        played = PlayedCards(players)
        while not table.finished:
            seat = table.to_move
            view = table.match.view(seat)
            for seen in range(players):
                obs, mask = table.observe_with_mask(seen)
                digest.update(obs.tobytes() + mask.tobytes())
            digest.update(coder.observe(view).tobytes() + coder.observe(view, played).tobytes())
            legal = table.legal_actions()
            action = legal[rng.randrange(len(legal))] if rng.random() < 0.97 else 0
            table.step(np.int64(action) if rng.random() < 0.5 else action)
            digest.update(repr((table.points, table.faults[-1:])).encode())
print(engine())
print(digest.hexdigest())
"""


def _run(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "ARENA_PURE"}
    if pure:
        env["ARENA_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                         text=True, check=True, cwd=ROOT, timeout=600)
    return out.stdout.split("\n")


def test_compiled_and_pure_encodings_give_the_same_flags() -> None:
    compiled = _run(pure=False)
    if not compiled[0].startswith("compiled"):
        pytest.skip(f"arena.env is not compiled here: {compiled[0]}")
    pure = _run(pure=True)
    assert pure[0].startswith("pure")
    assert compiled[1] == pure[1]
