"""``arena run`` writes its standings from the tally it keeps of the records as it writes them
(and reads them back on resuming): the same files, byte for byte, as reading records.jsonl
back gives, without reading it back at the end."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import arena.cli._run as run_cli
import arena.report._saved as saved
from arena.cli import main
from arena.referee import run_match
from arena.report import STANDINGS_CSV, STANDINGS_JSON, standings_document, write_standings
from arena.tournament import run_tournament
from tests.tournament.helpers import Interrupt

CONFIG = """\
name: tally
seed: 11
rules: {preset: runs, rounds: 2}
players: 4
duplicate: true
repeat: 2
bots: [BOTS]
"""

FAULTY = """\
import json, sys
plays = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind, answer = msg["type"], None
    if kind == "start":
        answer = {"type": "ready", "name": "faulty", "legal_moves": True}
    elif kind == "play":
        plays += 1
        move = "no such move" if plays % 5 == 0 else msg["legal"][0]
        answer = {"type": "move", "move": move}
    elif kind == "exchange":
        answer = {"type": "exchange", "cards": msg["view"]["hand"][: msg["count"]]}
    elif kind == "quit":
        break
    if answer is not None:
        answer["id"] = msg["id"]
        print(json.dumps(answer), flush=True)
"""
"""A command bot that answers a move it cannot play at every fifth turn (the rest: the first
legal move)."""


def _config(tmp_path: Path, bots: str) -> Path:
    path = tmp_path / "tally.yaml"
    path.write_text(CONFIG.replace("BOTS", bots), encoding="utf-8")
    return path


def _run(config: Path, folder: Path, *options: str) -> Any:
    return CliRunner().invoke(main, ["run", str(config), "--out", str(folder), "-j", "1",
                                     *options])


def _not_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of the run may not read the records file for its standings."""
    def refused(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise AssertionError("the standings were computed by reading the records back")

    monkeypatch.setattr(saved, "standings_document", refused)


def _assert_as_read_back(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    again = tmp_path / "read-back"
    again.mkdir()
    write_standings(again, folder / "records.jsonl")
    for name in (STANDINGS_JSON, STANDINGS_CSV):
        assert (folder / name).read_bytes() == (again / name).read_bytes(), name


def test_the_standings_of_a_run_with_faults_are_those_of_its_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "faulty.py"
    script.write_text(FAULTY, encoding="utf-8")
    faulty = shlex.join([sys.executable, str(script)])
    config = _config(tmp_path, f"{{command: {faulty!r}, label: faulty}}, {{name: random}}, "
                               "{name: lowest}, {name: greedy}")
    folder = tmp_path / "run"
    _not_read_back(monkeypatch)
    out = _run(config, folder, "--quiet")
    assert out.exit_code == 0, out.output
    _assert_as_read_back(folder, tmp_path, monkeypatch)
    faults = {row["label"]: row["faults"] for row in standings_document(folder)["standings"]}
    assert faults["faulty"] > 0 and faults["greedy"] == 0


def test_the_standings_of_a_resumed_run_count_the_records_read_back_on_resuming(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _config(tmp_path, "{name: random}, {name: lowest}, {name: highest}, "
                               "{name: passer}")
    folder = tmp_path / "run"
    stop = Interrupt(3, run_match)  # three matches, then Ctrl-C

    def run_some(*args: Any, **kwargs: Any) -> Any:
        return run_tournament(*args, **kwargs, match_fn=stop)

    with monkeypatch.context() as patch:
        patch.setattr(run_cli, "run_tournament", run_some)
        assert _run(config, folder, "--quiet").exit_code == 130
    assert (folder / "records.jsonl").read_text().count("\n") == 3
    _not_read_back(monkeypatch)
    out = _run(config, folder, "--json")
    assert out.exit_code == 0, out.output
    assert '"resumed": 3' in out.output and '"played": 5' in out.output
    _assert_as_read_back(folder, tmp_path, monkeypatch)
    assert standings_document(folder)["matches"] == 8
