"""The report in a real browser: Playwright driving Debian's Chromium (no browser download).

Skipped, with the reason shown, where Playwright or Chromium is missing (`.ci/run` installs
Chromium). Set ARENA_SCREENSHOTS=DIR to keep the screenshots (docs/img holds the ones
docs/report.md shows).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.records import read_records
from arena.report import replay_deals, write_report
from tests.browser import browser, skip_without_chromium

from .helpers import HOSTILE_LABEL

skip_without_chromium()

__all__ = ["browser"]  # a fixture, used by name


class Watched:
    """A page with every console error, page error and non-file request written down."""

    def __init__(self, browser: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1300, "height": 900})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning")
                     and self.errors.append(f"console {m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))
        self.page.on("request", lambda r: None if r.url.startswith("file://")
                     else self.requests.append(r.url))

    def open(self, folder: Path, fragment: str = "") -> Any:
        url = (folder / "report" / "index.html").resolve().as_uri() + fragment
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready]")
        if fragment:
            self.page.wait_for_selector("#r-seats .seat")
        return self.page


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    w = Watched(browser)
    yield w
    w.page.close()


def _record(folder: Path, match_id: str) -> dict[str, Any]:
    return next(r for r in read_records(folder / "records.jsonl") if r["match_id"] == match_id)


def _screenshot(page: Any, tmp_path: Path, name: str, *, full_page: bool = False) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=full_page)
    assert path.stat().st_size > 10_000  # a picture, not a blank page
    keep = os.environ.get("ARENA_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)


def test_opens_with_no_errors_and_no_network(watched: Watched, run_folder: Path,
                                             tmp_path: Path) -> None:
    page = watched.open(run_folder)
    assert page.locator("table.leaderboard tbody tr").count() == 5
    assert page.locator("table.crosstable tbody tr").count() == 5
    assert page.locator("svg.course-chart polyline").count() == 5
    assert page.locator("#match-count").inner_text() == "14 of 14 matches"
    assert "seed: 7" in page.locator("pre.config").inner_text()
    # a label is text, never markup
    shown = page.evaluate("""label => [...document.querySelectorAll('tr[data-label]')]
        .find(r => r.dataset.label === label).querySelector('td.bot').textContent""",
                          HOSTILE_LABEL)
    assert shown == HOSTILE_LABEL
    _screenshot(page, tmp_path, "report.png", full_page=True)
    page.locator("tr[data-match='report-test-t0-s1-p2'] a").click()
    page.wait_for_selector("#r-seats .seat")
    page.keyboard.press("PageDown")
    for _ in range(14):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#match=report-test-t0-s1-p2&deal=2&move=14"
    _screenshot(page, tmp_path, "replay.png")
    assert page.evaluate("window.PWNED") is None
    assert watched.errors == [] and watched.requests == []


def test_leaderboard_rows_equal_arena_ratings_json(watched: Watched, run_folder: Path) -> None:
    out = CliRunner().invoke(main, ["ratings", "--json", "--resamples", "200",
                                    str(run_folder / "records.jsonl")])
    assert out.exit_code == 0, out.output
    expected = []
    for b in json.loads(out.output)["bots"]:
        rank = str(b["rank"]) if b["rank_best"] == b["rank_worst"] else \
            f"{b['rank']} ({b['rank_best']}-{b['rank_worst']})"
        expected.append([rank, b["label"], f"{b['score']:.3f}",
                         f"{b['score_low']:.3f}-{b['score_high']:.3f}",
                         f"{b['mu']:.1f} ± {b['sigma']:.1f}", str(b["matches"]), str(b["deals"]),
                         str(b["faults"])])
    page = watched.open(run_folder)
    shown = page.eval_on_selector_all("table.leaderboard tbody tr", """rows => rows.map(r =>
        ["rank", "bot", "score", "interval", "mu", "matches", "deals", "faults"]
          .map(c => r.querySelector("td." + c).textContent))""")
    assert shown == expected
    assert watched.errors == []


def test_replay_stepped_to_its_end_shows_the_finishing_order_and_points(
        watched: Watched, run_folder: Path, tmp_path: Path) -> None:
    record = _record(run_folder, "zz-clumsy-forfeit")
    events = replay_deals(record)
    labels = [s["label"] for s in record["seats"]]
    page = watched.open(run_folder, "#match=zz-clumsy-forfeit&deal=1&move=0")
    for number, deal in enumerate(record["deals"]):
        assert page.locator("#r-result").is_hidden()
        # one click of the step button per event, from inside the page (fast)
        page.evaluate("n => { for (let i = 0; i < n; i++) document.getElementById('r-next')"
                      ".click(); }", len(events[number]))
        assert page.locator("#r-pos").inner_text() == \
            f"move {len(events[number])} of {len(events[number])}"
        finish = page.eval_on_selector_all("#r-result ol.finish li", """items => items.map(li =>
            [li.firstChild.textContent, li.querySelector('.points').textContent])""")
        points = [deal["points"][seat] for seat in deal["finish_order"]]
        assert finish == [[labels[seat], f" {p} point" + ("" if p == 1 else "s")]
                          for seat, p in zip(deal["finish_order"], points, strict=True)]
        # every hand is empty but the last player's (forfeited seats hold nothing)
        counts = page.locator("#r-seats .seat .count").all_inner_texts()
        assert sum(c != "0 cards" for c in counts) <= 1
        if number + 1 < len(record["deals"]):
            page.locator("#r-next").click()  # on to the next deal
            assert f"deal={number + 2}&move=0" in page.evaluate("location.hash")  # from 1
    assert watched.errors == []


def test_a_deep_link_opens_that_match_deal_and_move(watched: Watched, run_folder: Path,
                                                    tmp_path: Path) -> None:
    record = _record(run_folder, "zz-clumsy-pass")
    events = replay_deals(record)[2]
    fault = next(i for i, e in enumerate(events) if e.fault is not None)
    # deals count from 1 in links, as on the deal buttons and in arena show --deal
    page = watched.open(run_folder, f"#match=zz-clumsy-pass&deal=3&move={fault + 1}")
    assert page.locator(".deal-button.current").inner_text() == "deal 3"
    assert page.locator("#r-pos").inner_text() == f"move {fault + 1} of {len(events)}"
    status = page.locator("#r-status").inner_text()
    assert status.startswith(f"{record['seats'][events[fault].seat]['label']}: fault (illegal)")
    assert page.locator("#r-log li.current").get_attribute("value") == str(fault + 1)
    # the fault came when leading: the fault policy 'pass' plays the seat's lowest single
    page.keyboard.press("ArrowRight")
    assert events[fault + 1].seat == events[fault].seat and events[fault + 1].text != "pass"
    assert page.locator("#r-status").inner_text().startswith(
        f"{record['seats'][events[fault].seat]['label']} plays {_shown(events[fault + 1].text)}")
    assert watched.errors == []


def test_keyboard_steps_plays_and_changes_deal(watched: Watched, run_folder: Path) -> None:
    record = _record(run_folder, "zz-clumsy-pass")
    events = replay_deals(record)
    first = record["seats"][events[0][0].seat]["label"]
    page = watched.open(run_folder, "#match=zz-clumsy-pass&deal=1&move=0")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.locator("#r-pos").inner_text() == f"move 3 of {len(events[0])}"
    assert page.evaluate("location.hash").endswith("deal=1&move=3")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#r-pos").inner_text() == f"move 1 of {len(events[0])}"
    assert page.locator("#r-status").inner_text().startswith(
        f"{first} plays {_shown(events[0][0].text)}")
    page.keyboard.press("End")
    assert page.locator("#r-result").is_visible()
    page.keyboard.press("PageDown")
    assert page.locator(".deal-button.current").inner_text() == "deal 2"
    page.keyboard.press(" ")  # play
    page.wait_for_function("location.hash.endsWith('move=3')")
    page.keyboard.press(" ")  # pause
    stopped = page.evaluate("location.hash")
    page.wait_for_timeout(800)
    assert page.evaluate("location.hash") == stopped
    page.keyboard.press("Escape")
    assert page.locator("#replay").is_hidden()
    assert watched.errors == []


def test_the_replay_writes_cards_in_one_notation_and_the_leaderboard_fits_1280_px(
        watched: Watched, run_folder: Path) -> None:
    """The move list, the status line, the trick and the hands all write a card as 10♥ (as
    `arena show` does), never as the protocol's TH; at 1,280 px the leaderboard is whole,
    not cut off on the right of its box."""
    record = _record(run_folder, "zz-clumsy-pass")
    events = replay_deals(record)[0]
    watched.page.set_viewport_size({"width": 1280, "height": 900})
    page = watched.open(run_folder)
    board = page.evaluate("""() => { const t = document.querySelector('table.leaderboard');
        const box = t.closest('.body'); return [t.getBoundingClientRect().right,
        box.getBoundingClientRect().right, box.scrollWidth, box.clientWidth]; }""")
    assert board[0] <= board[1] and board[2] <= board[3], board
    page = watched.open(run_folder, "#match=zz-clumsy-pass&deal=1&move=9")
    items = page.eval_on_selector_all("#r-log li", "items => items.map(li => [li.value, "
                                      "li.textContent])")
    assert len(items) > 9
    log = [text for _, text in items]
    for value, text in items:
        event = events[value - 1]
        if event.fault is None:
            shown = f"{record['seats'][event.seat]['label']}:{_shown(event.text)}"
            assert text.replace(" ", "").startswith(shown.replace(" ", "")), (text, event.text)
    words = " ".join(log + page.locator("#r-status, #r-trick, #r-seats").all_inner_texts())
    protocol = [w for w in words.split() if len(w) == 2 and w[0] in "3456789TJQKA2"
                and w[1] in "SHDC"]
    assert protocol == [] and "♥" in words + "♦♠♣" and watched.errors == []


def _shown(text: str) -> str:
    """A move as the page writes it: the notation of `arena show`."""
    from arena.cli._show import cards_text

    return cards_text(text).plain


def test_the_match_list_filters_by_bot(watched: Watched, run_folder: Path) -> None:
    page = watched.open(run_folder)
    page.select_option("#match-bot", HOSTILE_LABEL)
    assert page.locator("#match-count").inner_text() == "2 of 14 matches"
    ids = page.locator("#match-rows tr").evaluate_all("rows => rows.map(r => r.dataset.match)")
    assert ids == ["zz-clumsy-forfeit", "zz-clumsy-pass"]
    page.fill("#match-search", "pass")
    assert page.locator("#match-count").inner_text() == "1 of 14 matches"
    assert watched.errors == []


def test_a_deep_link_to_an_unknown_match_says_so(watched: Watched, run_folder: Path) -> None:
    page = watched.open(run_folder)
    page.evaluate("location.hash = 'match=no-such-match&deal=1&move=0'")
    page.wait_for_selector("#replay .problem")
    assert page.locator("#replay .problem").inner_text() == "no match no-such-match in this report"
    page.keyboard.press("Escape")  # no replay open: the key does nothing, and nothing breaks
    page.locator("#replay button").click()
    assert page.locator("#replay").is_hidden()
    assert watched.errors == []


def test_a_match_listed_without_its_replay_says_where_it_is_replayed(
        watched: Watched, run_folder: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.report._batches as build

    monkeypatch.setattr(build, "BATCH", 4)
    shutil.copy(run_folder / "records.jsonl", tmp_path / "records.jsonl")
    write_report(tmp_path, resamples=0, replays=6)  # batches 2 and 3 replayed
    ids = [r["match_id"] for r in read_records(tmp_path / "records.jsonl")]
    page = watched.open(tmp_path)
    assert page.locator("#match-count").inner_text() == "14 of 14 matches"
    page.evaluate(f"location.hash = 'match={ids[0]}&deal=1&move=0'")
    page.wait_for_selector("#replay .problem")
    assert page.locator("#replay .problem").inner_text() == (
        f"the replay of {ids[0]} is not in this report: it replays the latest 6 matches "
        "(arena show replays any match of the records)")
    page.locator("#replay button").click()
    page.evaluate(f"location.hash = 'match={ids[8]}&deal=1&move=0'")
    page.wait_for_selector("#r-seats .seat")
    assert watched.errors == []


def test_the_report_speaks_the_language_of_lang_and_its_menu(
        watched: Watched, run_folder: Path, tmp_path: Path) -> None:
    """``arena report --lang tr``: the headings, the replay's words and the roles in Turkish,
    the cards with the Turkish rank letters (V K P for J Q K); ``?lang=pl`` and the language
    menu choose another language, on the file system too."""
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(run_folder / "records.jsonl", folder / "records.jsonl")
    out = CliRunner().invoke(main, ["report", str(folder), "--lang", "tr", "-q"])
    assert out.exit_code == 0, out.output
    record = next(read_records(folder / "records.jsonl"))
    page = watched.open(folder, f"#match={record['match_id']}&deal=2&move=0")
    assert page.locator("#leaderboard h2").inner_text() == "Sıralama"
    assert page.evaluate("document.documentElement.lang") == "tr"
    assert page.locator("#r-pos").inner_text().startswith("hamle 0 / ")
    heads = " ".join(page.locator("#r-seats .seat-head").all_inner_texts())
    assert "koltuk 0" in heads and "Başkan" in heads, heads
    ranks = {c[:-1] for c in page.locator("#r-seats .hand .card").all_inner_texts()}
    assert ranks & {"V", "K", "P"} and not ranks & {"J", "Q"}, ranks
    shown = {page.locator(f"nav.i18n-menu a[data-lang='{code}']").inner_text()
             for code in ("en", "pl")}
    assert shown == {"English", "Polski"}
    page.goto((folder / "report" / "index.html").resolve().as_uri() + "?lang=pl")
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#leaderboard h2").inner_text() == "Ranking"
    assert page.locator("#matches th").first.inner_text() == "partia"
    assert watched.errors == [] and watched.requests == []
