"""``arena show``: a run folder as RECORDS, the list of matches, the ids near a wrong one."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.game import Rules
from arena.records import RecordWriter
from arena.referee import Limits, MatchSpec, Seat, run_match

IDS = ["demo-r0-t0-p0", "demo-r0-t0-p1", "demo-r1-t2-p3"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run")
    with RecordWriter(out / "records.jsonl") as writer:
        for seed, match_id in enumerate(IDS):
            writer.write(run_match(MatchSpec(
                match_id=match_id, seed=seed, rules=Rules.preset("standard", rounds=2),
                limits=Limits(), seats=(Seat(label="greedy", name="greedy"),
                                        Seat(label="lowest", name="lowest")))))
    return out


def show(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["show", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_run_folder_stands_for_its_records(folder: Path) -> None:
    code, out, err = show(str(folder), IDS[1])
    assert code == 0, err
    assert out.startswith(f"match {IDS[1]}")


def test_without_a_match_id_the_matches_are_listed(folder: Path) -> None:
    code, out, _ = show(str(folder / "records.jsonl"))
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == IDS
    assert all("greedy lowest  (2 deals, won by " in line for line in lines)


def test_a_wrong_id_lists_the_ids_near_it(folder: Path) -> None:
    code, _, err = show(str(folder), "demo-r0-t0-p7")
    assert code == 2
    (line,) = err.splitlines()
    assert line.endswith("no match 'demo-r0-t0-p7'; near it: demo-r0-t0-p1, demo-r0-t0-p0, "
                         "demo-r1-t2-p3")


def test_an_id_like_none_says_how_to_list_them(folder: Path) -> None:
    code, _, err = show(str(folder), "zzzz")
    assert code == 2
    assert err.strip().endswith("no match 'zzzz' among its 3 matches (arena show RECORDS lists "
                                "them)")
