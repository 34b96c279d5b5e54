"""A small real run and its report, shared by the report tests: a tournament of built-in bots,
plus matches of a bot that commits faults, under a label full of HTML."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.records import RecordWriter
from arena.referee import run_match
from arena.report import write_report
from arena.tournament import run_tournament

HOSTILE_LABEL = '<img src=x onerror="window.PWNED=1">clumsy'

CONFIG: dict[str, Any] = {
    "name": "report-test",
    "seed": 7,
    "rules": {"preset": "runs", "revolution": True, "eight_stop": True, "rounds": 3},
    "players": 4,
    "format": {"type": "round_robin"},
    "duplicate": True,
    "repeat": 3,
    "bots": [{"name": "greedy"}, {"name": "lowest"}, {"name": "random"}, {"name": "highest"}],
}


def clumsy_spec(match_id: str, on_fault: str, seed: int) -> dict[str, Any]:
    """A match of the faulting bot against three built-in ones."""
    seats = [{"label": HOSTILE_LABEL, "name": "report_bots:Clumsy", "host": "inline"}]
    seats += [{"label": name, "name": name, "host": "inline"} for name in ("greedy", "lowest",
                                                                              "random")]
    return {
        "match_id": match_id, "tournament": "report-test", "seed": seed,
        "rules": {"preset": "runs", "revolution": True, "eight_stop": True, "rounds": 3,
                  "on_fault": on_fault},
        "seats": seats,
    }


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
