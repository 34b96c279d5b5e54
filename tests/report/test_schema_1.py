"""Records written before schema 2 (one object per move) read as today's records do: a
folder may hold both, as a tournament resumed across versions of arena does."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.records import SCHEMA, FaultLog, RecordedMove, deal_movers, deal_moves
from arena.report import moves_as_recorded, replay_deals, write_report
from arena.tournament import Standings

from .helpers import folder_records, js_value


def as_schema_1(record: dict[str, Any]) -> dict[str, Any]:
    """The record as arena wrote it in schema 1: each move an object with its think time."""
    old = copy.deepcopy(record)
    old["schema"] = 1
    for deal in old["deals"]:
        movers, moves, think = deal.pop("movers"), deal.pop("moves"), deal.pop("think_us")
        deal["moves"] = [{"seat": s, "move": m, "ms": us / 1000}
                         for s, m, us in zip(movers, moves, think, strict=True)]
    return old


def _write(folder: Path, records: list[dict[str, Any]]) -> Path:
    folder.mkdir()
    (folder / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records),
                                          encoding="utf-8")
    return folder


def _summary(path: Path) -> dict[str, Any]:
    summary: dict[str, Any] = js_value(path, "ARENA_SUMMARY")
    return {k: v for k, v in summary.items() if k not in ("name", "records")}


def test_todays_records_are_schema_2_with_one_entry_per_move_in_each_array(
        run_folder: Path) -> None:
    for record in folder_records(run_folder):
        assert record["schema"] == SCHEMA == 2
        for deal in record["deals"]:
            assert len(deal["movers"]) == len(deal["moves"]) == len(deal["think_us"]) > 0
            assert all(type(us) is int and us >= 0 for us in deal["think_us"])


def test_both_schemas_give_the_same_moves(run_folder: Path) -> None:
    for record in folder_records(run_folder):
        for new, old in zip(record["deals"], as_schema_1(record)["deals"], strict=True):
            moves = deal_moves(new)
            assert moves == deal_moves(old)
            assert moves == [RecordedMove(s, m, us / 1000) for s, m, us in
                             zip(new["movers"], new["moves"], new["think_us"], strict=True)]
            assert list(deal_movers(new)) == list(deal_movers(old)) == new["movers"]


def test_a_folder_of_old_and_new_records_reports_as_one_of_new_records(
        run_folder: Path, tmp_path: Path) -> None:
    records = folder_records(run_folder)
    mixed = [as_schema_1(r) if n % 2 else r for n, r in enumerate(records)]
    new, old = _write(tmp_path / "new", records), _write(tmp_path / "mixed", mixed)
    assert [r["schema"] for r in folder_records(old)].count(1) == len(records) // 2
    for folder in (new, old):
        write_report(folder, resamples=0)
    data = Path("report") / "data"
    names = sorted(p.relative_to(new / data) for p in (new / data).rglob("*.js"))
    assert Path("replays") / "00000.js" in names
    for name in names:
        if name == Path("summary.js"):  # it names the folder and the records file
            summaries = [_summary(folder / data / name) for folder in (new, old)]
            assert summaries[0] == summaries[1] and summaries[0]["bots"]
        else:
            assert (new / data / name).read_bytes() == (old / data / name).read_bytes(), name
    for record, older in zip(records, mixed, strict=True):
        assert replay_deals(record) == replay_deals(older)


def test_standings_and_fault_counts_of_old_records_are_those_of_new_ones(
        run_folder: Path) -> None:
    records = folder_records(run_folder)
    counted = []
    for batch in (records, [as_schema_1(r) for r in records]):
        standings, faults = Standings([]), FaultLog()
        standings.extend(batch)
        faults.extend(batch)
        counted.append((standings.to_list(), faults.counts(), faults.lines(),
                        [(row.label, row.moves) for row in faults.bots.values()]))
    assert counted[0] == counted[1]
    assert all(moves > 0 for _, moves in counted[0][3])


def test_show_prints_an_old_record_as_it_prints_the_new(run_folder: Path,
                                                        tmp_path: Path) -> None:
    record = next(r for r in folder_records(run_folder) if r["match_id"] == "zz-clumsy-pass")
    shown = []
    for name, each in (("new", record), ("old", as_schema_1(record))):
        folder = _write(tmp_path / name, [each])
        out = CliRunner().invoke(main, ["show", str(folder / "records.jsonl"), "zz-clumsy-pass"])
        assert out.exit_code == 0, out.output
        shown.append(out.output)
    assert shown[0] == shown[1] and "clumsy illegal at move " in shown[0]


@pytest.mark.parametrize(("deal", "message"), [
    ({"movers": [0, 1], "moves": ["3C"]}, "'movers' and 'moves' must be lists of one length, "
                                          "got 2 entries and 1 entries"),
    ({"movers": [0], "moves": "3C"}, "got 1 entries and str"),
    ({"movers": [0], "moves": ["3C"], "think_us": [1, 2]},
     r"'think_us' must be a list as long as 'moves' \(1\), got 2 entries"),
    ({"movers": ["0"], "moves": ["3C"]}, "move 0: seat '0' and move '3C' must be a number"),
    ({"movers": [0, 1], "moves": ["3C", None], "think_us": [1, 2]}, "move 1: seat 1 and move None"),
    ({"moves": [{"seat": 0, "move": "3C"}, "pass"]}, "move 1 is not an object: 'pass'"),
    ({"moves": [{"seat": 0}]}, "move 0: seat 0 and move None"),
])
def test_malformed_moves_are_named(deal: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        deal_moves(deal)
    assert moves_as_recorded(deal) == []


@pytest.mark.parametrize("deal", [{"movers": 5, "moves": []}, {"movers": "01", "moves": []},
                                  {"moves": ["pass"]}, {"moves": [{"move": "pass"}]},
                                  {"moves": 7}])
def test_malformed_movers_count_no_moves(deal: dict[str, Any]) -> None:
    assert list(deal_movers(deal)) == []
    log = FaultLog()
    log.add({"type": "match", "seats": [{"label": "a"}, {"label": "b"}], "deals": [deal]})
    assert [row.moves for row in log.bots.values()] == [0, 0]


def test_a_move_without_a_think_time_reads_as_none() -> None:
    assert deal_moves({"movers": [2, 3], "moves": ["3C", "pass"], "think_us": [1500, None]}) == [
        RecordedMove(2, "3C", 1.5), RecordedMove(3, "pass", None)]
    assert deal_moves({"movers": [2], "moves": ["3C"]}) == [RecordedMove(2, "3C", None)]
    assert deal_moves({"moves": [{"seat": 2, "move": "3C"}]}) == [RecordedMove(2, "3C", None)]
    assert deal_moves({}) == [] and list(deal_movers({})) == []
