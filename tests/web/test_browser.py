"""The served run in Chromium: `arena run --serve` of a small run of slow bots.

The leaderboard shows and updates without a reload while matches finish; a spectator of a
match in play hears only public events (checked against the match's record afterwards);
no console error, no request outside the server. With ARENA_WEB_SHOTS=<folder> it also
saves the screenshots docs/web.md shows.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.records import read_records
from tests.browser import browser, skip_without_chromium, wait_until

from .conftest import start_server, stop
from .frames import check_frames

skip_without_chromium()

__all__ = ["browser"]  # a fixture, used by name

pytestmark = pytest.mark.timeout(280)

# Monte Carlo bots that think 25 ms by their clock on each decision (a playout budget is
# over in a few milliseconds on a fast engine, and a match then ends before a page opens):
# a match lasts several seconds whatever the machine, long enough to watch.
SLOW_RUN = """\
name: weblive
seed: 4242
players: 4
format: {type: round_robin}
duplicate: true
repeat: 40
rules: {rounds: 10}
bots:
  - {name: mc, label: mc-a, params: {playouts: 1000000, share: 0.5, move_ms: 50}}
  - {name: mc, label: mc-b, params: {playouts: 1000000, share: 0.5, move_ms: 50}}
  - greedy
  - lowest
limits: {move_ms: 3000}
"""



@pytest.fixture(scope="module")
def live_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``arena run --serve`` of the slow run: its URL and its folder, while it runs."""
    folder = tmp_path_factory.mktemp("liverun")
    config = folder / "weblive.yaml"
    config.write_text(SLOW_RUN)
    out = folder / "out"
    process, url = start_server("run", str(config), "--out", str(out), "--serve", "0",
                                "-j", "2", "-q")
    try:
        yield url, out
    finally:
        stop(process)


class Watched:
    """A page with its console errors, its requests and its socket's frames written down."""

    def __init__(self, browser: Any, origin: str) -> None:
        self.page = browser.new_page(viewport={"width": 1300, "height": 900})
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.page.on("console", lambda m: m.type in ("error", "warning")
                     and self.errors.append(f"console {m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        # a load the page's own navigation cancelled (a favicon still coming) is no fault
        self.page.on("requestfailed", lambda r: r.failure == "net::ERR_ABORTED"
                     or self.errors.append(f"failed: {r.url} ({r.failure})"))
        self.page.on("request", lambda r: None if r.url.startswith(origin)
                     else self.outside.append(r.url))
        self.page.on("response", lambda r: r.status >= 400
                     and self.errors.append(f"status {r.status}: {r.url}"))
        self.page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))


def shoot(page: Any, name: str) -> None:
    folder = os.environ.get("ARENA_WEB_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=False)


def test_the_leaderboard_updates_without_a_reload(browser: Any,
                                                   live_run: tuple[str, Path]) -> None:
    url, _ = live_run
    w = Watched(browser, url)
    page = w.page
    page.goto(url + "/")
    page.wait_for_selector("body[data-connected='1']", timeout=60_000)
    page.wait_for_selector("table.standings", timeout=120_000)
    page.evaluate("window.__same_page = true")
    before = int(page.get_attribute("table.standings", "data-matches") or 0)
    wait_until(
        page, f"Number(document.querySelector('table.standings').dataset.matches) > {before}",
        timeout_ms=120_000)
    assert page.evaluate("window.__same_page === true")  # no reload, no navigation
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 4
    assert set(page.locator("table.standings td.bot").all_inner_texts()) == {
        "mc-a", "mc-b", "greedy", "lowest"}
    page.wait_for_selector("#report-frame", state="attached")
    assert "null" not in page.inner_text("main") and "undefined" not in page.inner_text("main")
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "web-live.png")
    assert not w.errors, w.errors
    assert not w.outside, w.outside
    page.close()


def test_a_spectator_sees_no_card_before_it_is_played(browser: Any,
                                                      live_run: tuple[str, Path]) -> None:
    url, out = live_run
    w = Watched(browser, url)
    page = w.page
    page.goto(url + "/")
    page.wait_for_selector("body[data-connected='1']", timeout=60_000)
    for _ in range(40):  # a match that ends before the page opens: watch the next one
        page.wait_for_selector("a.match-link", timeout=120_000)
        match_id = page.evaluate("""fetch('/api/matches').then((r) => r.json()).then((d) =>
            (d.matches.find((m) => m.state === 'playing') || {}).id || null)""")
        if match_id is None:
            page.wait_for_timeout(300)
            continue
        watcher = Watched(browser, url)
        watcher.page.goto(f"{url}/match?id={match_id}")
        watcher.page.wait_for_selector("body[data-events]", timeout=30_000)
        wait_until(watcher.page, "Number(document.body.dataset.events) > 3 || "
                   "document.body.dataset.recorded === '1'", timeout_ms=60_000)
        if watcher.page.get_attribute("body", "data-recorded") != "1":
            break
        watcher.page.close()
    else:
        pytest.fail("every match ended before its page opened")
    shoot(watcher.page, "web-match.png")
    shown: set[str] = set()
    deadline = time.monotonic() + 150
    while watcher.page.get_attribute("body", "data-recorded") != "1":
        assert time.monotonic() < deadline, "the match was never recorded"
        shown |= set(watcher.page.locator(".card").all_inner_texts())
        watcher.page.wait_for_timeout(150)
    shown |= set(watcher.page.locator(".card").all_inner_texts())  # the log keeps its moves
    record = next(r for r in read_records(out / "records.jsonl") if r["match_id"] == match_id)
    check_frames(watcher.frames, record, match_id)
    played = {chip(c) for deal in record["deals"] for m in deal["moves"] if m != "pass"
              for c in m.split("=")[-1].split()}
    assert shown and shown <= played
    for watched in (w, watcher):
        assert not watched.errors, watched.errors
        assert not watched.outside, watched.outside
    watcher.page.close()
    page.close()


def chip(card: str) -> str:
    """A card as the page shows it (10 for T, the suit's symbol)."""
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    rank = card[:-1]
    return ("10" if rank == "T" else rank) + suits[card[-1]]


def test_the_served_report_runs_under_the_servers_csp(browser: Any,
                                                      live_run: tuple[str, Path]) -> None:
    """The report's pages, served with the server's Content-Security-Policy (no inline
    style attribute), draw their coloured cells with no console error."""
    url, _ = live_run
    watched = Watched(browser, url)
    page = watched.page
    deadline = time.monotonic() + 120
    while True:  # until its first build, /report/ says it is being built
        page.goto(url + "/report/")
        if page.locator("table.crosstable td[title]").count():
            break
        assert time.monotonic() < deadline, "the report was never built"
        time.sleep(2)
    background = page.eval_on_selector("table.crosstable td[title]",
                                       "td => getComputedStyle(td).backgroundColor")
    assert background not in ("", "rgba(0, 0, 0, 0)"), background
    assert page.locator(".legend i").count() > 0
    assert watched.errors == [] and watched.outside == []
