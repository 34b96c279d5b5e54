"""The JSON API and the served files: answers, the set rule, bad ids and paths."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from arena.records import read_records

from .serving import raw_get, serving


def records(folder: Path) -> list[dict[str, Any]]:
    return list(read_records(folder / "records.jsonl"))


def test_a_match_is_its_record(served: str, finished_run: Path) -> None:
    record = records(finished_run)[2]
    answer = httpx.get(f"{served}/api/matches/{record['match_id']}", timeout=30)
    assert answer.status_code == 200
    assert answer.json() == {"state": "finished", "record": json.loads(json.dumps(record))}


@pytest.mark.parametrize("path", [
    "/api/matches/no-such-match",
    "/api/matches/..%2F..%2Fconfig.yaml",
    "/api/matches/%00",
    "/api/nothing",
    "/nothing/at/all",
    "/static/..%2F_app.py",
    "/report/..%2Fconfig.yaml",
    "/report/data/replays/99999.js",
    "/static/live.html%00.js",
    "/static/%00",
    "/report/index.html%00",
    "/report/data/replays/%00.js",
])
def test_a_bad_path_is_a_one_line_json_404(served: str, path: str) -> None:
    answer = httpx.get(f"{served}{path}", timeout=30)
    assert answer.status_code == 404, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert "\n" not in answer.text and "Traceback" not in answer.text
    assert set(answer.json()) == {"error"}


@pytest.mark.parametrize("path", [
    "/report/../config.yaml", "/report/../../records.jsonl", "/static/../_app.py",
    "/static/../../../pyproject.toml", "/report/%2e%2e/config.yaml",
    "/api/matches/../../records.jsonl",
])
def test_no_path_climbs_out_of_its_folder(served: str, finished_run: Path, path: str) -> None:
    status, body = raw_get(served, path)
    assert status in (400, 404), (status, body[:200])
    assert b"seed" not in body and b"import" not in body


def test_the_league_of_a_run_that_is_none_is_a_404(served: str) -> None:
    answer = httpx.get(f"{served}/api/league", timeout=30)
    assert answer.status_code == 404 and "league" in answer.json()["error"]
    assert "run with --serve or --live" in answer.json()["error"]  # true of a league run too


def test_the_report_is_served_with_its_replays(served: str) -> None:
    with httpx.Client(base_url=served, timeout=30) as client:
        for _ in range(150):  # the first build runs in a child after the server starts (its
            page = client.get("/report/")  # page says so meanwhile: building.html)
            if page.status_code == 200 and "report.js" in page.text:
                break
            trio_sleep(0.2)
        assert page.status_code == 200 and "report.js" in page.text
        replay = client.get("/report/data/replays/00000.js")
        assert replay.status_code == 200 and replay.text.startswith("ARENA_BATCH(0,")


def test_a_report_file_changed_on_disk_is_served_fresh(finished_run: Path,
                                                        tmp_path: Path) -> None:
    """The served report's files are kept in memory between requests, and answered as they
    are on disk: a build puts new files in their place, and the next answer is the new
    file's, with the headers a file read from disk had."""
    import os

    from arena.web._live_report import WEB_DIR

    run = tmp_path / "run"
    shutil.copytree(finished_run, run, ignore=shutil.ignore_patterns(WEB_DIR))
    root = run / WEB_DIR / "report"

    async def main() -> None:
        async with serving(run) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            for _ in range(150):  # built (building.html meanwhile)
                if "report.js" in (await client.get("/report/")).text:
                    break
                await trio.sleep(0.2)
            for relative, kind in (("data/summary.js", "text/javascript"),
                                   ("data/replays/00000.js", "text/javascript"),
                                   ("index.html", "text/html")):
                path = root / relative
                answers = [await client.get(f"/report/{relative}") for _ in range(2)]
                assert [a.content for a in answers] == [path.read_bytes()] * 2, relative
                new = path.with_name(f".{path.name}.new")
                new.write_bytes(path.read_bytes().replace(b"window", b"widnow", 1)
                                .replace(b"ARENA_BATCH(0", b"ARENA_BATCH(7", 1)
                                .replace(b"<html", b"<HTML", 1))
                os.replace(new, path)  # as a build puts its files in place
                fresh = await client.get(f"/report/{relative}")
                assert fresh.content == path.read_bytes() != answers[0].content, relative
                for answer in (*answers, fresh):
                    assert answer.status_code == 200
                    assert answer.headers["content-type"].startswith(kind)
                    assert answer.headers["cache-control"] == "no-cache"

    trio.run(main)


