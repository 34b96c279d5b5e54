"""The learning example (examples/learning-agent): its stored agent beats ``random`` without
training, training runs, and the installed package's agent plays a tournament as a process bot
and a match as a command.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.game import Rules
from arena.referee import compare

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "learning-agent"
AGENT = "arena_learning_agent:TrainedAgent"


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE))


def test_the_stored_agent_finishes_ahead_of_random(on_path: None) -> None:
    places = compare([AGENT, "random", "random", "random"], Rules.preset("runs"), 12, seed=5)
    agent, random = places.places[AGENT], places.places["random"]
    assert len(agent) == 60
    assert np.mean(agent) < np.mean(random) - 1.0  # places 1 to 4: ahead by a place or more


def test_the_stored_weights_are_small_and_name_their_features(on_path: None) -> None:
    import arena_learning_agent

    path = EXAMPLE / "arena_learning_agent" / "weights.json"
    assert path.stat().st_size < 4096
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["features"] == list(arena_learning_agent.FEATURES)
    assert arena_learning_agent.load_weights() == data["weights"]


def test_training_runs(on_path: None) -> None:
    pytest.importorskip("gymnasium", reason="the extra 'env' (gymnasium) is not installed")
    sys.path.insert(0, str(EXAMPLE))
    try:
        import train
    finally:
        sys.path.remove(str(EXAMPLE))
    kept = train.train(["random", "random", "random"], "runs", generations=3, population=4,
                       matches=2, rounds=1, log=False, held_out=6)
    assert len(kept.weights) == 6 and all(np.isfinite(kept.weights))
    assert 0 <= kept.score <= 3  # one deal's points, at a table of four
    # the kept weights are the generation's mean that did best on the held-out matches (a tie
    # to the later), not the last generation's, and its score is theirs
    scores = [score for _, score in kept.history]
    best = max(range(len(scores)), key=lambda i: (scores[i], i))
    assert len(scores) == 3 and kept.generation == best + 1
    assert (kept.weights, kept.score) == kept.history[best]


def test_the_installed_agent_plays_as_a_process_bot_and_as_a_command(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # the bots start here: open to their uid (pytest makes it 0700)
    source = tmp_path / "src"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info",
                                                                   "__pycache__"))
    site = tmp_path / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--disable-pip-version-check", "--target", str(site),
         str(source)], capture_output=True, text=True, timeout=180)
    assert pip.returncode == 0, pip.stderr
    out = tmp_path / "run"
    # The bots start in the working directory, which the sandbox keeps: the site lies in it.
    run = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "run",
         str(EXAMPLE / "tournament.yaml"), "--out", str(out), "--quiet"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True,
        text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    with (out / "standings.csv").open(encoding="utf-8") as file:
        rows = {row["label"]: row for row in csv.DictReader(file)}
    assert rows["trained"]["matches"] == "32" and rows["trained"]["faults"] == "0"
    first = json.loads((out / "records.jsonl").read_text(encoding="utf-8").splitlines()[0])
    seat = next(s for s in first["seats"] if s["label"] == "trained")
    assert seat["host"] == "process" and seat["bot"] == "trained-agent"
    # A command speaking the protocol on stdin and stdout: the process host's own child.
    command = f"{sys.executable} -m arena.referee.child --bot trained-agent --in 0 --out 1"
    match = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "match",
         f"agent=cmd:{command}", "random", "--preset", "runs", "--rounds", "2", "--json"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True,
        text=True, timeout=300)
    assert match.returncode == 0, match.stderr
    result = json.loads(match.stdout)
    assert result["seats"] == ["agent", "random"] and result["faults"] == []
    # Retraining writes the example's weights.json, which this copy does not read: said.
    trained = subprocess.run(
        [sys.executable, str(EXAMPLE / "train.py"), "--generations", "1", "--population", "2",
         "--matches", "1", "--held-out", "1", "--out", str(tmp_path / "w.json")],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True,
        text=True, timeout=300)
    assert trained.returncode == 0, trained.stderr
    assert "is a copy" in trained.stdout and "pip install -e examples/learning-agent" in \
        trained.stdout, trained.stdout
