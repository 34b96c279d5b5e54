"""A people's table's finished match belongs to the served run: listed with its replay link,
answered by the API, kept out of the run's standings."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import trio

from arena.records import TABLE_RECORDS
from arena.web._live import LIVE_DIR, RunFolder

from .serving import serving


def _tables_only(finished_run: Path, tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """A served folder whose only record is a people's table's (one of the run's, renamed)."""
    line = (finished_run / "records.jsonl").read_text().splitlines()[0]
    record = json.loads(line)
    record.update(match_id="table-abc", set=None)
    record["seats"][0]["name"] = "Ada"
    folder = tmp_path / "served"
    (folder / "tables").mkdir(parents=True)
    (folder / TABLE_RECORDS).write_text(json.dumps(record) + "\n")
    return folder, record


def test_a_peoples_match_is_listed_apart_from_the_runs_records(finished_run: Path,
                                                                tmp_path: Path) -> None:
    folder, record = _tables_only(finished_run, tmp_path)
    run = RunFolder(folder)
    recorded, _ = run.refresh()
    assert recorded == ["table-abc"]
    assert run.records == {}  # the run's standings and report never see it
    assert run.record("table-abc") == record
    [listed] = run.match_list()
    assert listed["state"] == "finished" and listed["people"] is True
    assert listed["labels"][0] == "Ada"


def test_a_peoples_match_in_play_leaves_the_live_list_once_recorded(finished_run: Path,
                                                                    tmp_path: Path) -> None:
    folder, _ = _tables_only(finished_run, tmp_path)
    records = (folder / TABLE_RECORDS).read_text()
    (folder / TABLE_RECORDS).write_text("")
    (folder / LIVE_DIR).mkdir()
    (folder / LIVE_DIR / "table-abc.jsonl").write_text(json.dumps(
        {"type": "live", "match": "table-abc", "set": None, "round": None,
         "labels": ["person", "greedy"]}) + "\n")
    run = RunFolder(folder)
    run.refresh()
    assert [m["state"] for m in run.match_list()] == ["playing"]
    (folder / TABLE_RECORDS).write_text(records)
    assert run.refresh()[0] == ["table-abc"]
    assert "table-abc" in run.ended and not run.live
    assert [(m["state"], m.get("people")) for m in run.match_list()] == [("finished", True)]
    assert run.refresh() == ([], [])  # its live file, kept a moment, is not read again
    assert not run.live


def test_the_served_run_lists_and_answers_a_peoples_match(finished_run: Path,
                                                          tmp_path: Path) -> None:
    folder, record = _tables_only(finished_run, tmp_path)

    async def main() -> None:
        async with serving(folder) as url, httpx.AsyncClient(base_url=url,
                                                             timeout=30) as client:
            listed = (await client.get("/api/matches")).json()["matches"]
            assert [(m["id"], m["state"], m["people"]) for m in listed] == [
                ("table-abc", "finished", True)]
            answer = await client.get("/api/matches/table-abc")
            assert answer.status_code == 200
            assert answer.json() == {"state": "finished",
                                     "record": json.loads(json.dumps(record))}

    trio.run(main)