def trio_sleep(seconds: float) -> None:
    import time

    time.sleep(seconds)


def test_a_match_waits_for_its_duplicate_set(finished_run: Path, tmp_path: Path) -> None:
    # Two of the set's four matches recorded: their hands wait; the list says so.
    half = tmp_path / "half"
    half.mkdir()
    shutil.copyfile(finished_run / "config.yaml", half / "config.yaml")
    lines = (finished_run / "records.jsonl").read_text().splitlines(keepends=True)
    (half / "records.jsonl").write_text("".join(lines[:2]))
    first = json.loads(lines[0])["match_id"]

    async def main() -> None:
        async with serving(half) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            listed = (await client.get("/api/matches")).json()["matches"]
            assert [m["state"] for m in listed] == ["waiting", "waiting"]
            answer = await client.get(f"/api/matches/{first}")
            assert answer.status_code == 409 and "duplicate set" in answer.json()["error"]
            assert "deals" not in answer.text
            for _ in range(150):  # built (building.html meanwhile)
                if "report.js" in (await client.get("/report/")).text:
                    break
                await trio.sleep(0.2)
            replay = await client.get("/report/data/replays/00000.js")
            assert replay.status_code == 409 and "ARENA_BATCH" not in replay.text
            # The rest of the set arrives: the hands are shown.
            with (half / "records.jsonl").open("a") as f:
                f.write("".join(lines[2:]))
            answer = await client.get(f"/api/matches/{first}")
            assert answer.status_code == 200
            assert answer.json()["record"]["deals"][0]["hands"]

    trio.run(main)


def test_a_record_is_encoded_off_the_event_loop(finished_run: Path, monkeypatch: Any) -> None:
    """A record may be large (a long match, many faults): its JSON is made in a worker
    thread, so the pages, sockets and tables go on meanwhile."""
    import threading

    import arena.web._api as api

    threads: list[int] = []
    encode = api.encode

    def watched(document: Any) -> bytes:
        threads.append(threading.get_ident())
        return encode(document)

    monkeypatch.setattr(api, "encode", watched)
    record = records(finished_run)[0]

    async def main() -> None:
        async with serving(finished_run) as url, httpx.AsyncClient(base_url=url,
                                                                   timeout=30) as client:
            answer = await client.get(f"/api/matches/{record['match_id']}")
            assert answer.status_code == 200
            assert answer.json()["record"] == json.loads(json.dumps(record))

    trio.run(main)
    assert threads and threading.get_ident() not in threads


def test_the_server_listens_before_the_first_standings(finished_run: Path,
                                                       monkeypatch: Any) -> None:
    """The first standings read every record (a million matches: minutes): the server
    listens, its pages and match list answer, while they are computed; they follow."""
    import threading

    from arena.report import GrowingStandings

    release = threading.Event()
    document = GrowingStandings.document

    def held(self: GrowingStandings) -> dict[str, Any]:
        if not release.wait(60):  # never released: the server waited for them to listen
            raise RuntimeError("the standings were held for a minute")
        return document(self)

    monkeypatch.setattr(GrowingStandings, "document", held)

    async def main() -> None:
        async with serving(finished_run) as url, \
                httpx.AsyncClient(base_url=url, timeout=30) as client:
            assert (await client.get("/")).status_code == 200
            listed = (await client.get("/api/matches")).json()
            assert listed["total"] == 4
            release.set()
            standings = await client.get("/api/standings")
            assert standings.status_code == 200 and standings.json()["matches"] == 4

    trio.run(main)
