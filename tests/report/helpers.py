"""What the report tests share: the run they build, the hostile label in it, and reading
back what the run and its report wrote."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from arena.records import read_records
from arena.referee import MatchSpec

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


def clumsy_spec(match_id: str, on_fault: str, seed: int) -> MatchSpec:
    """A match of the faulting bot against three built-in ones."""
    seats = [{"label": HOSTILE_LABEL, "name": "tests.report.report_bots:Clumsy", "host": "inline"}]
    seats += [{"label": name, "name": name, "host": "inline"} for name in ("greedy", "lowest",
                                                                              "random")]
    return MatchSpec.from_dict({
        "match_id": match_id, "tournament": "report-test", "seed": seed,
        "rules": {"preset": "runs", "revolution": True, "eight_stop": True, "rounds": 3,
                  "on_fault": on_fault},
        "seats": seats,
    })


def js_value(path: Path, name: str) -> Any:
    """The value a report data file assigns to ``window.NAME``."""
    text = path.read_text(encoding="utf-8")
    prefix = f"window.{name}="
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix):-2])


def folder_records(folder: Path) -> list[dict[str, Any]]:
    """The records of a run's folder, in file order."""
    return list(read_records(folder / "records.jsonl"))


def copied_run(run: Path, folder: Path, copies: int) -> None:
    """``folder`` made a run of ``copies`` copies of ``run``'s records, each under new match
    ids (``c<k>-`` before each id), beside ``run``'s config."""
    lines = (run / "records.jsonl").read_bytes().splitlines(keepends=True)
    folder.mkdir()
    with (folder / "records.jsonl").open("wb") as out:
        for k in range(copies):
            for line in lines:
                out.write(line.replace(b'"match_id": "', f'"match_id": "c{k}-'.encode())
                          .replace(b'"match_id":"', f'"match_id":"c{k}-'.encode()))
    shutil.copyfile(run / "config.yaml", folder / "config.yaml")
