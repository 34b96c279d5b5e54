"""The example bot package, installed with pip the way a user installs it, then listed and
played through the command line in a separate interpreter.

pip builds the package from its pyproject.toml, so what is checked is the whole chain a
bot writer relies on: the entry point in the package's metadata, found by
``importlib.metadata`` on ``sys.path``, listed by ``arena bots`` from that metadata alone,
and seated by ``arena match`` in a process of its own, where its module is imported.
Offline: no index, no build isolation.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "arena-example-bot"
CLI = "from arena.cli import main; main()"


def arena(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-c", CLI, *args], env=env, capture_output=True,
                          text=True, timeout=60)


def test_installed_example_is_listed_and_plays(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    site = tmp_path / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--disable-pip-version-check", "--target", str(site),
         str(source)],
        capture_output=True, text=True, timeout=120,
    )
    assert pip.returncode == 0, pip.stderr
    assert (site / "arena_example_bot-1.0.0.dist-info" / "entry_points.txt").exists()

    listed = arena(site, "bots", "--json")
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr == ""
    bots = {b["name"]: b for b in json.loads(listed.stdout)["bots"]}
    assert bots["shedder"]["plugin"] == "shedder"
    assert bots["shedder"]["version"] == "1.0.0"
    assert bots["shedder"]["distribution"] == "arena-example-bot"
    assert bots["shedder"]["imported"] is False  # listed by its metadata: its code never ran
    assert "greedy" in bots

    for preset in ("runs", "daifugo"):
        played = arena(site, "match", "shedder", "random", "random", "greedy", "--preset",
                       preset, "--seed", "5", "--rounds", "3", "--json")
        assert played.returncode == 0, played.stderr
        result = json.loads(played.stdout)
        assert result["seats"][0] == "shedder"
        assert sorted(result["ranking"]) == [0, 1, 2, 3]
        assert result["faults"] == [], "the example bot answers only legal moves"
        assert result["decisions"] > 0


def test_without_the_package_the_bot_is_unknown(tmp_path: Path) -> None:
    listed = arena(tmp_path, "bots", "--json")
    assert "shedder" not in {b["name"] for b in json.loads(listed.stdout)["bots"]}
