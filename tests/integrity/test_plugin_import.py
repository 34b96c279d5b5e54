"""An entrant's Python package never runs in the referee.

The entrant is an installed package (real dist-info metadata on ``sys.path``) whose module,
when imported, notes where it runs (process, uid, program) and what it could read of the
run's ``secret-seed``. ``arena bots``, ``arena validate`` and ``arena run`` with worker
processes must list, check and play it without importing it in their own process: every
note comes from the bot's own child (``arena.referee.child``), sandboxed where the machine
can, and its play still works there. Only a seat made ``inline`` on purpose imports it here.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.records import read_records
from arena.referee import sandbox_mechanism
from arena.referee.lowlevel import WRITABLE_ENV
from tests.bots.plugin_fixtures import Install, install

__all__ = ["install"]

SANDBOX = sandbox_mechanism() is not None
MODULE = "entrant_spy_mod"

ENTRANT = '''
import json, os, sys

def _note():
    try:
        with open({seed!r}) as file:
            seed = file.read()
    except OSError:
        seed = None
    config = os.path.exists({config!r})
    try:
        with open({notes!r}, "a") as file:
            file.write(json.dumps({{"pid": os.getpid(), "uid": os.getuid(),
                                    "program": sys.argv[0], "seed": seed,
                                    "config": config}}) + "\\n")
    except OSError:
        pass

_note()

from arena import Bot, hookimpl

class Entrant(Bot):
    """Plays its first legal move."""

    def play(self, view):
        return view.legal_moves()[0]

@hookimpl
def register_bots(register):
    register("entrant", Entrant)
'''


def _notes(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def _setup(install: Install, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The entrant installed, its notes' folder writable from the sandbox; (notes, out)."""
    marks = tmp_path / "marks"
    marks.mkdir()
    marks.chmod(0o777)  # the sandboxed entrant (nobody, outside too) writes its notes here
    notes, out = marks / "notes.jsonl", tmp_path / "out"
    monkeypatch.setenv(WRITABLE_ENV, str(marks))
    install("entrant-bots", "entrant", MODULE,
            ENTRANT.format(seed=str(out / "secret-seed"), notes=str(notes),
                           config=str(tmp_path / "t.yaml")), version="2.5")
    return notes, out


def test_the_referee_lists_checks_and_plays_the_entrant_without_importing_it(
    install: Install, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    notes, out = _setup(install, tmp_path, monkeypatch)
    config = tmp_path / "t.yaml"
    config.write_text("name: t\nplayers: 2\nrules: {rounds: 2}\nformat: {type: round_robin}\n"
                      "bots:\n  - name: entrant\n  - name: random\n  - name: greedy\n")
    runner = CliRunner()

    listed = runner.invoke(main, ["bots", "entrant", "--json"])
    assert listed.exit_code == 0, listed.output
    (bot,) = json.loads(listed.stdout)["bots"]
    assert (bot["plugin"], bot["version"], bot["imported"]) == ("entrant", "2.5", False)
    assert _notes(notes) == []

    checked = runner.invoke(main, ["validate", str(config)])
    assert checked.exit_code == 0, checked.output
    tried = len(_notes(notes))
    assert tried >= 1, "validate tries the entrant out, in a child of its own"
    first = runner.invoke(main, ["run", str(config), "--out", str(out), "--quiet"])
    assert first.exit_code == 0, first.output  # a first session, and its secret-seed
    assert (out / "secret-seed").exists() and (out / "records.jsonl").exists()
    (out / "records.jsonl").write_text("")  # the next session resumes: plays every match

    ran = runner.invoke(main, ["run", str(config), "--out", str(out), "--jobs", "2",
                               "--quiet"])
    assert ran.exit_code == 0, ran.output
    assert (out / "secret-seed").exists()

    assert MODULE not in sys.modules
    seen = _notes(notes)
    assert len(seen) > tried, "the matches imported it in the bot's own processes"
    for note in seen:
        assert note["pid"] != os.getpid()
        child = os.path.join("arena", "referee", "child", "__main__.py")
        assert note["program"].endswith(child), note
        if SANDBOX:
            assert note["uid"] == 65534 and note["seed"] is None, note
            assert note["config"] is False, note  # validate and run hide the config file

    records = list(read_records(out / "records.jsonl"))
    assert len(records) == 3
    played = 0
    for record in records:
        (seat,) = [s for s in record["seats"] if s["label"] == "entrant"] or [None]
        if seat is None:
            continue
        assert (seat["host"], seat["plugin"], seat["version"]) == ("process", "entrant", "2.5")
        for deal in record["deals"]:
            assert not [f for f in deal["faults"] if f["seat"] == seat["seat"]]
            played += deal["movers"].count(seat["seat"])
    assert played > 0


def test_inline_is_the_one_way_to_import_it_here(
    install: Install, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    notes, _ = _setup(install, tmp_path, monkeypatch)
    result = CliRunner().invoke(main, ["match", "entrant", "random", "--rounds", "1",
                                       "--host", "inline", "--json"])
    assert result.exit_code == 0, result.output
    assert [note["pid"] for note in _notes(notes)] == [os.getpid()]
