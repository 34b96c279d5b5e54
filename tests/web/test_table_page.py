"""The seat page as a person on a phone uses it: the Turkish page at 390x844, reached by the
table's one link, a whole match played by the keyboard alone (cards picked with Tab and
Enter, then Play), an illegal pick refused with the rules' reason.

Playwright drives Debian's Chromium; skipped, with the reason shown, where Playwright or
Chromium is missing. ARENA_SCREENSHOTS=DIR keeps the phone's screenshots.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from arena.records import read_records
from tests.browser import browser, skip_without_chromium, wait_until
from tests.web.conftest import start_server, stop
from tests.web.test_table_socket import read_table

skip_without_chromium()

__all__ = ["browser"]  # a fixture, used by name

TURKISH_RANKS = {*"3456789", "10", "V", "K", "P", "A", "2", "\u2605"}


def _press_on(page: Any, selector: str, key: str = "Enter") -> None:
    """Tab through the page until ``selector`` has the focus, then press ``key``."""
    for _ in range(400):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            page.keyboard.press(key)
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _decide(page: Any, refused: list[str]) -> tuple[int, str] | None:
    """One decision by the keyboard: the exchange's first cards, or the first legal move's
    cards then Play (or Pass). At the first move, an illegal pick is tried first."""
    if page.locator("#give").is_visible():
        count = int(page.locator("#give").get_attribute("data-count") or 0)
        for index in range(count):
            _press_on(page, f"#hand button:nth-child({index + 1})")
        asks = page.evaluate("document.body.dataset.asks")
        _press_on(page, "#give")
        _wait(page, asks)
        return None
    if not (page.locator("#play").is_visible() and page.locator("#moves button").count()):
        return None
    hand = page.eval_on_selector_all("#hand button", "bs => bs.map(b => b.dataset.card)")
    others = [i for i, c in enumerate(hand) if c != "JK" and c[:-1] != hand[0][:-1]]
    if not refused and others:
        # two cards of two ranks, no joker: no move of the rules
        _press_on(page, "#hand button:first-child")
        _press_on(page, f"#hand button:nth-child({others[-1] + 1})")
        _press_on(page, "#play")
        page.wait_for_selector("#error:not([hidden])")
        refused.append(page.locator("#error").inner_text())
        page.wait_for_selector("#play:not([hidden])")
    if not page.locator("#moves button").count():  # redrawn since: the loop asks again
        return None
    move = page.locator("#moves button").first.get_attribute("data-move") or ""
    deal = page.locator("#deals li").count()
    asks = page.evaluate("document.body.dataset.asks")
    if move == "pass":
        _press_on(page, "#pass")
    else:
        used: dict[str, int] = {}
        for card in ("JK" if c.startswith("JK") else c for c in move.split()):
            nth = used.get(card, 0)
            used[card] = nth + 1
            index = [i for i, c in enumerate(hand) if c == card][nth]
            _press_on(page, f"#hand button:nth-child({index + 1})")
        _press_on(page, "#play")
        if page.locator("#choices").is_visible():
            _press_on(page, f'#choices button[data-move="{move}"]')
    _wait(page, asks)
    return deal, move


def _wait(page: Any, asks: str) -> None:
    wait_until(page, "(document.getElementById('play').hidden && "
               "document.getElementById('give').hidden) || "
               f"document.body.dataset.asks !== {json.dumps(asks)}")


def test_a_turkish_phone_plays_a_match_by_keyboard(browser: Any, tmp_path: Path) -> None:
    shots = os.environ.get("ARENA_SCREENSHOTS")
    process, url = start_server("serve", str(tmp_path), "--port", "0", "--table", "--preset",
                                "runs", "--bots", "greedy", "greedy", "mc", "--people", "1",
                                "--rounds", "2")
    try:
        link, _ = read_table(process, 1)
        assert link.startswith(url + "/t/")
        context = browser.new_context(locale="tr-TR", viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(link + "?lang=tr")
        page.wait_for_selector("#hand button.card")
        # Turkish words and Turkish ranks: the king is P (papaz), the queen K (kız).
        assert page.locator("#hand-h").inner_text() == "Elinizdeki kartlar"
        ranks = set(page.eval_on_selector_all("#hand .rank", "els => els.map(e => e.textContent)"))
        assert ranks <= TURKISH_RANKS, ranks
        made: list[tuple[int, str]] = []
        refused: list[str] = []
        shot = False
        end = time.monotonic() + 300
        while not page.locator("#match-result").inner_text().strip():
            assert time.monotonic() < end, page.locator("#status").inner_text()
            if shots and not shot and page.locator("#play").is_visible():
                page.screenshot(path=str(Path(shots) / "web-seat-phone-tr.png"), full_page=True)
                shot = True
            if page.locator("#moves-section").is_visible():
                assert page.get_by_role("button", name="Pas", exact=True).count() in (0, 2)
                turn_shown = time.monotonic() + 5  # the title follows the moves' redraw
                while (not page.title().startswith("\u25b6 Sıra sizde")
                       and page.locator("#moves-section").is_visible()):
                    assert time.monotonic() < turn_shown, page.title()
                    time.sleep(0.05)
            played = _decide(page, refused)
            if played is not None:
                made.append(played)
            else:
                time.sleep(0.05)
            # never wider than the phone
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if shots:
            page.screenshot(path=str(Path(shots) / "web-seat-phone-tr-end.png"), full_page=True)
        # the rules' reason in Turkish (two cards of two ranks are no play), not in English
        assert refused and all(r.startswith("Bu kartlar bir hamle oluşturmuyor: ")
                               for r in refused), refused
        assert "Son sonuç" in page.locator("#match-result").inner_text()
        time.sleep(0.5)
        record = next(iter(read_records(tmp_path / "tables" / "records.jsonl")))
        assert [(d["deal"], m) for d in record["deals"]
                for s, m in zip(d["movers"], d["moves"], strict=True) if s == 0] == made
        assert not any(d["faults"] for d in record["deals"])
        assert errors == []
        context.close()
    finally:
        stop(process)


def test_a_person_who_leaves_is_played_by_the_stand_in_and_comes_back(
        browser: Any, tmp_path: Path) -> None:
    process, url = start_server("serve", str(tmp_path), "--port", "0", "--table", "--preset",
                                "runs", "--bots", "greedy", "random", "--people", "2",
                                "--rounds", "1", "--absence-s", "8")
    try:
        link, _ = read_table(process, 2)
        assert link.startswith(url + "/t/")
        ann_context = browser.new_context(viewport={"width": 1000, "height": 900})
        bo_context = browser.new_context(viewport={"width": 1000, "height": 900})
        ann, bo = ann_context.new_page(), bo_context.new_page()
        ann.goto(link)
        bo.goto(link)
        ann.wait_for_selector("#hand button.card")
        assert ann.url.split("?")[0].endswith("/0") and bo.url.split("?")[0].endswith("/1")
        ann.close()  # Ann leaves: after 8 s greedy plays for her, once the deal comes to her
        end = time.monotonic() + 60  # (Bo plays meanwhile: the deal's leader may be him)
        while not bo.evaluate("document.getElementById('log').textContent"
                              ".includes('greedy plays for Player 1')"):
            assert time.monotonic() < end, "greedy never played for Player 1"
            if _decide(bo, ["no illegal pick"]) is None:
                time.sleep(0.05)
        ann = ann_context.new_page()
        ann.goto(link)  # back through the table's link: her seat, by its cookie
        assert ann.url.split("?")[0].endswith("/0")
        ann.wait_for_selector("#seats li.me .stand-in")
        assert "greedy played for them" in ann.locator("#seats li.me").inner_text()
        end = time.monotonic() + 120
        while not (ann.locator("#match-result").inner_text().strip()
                   and bo.locator("#match-result").inner_text().strip()):
            assert time.monotonic() < end, "the match did not end"
            acted = False
            for page in (ann, bo):
                acted = _decide(page, ["no illegal pick"]) is not None or acted
            if not acted:
                time.sleep(0.05)
        for page in (ann, bo):
            assert "partly played by a stand-in: Player 1" in page.locator(
                "#match-result").inner_text()
        time.sleep(0.5)
        record = next(iter(read_records(tmp_path / "tables" / "records.jsonl")))
        # (Bo's seat may have had the stand-in too, if Bo's page took 8 s to open.)
        assert record["seats"][0]["stand_in"]["bot"] == "greedy"
        assert not any(d["faults"] for d in record["deals"])
        ann_context.close()
        bo_context.close()
    finally:
        stop(process)
