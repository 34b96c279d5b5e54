"""arena run saves standings.json and standings.csv (also after Ctrl-C) and, with --report,
writes the report and refreshes it during the run."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import arena.cli._run as run_cli
import arena.report._live as report_live
import arena.report._saved as saved
from arena.cli import main
from arena.ratings import rate_files
from arena.records import TailReader
from arena.referee import run_match
from arena.report import GrowingStandings, Rebuilds, ReportRefresher, standings_document
from arena.tournament import run_tournament
from tests.tournament.helpers import Interrupt

CONFIG = """\
name: saved
seed: 5
rules: {preset: runs, rounds: 2}
players: 4
duplicate: true
repeat: 2
bots: [{name: greedy}, {name: random}, {name: lowest}, {name: highest}]
"""


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "saved.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def _check_standings(folder: Path, matches: int) -> None:
    data = json.loads((folder / "standings.json").read_text(encoding="utf-8"))
    assert data["matches"] == matches
    board = rate_files(folder / "records.jsonl")
    assert [r["label"] for r in data["ratings"]["bots"]] == [b.label for b in board.bots]
    with (folder / "standings.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert [row["label"] for row in rows] == [row["label"] for row in data["standings"]]
    assert sum(int(row["matches"]) for row in rows) == 4 * matches
    for row, line in zip(rows, data["standings"], strict=True):
        assert float(row["match_score"]) == line["match_score"]
        assert float(row["deal_score"]) == pytest.approx(board.bot(row["label"]).score, abs=1e-6)


def test_run_saves_the_standings_and_the_report(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["run", str(_config(tmp_path)), "--out",
                                    str(tmp_path / "run"), "--report", "-j", "1"])
    assert out.exit_code == 0, out.output
    folder = tmp_path / "run"
    _check_standings(folder, 8)
    assert f"report: {folder / 'report' / 'index.html'}" in out.output
    assert (folder / "report" / "data" / "replays" / "00000.js").is_file()


def test_ctrl_c_saves_the_standings_of_what_was_played(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    stop = Interrupt(3, run_match)  # three matches, then Ctrl-C

    def run_some(*args: Any, **kwargs: Any) -> Any:
        return run_tournament(*args, **kwargs, match_fn=stop)

    monkeypatch.setattr(run_cli, "run_tournament", run_some)
    out = CliRunner().invoke(main, ["run", str(_config(tmp_path)), "--out",
                                    str(tmp_path / "run"), "-j", "1", "--quiet"])
    assert out.exit_code == 130
    assert "interrupted: 3 matches recorded" in out.output
    _check_standings(tmp_path / "run", 3)
    assert not (tmp_path / "run" / "report").exists()  # no --report, no report


def test_the_report_is_refreshed_during_the_run(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    refresher = ReportRefresher(folder, interval=0.0)
    run_tournament(str(_config(tmp_path)), out=folder, jobs=1, reporter=refresher)
    assert not refresher.busy
    assert refresher.builds >= 1
    assert (folder / "report" / "index.html").is_file()


def test_growing_standings_are_the_standings_of_the_lines_so_far(
        run_folder: Path, tmp_path: Path) -> None:
    """A served run's standings read each record once as the file grows (a line being
    written waits, a repeated match counts once, a file replaced is read again): the document
    standings_document gives of the same lines, each time."""
    lines = (run_folder / "records.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "records.jsonl"
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"")
    growing = GrowingStandings(path, resamples=20)
    assert growing.document() == standings_document(tmp_path, whole, resamples=20)  # none
    written = 0
    for count in (1, 2, 5, len(lines)):
        with path.open("ab") as file:  # grown, with a match again and a line half written
            file.write(b"".join([*lines[written:count], lines[0], lines[count - 1][:40]]))
        whole.write_bytes(path.read_bytes()[:path.read_bytes().rindex(b"\n") + 1])
        assert growing.document() == standings_document(tmp_path, whole, resamples=20)
        with path.open("ab") as file:
            file.write(lines[count - 1][40:])  # the half written line ends: a repeat
        written = count
    assert growing.document()["matches"] == len(lines)
    path.unlink()
    path.write_bytes(lines[0])  # replaced
    assert growing.document()["matches"] == 1


def test_growing_standings_read_a_large_file_a_piece_at_a_time(
        run_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The records are taken in READ_BYTES at a time (a million matches read at once were
    7.5 GB in memory, twice): here a line a read, and the same document as read whole."""
    monkeypatch.setattr(saved, "READ_BYTES", 1)  # each read: one line, whole
    taken: list[int] = []
    lines = TailReader.lines

    def counted(self: TailReader, max_bytes: int | None = None) -> list[bytes]:
        got = lines(self, max_bytes)
        taken.append(len(got))
        return got

    monkeypatch.setattr(TailReader, "lines", counted)
    path = run_folder / "records.jsonl"
    count = len(path.read_bytes().splitlines())
    document = GrowingStandings(path, resamples=20).document()
    assert document == standings_document(run_folder, resamples=20)
    assert document["matches"] == count
    assert max(taken) == 1 and sum(taken) == count


def test_a_rebuild_waits_four_times_as_long_as_the_last_took(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A report rebuilt while its records grow takes at most a fifth of the time: the next
    build no sooner than ``interval``, nor than four times the last one's time."""
    clock = [100.0]
    monkeypatch.setattr(report_live.time, "monotonic", lambda: clock[0])

    def build() -> bool:
        clock[0] += 10.0  # a build of ten seconds
        return True

    rebuilds = Rebuilds(build, 5.0, what="building")
    assert rebuilds.due() and rebuilds.build() and rebuilds.builds == 1
    clock[0] += 39.0
    assert not rebuilds.due()
    clock[0] += 1.0
    assert rebuilds.due()
