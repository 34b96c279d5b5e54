"""The compiled engine and the pure one give the same records, byte for byte but the clock.

A small tournament is run twice in subprocesses, once on arena.game as compiled at install
(setup.py) and once with ``ARENA_PURE=1``; every record line must be the same once the
timings are removed. Skipped, saying why, where the install compiled nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.recordtools import without_timings

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """\
name: engines
seed: 77
rules:
  preset: {preset}
players: {players}
format:
  type: round_robin
duplicate: true
repeat: 2
bots:
  - name: greedy
  - name: random
  - name: lowest
  - name: highest
  - name: passer
limits:
  move_ms: 5000
  start_ms: 20000
"""


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ARENA_PURE"}
    if pure:
        env["ARENA_PURE"] = "1"
    return env


def _engine(pure: bool) -> str:
    return subprocess.run([sys.executable, "-c", "import arena.game as g; print(g.engine())"],
                          env=_env(pure), capture_output=True, text=True, check=True,
                          cwd=ROOT).stdout.strip()


def _records(tmp: Path, preset: str, players: int, pure: bool) -> list[str]:
    config = tmp / f"{preset}.yaml"
    config.write_text(CONFIG.format(preset=preset, players=players))
    out = tmp / ("pure" if pure else "compiled") / preset
    arena = Path(sys.executable).with_name("arena")
    subprocess.run([str(arena), "run", str(config), "--out", str(out), "--quiet"],
                   env=_env(pure), check=True, cwd=ROOT, timeout=600)
    lines = (out / "records.jsonl").read_text().splitlines()
    assert lines, "the tournament wrote no record"
    return [json.dumps(without_timings(json.loads(line)), sort_keys=True) for line in lines]


def test_the_engine_says_which_path_runs() -> None:
    assert _engine(pure=True) == "pure Python (ARENA_PURE is set)" or (
        _engine(pure=True) == "pure Python (not compiled at install)")


@pytest.mark.parametrize(("preset", "players"), [("runs", 4), ("uecda", 5)])
def test_compiled_and_pure_engines_write_the_same_records(tmp_path: Path, preset: str,
                                                           players: int) -> None:
    compiled = _engine(pure=False)
    if not compiled.startswith("compiled"):
        pytest.skip(f"arena.game is not compiled here: {compiled}")
    assert _engine(pure=True).startswith("pure")
    assert (_records(tmp_path, preset, players, pure=False)
            == _records(tmp_path, preset, players, pure=True))
