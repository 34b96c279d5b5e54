"""A people's table's match, once over, has its replay in the people's report: served at
/report/people/ from OUT/tables/records.jsonl, apart from the run's report, its persons by
their names and a stand-in's moves marked; the run's page, the match's page and the seat
page's end lead there (the seat page's in tests/web/test_table_browser.py)."""

from __future__ import annotations

import base64
import gzip
import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from arena.records import TABLE_RECORDS, deal_moves
from tests.report.helpers import js_value

from .conftest import start_server, stop
from .serving import raw_get, serving

MATCH = "table-abc"


@pytest.fixture
def people_folder(finished_run: Path, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A served folder whose only record is a people's table's (one of the run's, its seat 0
    a person named Ada whom a stand-in played for at her first move, seat 1 a person with no
    name): the folder and the stand-in's move (deal, number among the deal's moves)."""
    record = json.loads((finished_run / "records.jsonl").read_text().splitlines()[0])
    record.update(match_id=MATCH, set=None, tournament="tables")
    first = next(k for k, m in enumerate(deal_moves(record["deals"][0])) if m.seat == 0)
    record["seats"][0].update(host="web", name="Ada", label="person-abc-0", stand_in={
        "bot": "greedy", "decisions": [{"deal": 0, "kind": "play", "move": first}]})
    record["seats"][1].update(host="web", name="", label="person-abc-1")
    folder = tmp_path / "served"
    (folder / "tables").mkdir(parents=True)
    (folder / TABLE_RECORDS).write_text(json.dumps(record) + "\n")
    return folder, {"deal": 0, "move": first}


def _batch(text: str) -> list[dict[str, Any]]:
    packed = text.split('"')[1]
    return list(json.loads(gzip.decompress(base64.b64decode(packed))))


def test_the_people_report_is_served_apart_from_the_runs(
        people_folder: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    folder, stood = people_folder

    async def main() -> None:
        async with serving(folder) as url, httpx.AsyncClient(base_url=url,
                                                             timeout=60) as client:
            page = await client.get("/report/people/")
            assert page.status_code == 200 and "report.js" in page.text
            matches = await client.get("/report/people/data/matches.js")
            summary = await client.get("/report/people/data/summary.js")
            replay = await client.get("/report/people/data/replays/00000.js")
            assert [r.status_code for r in (matches, summary, replay)] == [200, 200, 200]
            # the run's own report has no record to be built from: it says where the
            # people's matches are
            run_report = await client.get("/report/")
            assert "report.js" not in run_report.text
            assert 'href="/report/people/"' in run_report.text
            for path in ("/report/people/../../tables/records.jsonl",
                         "/report/people/..%2f..%2f..%2ftables%2frecords.jsonl",
                         "/report/people/%2e%2e/%2e%2e/%2e%2e/tables/records.jsonl"):
                status, _ = await trio.to_thread.run_sync(raw_get, url, path)
                assert status == 404, path
            return matches.text, summary.text, replay.text

    matches, summary, replay = trio.run(main)
    for name, text in (("matches", matches), ("summary", summary)):
        (tmp_path / f"{name}.js").write_text(text)
    index = js_value(tmp_path / "matches.js", "ARENA_MATCHES")
    assert index["ids"] == [MATCH] and index["stand_in"] == {"0": [0]}
    assert js_value(tmp_path / "summary.js", "ARENA_SUMMARY")["people"] is True
    [entry] = _batch(replay)
    ada, nameless = entry["seats"][:2]
    assert ada["name"] == "Ada" and ada["stand_in"] == {
        "bot": "greedy", "moves": [[stood["deal"], stood["move"]]], "decisions": 1}
    assert nameless == {**nameless, "name": ""} and "stand_in" not in nameless
    assert "name" not in entry["seats"][2]  # a bot's seat
    assert (folder / "web" / "people" / "report" / "index.html").is_file()


def test_the_runs_page_and_the_matchs_page_open_the_peoples_replay(
        people_folder: tuple[Path, dict[str, Any]]) -> None:
    from tests.browser import ARGS, CHROMIUM, skip_without_chromium

    skip_without_chromium()
    from playwright import sync_api

    folder, stood = people_folder
    process, url = start_server("serve", str(folder), "--port", "0")
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}/")
            page.locator(f'tr[data-id="{MATCH}"] a.replay-link.people').click()
            _shows_the_replay(page, stood)
            page.goto(f"{url}/match?id={MATCH}")
            page.locator("#replay-link").click()
            _shows_the_replay(page, stood)
            _in_two_languages(browser, url, stood)
            browser.close()
            assert errors == []
    finally:
        stop(process)


def _in_two_languages(browser: Any, url: str, stood: dict[str, Any]) -> None:
    """The replay in Dutch on a desktop, in Turkish on a phone (390x844, nothing wider than
    the screen, the Turkish ranks); ARENA_SCREENSHOTS=DIR keeps both (docs/web.md's)."""
    keep = os.environ.get("ARENA_SCREENSHOTS")
    at = f"#match={MATCH}&deal=1&move={stood['move'] + 1}"
    for lang, size, name in (("nl", (1280, 800), "web-people-replay-nl.png"),
                             ("tr", (390, 844), "web-people-replay-phone-tr.png")):
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(f"{url}/report/people/?lang={lang}{at}")
        page.wait_for_selector("#replay:not([hidden]) #r-log li.current")
        stand_in = {"nl": "(invaller)", "tr": "(yedek)"}[lang]
        assert stand_in in page.locator("#r-log li.current").inner_text()
        assert page.evaluate("document.documentElement.lang") == lang
        if lang == "tr":
            ranks = {c[:-1] for c in page.locator("#r-seats .card").all_inner_texts()}
            assert not ranks & {"J", "Q"}, ranks
            width = page.evaluate("document.getElementById('replay').scrollWidth")
            assert width <= size[0], width
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / name))
        assert _axe(page) == [], lang
        page.close()


def _axe(page: Any) -> list[str]:
    """axe-core's serious and critical violations (tests/web/test_axe.py's check), none
    where the axe-playwright-python package is missing."""
    if importlib.util.find_spec("axe_playwright_python") is None:
        return []
    from tests.web.test_axe import _serious

    return _serious(page)


def _shows_the_replay(page: Any, stood: dict[str, Any]) -> None:
    """The replay viewer of the people's report, on the match, Ada named, her stand-in's
    move marked where it played."""
    page.wait_for_selector("#replay:not([hidden]) #r-seats .seat")
    assert page.url.split("#")[0].endswith("/report/people/")
    assert page.locator("#replay h2").inner_text() == f"Match {MATCH}"
    assert page.locator("#title").inner_text() == "People's tables"
    ada = page.locator('#r-seats .seat[data-seat="0"]').inner_text()
    assert "Ada" in ada and "partly played by greedy, a stand-in (1 decision)" in ada
    assert "Player 2" in page.locator('#r-seats .seat[data-seat="1"]').inner_text()
    page.evaluate(f"location.hash = 'match={MATCH}&deal=1&move={stood['move'] + 1}'")
    page.wait_for_selector("#r-log li.current")
    assert "(stand-in)" in page.locator("#r-log li.current").inner_text()
    assert page.locator("#r-log li", has_text="(stand-in)").count() == 1
    assert "partly played by a stand-in" in page.locator("#match-rows").inner_text()
