"""What ``arena ratings`` accepts: files, output folders, gzip files; and what it refuses."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.ratings import simulate_records
from arena.records import read_records


def _lines() -> str:
    strengths = {"ace": 0.8, "king": 0.3, "queen": -0.2, "jack": -0.8}
    return "".join(json.dumps(r) + "\n" for r in simulate_records(strengths, sets=6, deals=2,
                                                                  seed=3))


def ratings(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["ratings", "--resamples", "50", *args])
    return result.exit_code, result.stdout, result.stderr


def _bots(out: str) -> list[str]:
    return [bot["label"] for bot in json.loads(out)["bots"]]


def test_a_folder_gzip_and_plain_file_give_the_same_leaderboard(tmp_path: Path) -> None:
    text = _lines()
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "records.jsonl").write_text(text)
    (tmp_path / "r.jsonl.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "packed").mkdir()
    (tmp_path / "packed" / "records.jsonl.gz").write_bytes(gzip.compress(text.encode()))
    outputs = []
    for path in ("run/records.jsonl", "run", "r.jsonl.gz", "packed"):
        code, out, err = ratings(str(tmp_path / path), "--json")
        assert code == 0 and err == "", (path, err)
        outputs.append(json.loads(out))
    assert all(o == outputs[0] for o in outputs)
    assert _bots(json.dumps(outputs[0])) == ["ace", "king", "queen", "jack"]


def test_a_folder_without_records_is_an_error(tmp_path: Path) -> None:
    code, _, err = ratings(str(tmp_path))
    assert code == 2 and err.strip() == f"Error: {tmp_path}: no records.jsonl here"


def test_a_served_folder_with_only_peoples_matches_says_where_they_are(tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "records.jsonl").write_text("")
    code, _, err = ratings(str(tmp_path))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"only the people's tables' matches ({tmp_path}/tables/records.jsonl)" in err
    assert err.strip().endswith("add --people")


@pytest.mark.parametrize("as_json", [[], ["--json"]])
@pytest.mark.parametrize("content", [b"", b"x\n" * 50, b"\n\n"], ids=["empty", "junk", "blank"])
def test_records_with_nothing_readable_exit_2(tmp_path: Path, content: bytes,
                                              as_json: list[str]) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(content)
    code, out, err = ratings(str(path), *as_json)
    assert code == 2 and out == ""
    assert err.splitlines()[-1].startswith(f"Error: no finished deals in these records: {path}")


def test_many_skipped_lines_give_one_warning_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("junk\n" * 30 + _lines() + "more junk\n")
    code, _, err = ratings(str(path), "--json")
    assert code == 0
    assert err.splitlines() == [
        f"warning: {path}:1: not JSON; skipped (and 30 more lines skipped in {path})"]


def test_a_cut_off_gzip_file_keeps_its_whole_records(tmp_path: Path) -> None:
    text = _lines()
    packed = gzip.compress(text.encode())
    path = tmp_path / "r.jsonl.gz"
    path.write_bytes(packed[: len(packed) * 2 // 3])
    skipped: list[str] = []
    records = list(read_records(path, on_skip=skipped.append))
    assert 0 < len(records) < text.count("\n")
    assert records == [json.loads(line) for line in text.splitlines()[: len(records)]]
    assert len(skipped) == 1 and "compressed data is damaged" in skipped[0]


def test_peoples_tables_are_rated_apart_with_people(tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "records.jsonl").write_text(_lines())
    strengths = {"greedy": 0.5, "person-ab-0": 0.0, "mc": 0.2, "person-ab-1": -0.1}
    (tmp_path / "tables" / "records.jsonl").write_text("".join(
        json.dumps(r) + "\n" for r in simulate_records(strengths, sets=3, deals=2, seed=4)))
    code, out, err = ratings(str(tmp_path), "--json")
    assert code == 0 and _bots(out) == ["ace", "king", "queen", "jack"]
    assert err.strip() == (f"note: {tmp_path}/tables/records.jsonl holds 12 people's tables' "
                           f"matches, not rated here: arena ratings {tmp_path} --people")
    code, out, err = ratings(str(tmp_path), "--people", "--json")
    assert code == 0 and err == "" and json.loads(out)["people"] is True
    assert sorted(_bots(out)) == sorted(strengths)
    code, out, _ = ratings(str(tmp_path), "--people")
    assert code == 0 and out.splitlines()[0] == (
        f"People's tables: {tmp_path}/tables/records.jsonl")
    assert " ace " not in out and " person-ab-0 " in out
    code, _, err = ratings(str(tmp_path / "records.jsonl"), "--people")
    assert code == 2 and "--people takes the folder of a served run" in err
