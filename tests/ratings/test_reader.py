"""Record files: JSON lines, a torn last line tolerated, other damage named by file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.ratings import RatingsError, rate_files, read_many

from .helpers import record


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(lines), encoding="utf-8")


def test_torn_last_line_is_skipped_and_reported(tmp_path: Path) -> None:
    good = json.dumps(record("m1", ["a", "b"], [[0, 1]])) + "\n"
    _write(tmp_path / "r.jsonl", [good, "\n", good.replace("m1", "m2"), good[:40]])
    skipped: list[str] = []
    records = list(read_many([tmp_path / "r.jsonl"], on_skip=skipped.append))
    assert [r["match_id"] for r in records] == ["m1", "m2"]
    assert len(skipped) == 1 and "r.jsonl:4" in skipped[0]


def test_damaged_middle_line_is_skipped_with_file_and_line(tmp_path: Path) -> None:
    good = json.dumps(record("m1", ["a", "b"], [[0, 1]])) + "\n"
    _write(tmp_path / "r.jsonl", [good, "{oops\n", good.replace("m1", "m2")])
    skipped: list[str] = []
    board = rate_files(tmp_path / "r.jsonl", on_skip=skipped.append)
    assert board.matches == 2
    assert len(skipped) == 1 and "r.jsonl:2" in skipped[0]


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RatingsError, match="no such records file"):
        list(read_many([tmp_path / "nope.jsonl"]))


def test_several_files_are_rated_together(tmp_path: Path) -> None:
    _write(tmp_path / "1.jsonl", [json.dumps(record("m1", ["a", "b"], [[0, 1]])) + "\n"])
    _write(tmp_path / "2.jsonl", [json.dumps(record("m2", ["b", "c"], [[0, 1]])) + "\n"])
    board = rate_files(tmp_path / "1.jsonl", tmp_path / "2.jsonl")
    assert [line.label for line in board.bots] == ["a", "b", "c"]
    assert board.bot("b").deals == 2
