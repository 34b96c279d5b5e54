"""The build (setup.py): a pure build in place leaves no compiled module of an earlier one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("env", [{"ARENA_COMPILE": "0"}, {"ARENA_PURE": "1"}])
def test_a_pure_editable_build_removes_the_compiled_modules_an_earlier_build_left(
        tmp_path: Path, env: dict[str, str]) -> None:
    """``ARENA_COMPILE=0 pip install -e .`` after a compiled install: Python would import the
    old extension modules before the .py files, so the build removes this Python's and says
    so; another Python's, and the sources, stay."""
    shutil.copy(ROOT / "setup.py", tmp_path)
    suffix = EXTENSION_SUFFIXES[0]
    stale = [tmp_path / "arena" / "game" / f"_cards{suffix}",
             tmp_path / "arena" / "game" / f"_compiled__mypyc{suffix}",
             tmp_path / "arena" / "env" / f"_bits{suffix}"]
    kept = [tmp_path / "arena" / "game" / "_cards.cpython-399-x86_64-linux-gnu.so",
            tmp_path / "arena" / "game" / "_cards.py"]
    for path in stale + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    done = subprocess.run([sys.executable, "setup.py", "editable_wheel", "--help"],
                          cwd=tmp_path, env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=120)
    assert [p for p in stale if p.exists()] == [], done.stderr
    assert all(p.exists() for p in kept)
    assert "removed 3 compiled modules of an earlier build" in done.stderr, done.stderr
