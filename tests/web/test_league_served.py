"""A served finished run shows the numbers of its files, and a league its own leaderboard.

``/api/standings`` of ``arena serve OUT`` is ``OUT/standings.json`` byte for byte (one
computation, one spelling); the served report's leaderboard is ``arena ratings``'; the run's
page ranks a league's entrants by strength, marks anchors and retired entrants, shows the
stopping rule's state and counts the run's matches in its header.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from click.testing import CliRunner

from arena.cli import main
from arena.ratings import finite, rate_files
from tests.league_run import run_league

from .conftest import CONFIG, start_server, stop
from .serving import serving


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_league(tmp_path_factory.mktemp("league"))


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A round robin written by ``arena run`` (its standings.json with it)."""
    folder = tmp_path_factory.mktemp("plain")
    config = folder / "plain.yaml"
    config.write_text(json.dumps(CONFIG), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(folder / "out"),
                                       "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    return folder / "out"


def _served(out: Path) -> tuple[bytes, dict[str, Any]]:
    """``/api/standings``'s bytes, and the served report's leaderboard once it is built."""

    async def main() -> tuple[bytes, dict[str, Any]]:
        async with serving(out) as url, httpx.AsyncClient(base_url=url, timeout=60) as client:
            answer = await client.get("/api/standings")
            assert answer.status_code == 200, answer.text
            summary = out / "web" / "report" / "data" / "summary.js"
            await client.get("/report/")  # asked for: built (no sooner)
            with trio.fail_after(120):
                while not summary.exists():
                    await trio.sleep(0.1)
            text = summary.read_text(encoding="utf-8")
            board = json.loads(text[text.index("=") + 1:text.rindex(";")])["leaderboard"]
            return answer.content, board

    return trio.run(main)


@pytest.mark.parametrize("run", ["league", "plain"])
def test_a_served_finished_run_shows_the_numbers_of_its_files(
        run: str, request: pytest.FixtureRequest) -> None:
    out: Path = request.getfixturevalue(run)
    served, board = _served(out)
    assert served == (out / "standings.json").read_bytes()
    rated = CliRunner().invoke(main, ["ratings", str(out), "--json"])
    assert rated.exit_code == 0, rated.output
    assert board == json.loads(rated.output)
    assert board == json.loads(json.dumps(finite(rate_files(out).to_dict())))


@pytest.fixture(scope="module")
def page(league: Path) -> Iterator[Any]:
    """The served league's page in Chromium, its standings drawn."""
    from tests.browser import ARGS, CHROMIUM, skip_without_chromium

    skip_without_chromium()
    from playwright import sync_api

    process, url = start_server("serve", str(league), "--port", "0")
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            shown = browser.new_page(viewport={"width": 1300, "height": 900})
            errors: list[str] = []
            shown.on("pageerror", lambda e: errors.append(str(e)))
            shown.goto(url + "/")
            shown.wait_for_selector("table.standings.league tbody tr", timeout=60_000)
            shown.errors = errors
            shown.opener = browser
            yield shown
            browser.close()
    finally:
        stop(process)


def test_the_page_ranks_a_league_by_its_strengths(page: Any, league: Path) -> None:
    document = json.loads((league / "standings.json").read_text(encoding="utf-8"))
    entrants = document["ratings"]["league"]["entrants"]
    labels = page.locator("table.standings.league td.bot").all_inner_texts()
    assert labels == [line["label"] for line in entrants]
    retired = page.locator("table.standings.league tr.retired td.bot").all_inner_texts()
    assert set(retired) == {"lowest", "highest"}
    greedy = page.locator("table.standings.league tr[data-label='greedy']").inner_text()
    assert "anchor" in greedy
    stop_line = page.inner_text("#league-stop")
    assert "P(order of top 2)" in stop_line and "stops at 0.6" in stop_line
    assert page.locator("table.deal-scores tbody tr").count() == len(entrants)
    assert "Mean deal scores" in page.inner_text("#standings")
    assert not page.errors, page.errors


def test_the_header_counts_the_runs_matches(page: Any, league: Path) -> None:
    recorded = sum(1 for _ in (league / "records.jsonl").open(encoding="utf-8"))
    deadline = time.monotonic() + 30
    while f"({recorded} matches recorded)" not in page.inner_text("#progress"):
        assert time.monotonic() < deadline, page.inner_text("#progress")
        page.wait_for_timeout(200)


def test_the_served_report_shows_the_leagues_board(page: Any, league: Path) -> None:
    report = page.opener.new_page(viewport={"width": 1300, "height": 900})
    report.goto(page.url + "report/")
    report.wait_for_selector("body[data-ready='1']", timeout=60_000)
    labels = report.locator("table.leaderboard.league td.bot").all_inner_texts()
    document = json.loads((league / "standings.json").read_text(encoding="utf-8"))
    assert labels == [line["label"] for line in document["ratings"]["league"]["entrants"]]
    assert "P(order of top 2)" in report.inner_text("#leaderboard")
    assert report.locator("table.leaderboard.deal-scores tbody tr").count() == len(labels)
    report.close()
