"""A small real run and its report, shared by the report tests: a tournament of built-in bots,
plus matches of a bot that commits faults, under a label full of HTML."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.records import RecordWriter
from arena.referee import run_match
from arena.report import write_report
from arena.tournament import run_tournament

from .helpers import CONFIG, clumsy_spec


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of 12 matches plus 2 with faults (forfeit and pass), reported."""
    folder = tmp_path_factory.mktemp("run")
    run_tournament(CONFIG, out=folder, jobs=1)
    with RecordWriter(folder / "records.jsonl") as writer:
        writer.write(run_match(clumsy_spec("zz-clumsy-forfeit", "forfeit", 11)))
        writer.write(run_match(clumsy_spec("zz-clumsy-pass", "pass", 12)))
    write_report(folder, resamples=200)
    return folder
