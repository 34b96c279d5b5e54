"""The fast record reader of ratings gives what the plain json path gives, on real records."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.ratings import RatingsError, Results, rate, rate_files, read_many
from arena.ratings._scan import read_results
from arena.tournament import run_tournament

CONFIG: dict[str, Any] = {
    "name": "fast-reader",
    "seed": 11,
    "rules": {"preset": "runs"},
    "players": 4,
    "format": {"type": "round_robin"},
    "duplicate": True,
    "bots": [{"name": "greedy"}, {"name": "lowest"}, {"name": "random"},
             {"name": "random", "label": "random-2"}, {"name": "passer"}],
}


@pytest.fixture(scope="module")
def real_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The record lines of a real tournament (5 bots in every 4-seat table, duplicate sets)."""
    out = tmp_path_factory.mktemp("run")
    run_tournament(CONFIG, out=out, jobs=1)
    lines = (out / "records.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) == 20  # 5 tables x 4 seatings
    return lines


def _plain(paths: list[Path]) -> tuple[Results, list[str]]:
    heard: list[str] = []
    results = Results()
    results.extend(read_many(paths, heard.append))
    return results, heard


def _fast(paths: list[Path]) -> tuple[Results, list[str]]:
    heard: list[str] = []
    return read_results(paths, heard.append), heard


def _assert_same(paths: list[Path]) -> Results:
    (plain, plain_heard), (fast, fast_heard) = _plain(paths), _fast(paths)
    assert fast_heard == plain_heard
    assert (fast.duplicates, fast.skipped, fast.matches, len(fast)) == (
        plain.duplicates, plain.skipped, plain.matches, len(plain))
    a, b = plain.arrays(), fast.arrays()
    for field in a.__dataclass_fields__:
        x, y = getattr(a, field), getattr(b, field)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), field
        else:
            assert x == y, field
    return fast


def test_real_records_read_the_same(real_lines: list[str], tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text("".join(real_lines), encoding="utf-8")
    fast = _assert_same([path])
    assert fast.matches == 20 and len(fast) == 100 and fast.arrays().cluster_kind == "set"
    board = rate_files(path)
    assert board.to_dict() == rate(read_many([path])).to_dict()


def test_gzip_and_several_files_read_the_same(real_lines: list[str], tmp_path: Path) -> None:
    packed = tmp_path / "a.jsonl.gz"
    packed.write_bytes(gzip.compress("".join(real_lines[:12]).encode()))
    plain = tmp_path / "b.jsonl"
    plain.write_text("".join(real_lines[12:]) + real_lines[0], encoding="utf-8")  # a duplicate
    assert _assert_same([packed, plain]).duplicates == 1


def _edit(line: str, change: Any) -> str:
    record = json.loads(line)
    change(record)
    return json.dumps(record) + "\n"


def test_records_off_the_fast_path_read_the_same(real_lines: list[str], tmp_path: Path) -> None:
    def int_set(r: dict[str, Any]) -> None:
        r["set"] = 7

    def negative_fault_seat(r: dict[str, Any]) -> None:
        r["deals"][0]["faults"] = [{"seat": -1, "kind": "timeout"}]

    def fault(r: dict[str, Any]) -> None:
        r["deals"][1]["faults"] = [{"seat": 2, "kind": "crash"}]

    def float_points(r: dict[str, Any]) -> None:
        r["deals"][0]["points"] = [0.5, 1, 2.25, 3]

    def bool_order(r: dict[str, Any]) -> None:  # Python sorts False, True as 0, 1
        r["deals"][0]["finish_order"] = [False, True, 2, 3]
        r["deals"][0]["points"] = [3, 2, 1, 0]

    def no_tournament_no_set(r: dict[str, Any]) -> None:
        del r["tournament"]
        r["set"] = None

    edits = [int_set, negative_fault_seat, fault, float_points, bool_order,
             no_tournament_no_set]
    lines = [_edit(line, edit) for line, edit in zip(real_lines, edits, strict=False)]
    lines += real_lines[len(edits):]
    lines.insert(3, json.dumps({"schema": 1, "type": "summary", "matches": 3}) + "\n")
    lines.insert(5, "{not json\n")
    lines.insert(7, json.dumps({"type": "match"}) + "\n")  # no schema: not a record
    lines.append(real_lines[-1][:500])  # torn last line
    path = tmp_path / "records.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    fast = _assert_same([path])
    assert fast.skipped == 1 and fast.arrays().cluster_kind == "mixed"
    # the negative fault seat and the finishing order of booleans are no records: skipped
    assert int(fast.arrays().faults.sum()) == 1
    assert fast.matches == len(real_lines) - 2


@pytest.mark.parametrize("damage", ["repeated seat", "short points", "seat out of range"])
def test_malformed_records_are_skipped_as_the_plain_path_skips_them(
    damage: str, real_lines: list[str], tmp_path: Path
) -> None:
    def change(r: dict[str, Any]) -> None:
        deal = r["deals"][2]
        if damage == "repeated seat":
            deal["finish_order"] = [0, 0, 1, 2]
        elif damage == "short points":
            deal["points"] = deal["points"][:3]
        else:
            deal["faults"] = [{"seat": 4}]

    lines = ["{torn\n", *real_lines[:9], _edit(real_lines[9], change), *real_lines[10:]]
    path = tmp_path / "records.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    fast = _assert_same([path])
    assert fast.matches == len(real_lines) - 1
    _, heard = _fast([path])
    assert len(heard) == 2 and heard[1].startswith(f"{path}:11: not a record (deal 2: ")


def test_a_missing_file_is_the_plain_error(real_lines: list[str], tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text("".join(real_lines), encoding="utf-8")
    with pytest.raises(RatingsError, match="no such records file"):
        read_results([path, tmp_path / "nope.jsonl"])


def test_timeouts_are_counted_apart_from_other_faults_by_both_readers(
    real_lines: list[str], tmp_path: Path
) -> None:
    def faults(r: dict[str, Any]) -> None:
        r["deals"][0]["faults"] = [{"seat": 1, "kind": "timeout"}, {"seat": 1, "kind": "crash"},
                                   {"seat": 3, "kind": "timeout"}]

    path = tmp_path / "records.jsonl"
    path.write_text("".join([_edit(real_lines[0], faults), *real_lines[1:]]), encoding="utf-8")
    arrays = _assert_same([path]).arrays()
    labels = [seat["label"] for seat in json.loads(real_lines[0])["seats"]]
    timeouts = dict(zip(arrays.labels, arrays.timeouts.tolist(), strict=True))
    assert timeouts[labels[1]] == 1 and timeouts[labels[3]] == 1
    assert int(arrays.timeouts.sum()) == 2 and int(arrays.faults.sum()) == 3
    board = rate_files(path)
    assert board.bot(labels[1]).to_dict()["timeouts"] == 1
    assert board.bot(labels[1]).faults == 2
