"""Record files: JSON lines, a torn last line tolerated, other damage named by file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.ratings import RatingsError, rate_files, read_records

from .helpers import record


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(lines), encoding="utf-8")


def test_torn_last_line_is_skipped(tmp_path: Path) -> None:
    good = json.dumps(record("m1", ["a", "b"], [[0, 1]])) + "\n"
    _write(tmp_path / "r.jsonl", [good, "\n", good.replace("m1", "m2"), good[:40]])
    assert [r["match_id"] for r in read_records(tmp_path / "r.jsonl")] == ["m1", "m2"]


def test_damaged_middle_line_names_file_and_line(tmp_path: Path) -> None:
    good = json.dumps(record("m1", ["a", "b"], [[0, 1]])) + "\n"
    _write(tmp_path / "r.jsonl", [good, "{oops\n", good])
    with pytest.raises(RatingsError, match=r"r\.jsonl:2: not a JSON record"):
        list(read_records(tmp_path / "r.jsonl"))


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RatingsError, match="cannot read"):
        list(read_records(tmp_path / "nope.jsonl"))


def test_several_files_are_rated_together(tmp_path: Path) -> None:
    _write(tmp_path / "1.jsonl", [json.dumps(record("m1", ["a", "b"], [[0, 1]])) + "\n"])
    _write(tmp_path / "2.jsonl", [json.dumps(record("m2", ["b", "c"], [[0, 1]])) + "\n"])
    board = rate_files(tmp_path / "1.jsonl", tmp_path / "2.jsonl")
    assert [line.label for line in board.bots] == ["a", "b", "c"]
    assert board.bot("b").deals == 2
