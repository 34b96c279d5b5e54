"""Fixtures shared by the tournament tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def small_config(tmp_path: Path) -> Path:
    """A tiny real tournament: 4 built-in bots, pairs, duplicate, 2 deals a match."""
    path = tmp_path / "small.yaml"
    path.write_text(
        "name: small\n"
        "seed: 11\n"
        "rules: {preset: runs, rounds: 2}\n"
        "players: 2\n"
        "duplicate: true\n"
        "bots: [{name: greedy}, {name: random}, {name: lowest}, {name: highest}]\n",
        encoding="utf-8",
    )
    return path
