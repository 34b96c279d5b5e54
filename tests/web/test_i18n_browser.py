"""The languages in a real browser, against ``arena serve`` on 127.0.0.1: the rules page in
the browser's language, the menu's choice remembered, i18n.js writing cards as the server
does, under the page's strict CSP with no console error and no request elsewhere.

Skipped, with the reason shown, where Playwright or Chromium is missing. Set
ARENA_SCREENSHOTS=DIR to keep the screenshots (docs/img holds the one docs/web.md shows).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser, skip_without_chromium, wait_until

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from arena.web._i18n import card_text, move_text, t

skip_without_chromium()

__all__ = ["browser"]  # a fixture, used by name


class Watched:
    """A browser context in one locale, with every console error and foreign request noted."""

    def __init__(self, browser: Any, served: str, locale: str) -> None:
        self.served = served
        self.context = browser.new_context(locale=locale)
        self.page = self.context.new_page()
        self.page.set_viewport_size({"width": 1100, "height": 900})
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning")
                     and self.errors.append(f"console {m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        # a load the page's own navigation cancelled (a favicon still coming) is no fault
        self.page.on("requestfailed", lambda r: r.failure == "net::ERR_ABORTED"
                     or self.errors.append(f"failed: {r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400
                     and self.errors.append(f"HTTP {r.status}: {r.url}"))
        self.page.on("request", lambda r: None if r.url.startswith(served)
                     else self.errors.append(f"request outside the server: {r.url}"))

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def dutch(browser: Any, served: str) -> Iterator[Watched]:
    watched = Watched(browser, served, "nl-NL")
    yield watched
    watched.close()


def _screenshot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000  # a picture, not a blank page
    keep = os.environ.get("ARENA_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)


def test_the_rules_page_is_dutch_for_a_dutch_browser(dutch: Watched, tmp_path: Path) -> None:
    page = dutch.page
    page.goto(f"{dutch.served}/rules")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert page.locator("h1").inner_text() == "De regels van President"
    assert page.locator("#cards strong").inner_text() == "3 4 5 6 7 8 9 10 B V H A 2"
    assert "H-A-2" in page.locator("#runs").inner_text()
    assert page.locator(".i18n-menu [aria-current=true]").inner_text() == "Nederlands"
    assert page.locator(".site-menu [data-i18n='menu.rules']").inner_text() == "Regels"
    _screenshot(page, tmp_path, "web-rules-nl.png")
    assert dutch.errors == []


def test_i18n_js_writes_cards_moves_and_messages_as_the_server_does(dutch: Watched) -> None:
    page = dutch.page
    page.goto(f"{dutch.served}/rules")
    wait_until(page, "window.arenaI18n !== undefined")
    shown = page.evaluate("""() => [arenaI18n.lang, arenaI18n.cardText("KH"),
        arenaI18n.cardText("QS"), arenaI18n.cardText("JK"), arenaI18n.moveText("JK=7H 8H 9H"),
        arenaI18n.moveText("pass"), t("term.deal", {number: 2, total: 5})]""")
    assert shown == ["nl", card_text("nl", "KH"), card_text("nl", "QS"), card_text("nl", "JK"),
                     move_text("nl", "JK=7H 8H 9H"), move_text("nl", "pass"),
                     t("nl", "term.deal", number=2, total=5)]
    assert shown[1] == "H♥"
    assert dutch.errors == []
    assert page.evaluate("() => [t('no.such.key'), t('no.such.key', {a: 1})]") == [
        "no.such.key", "no.such.key"]
    assert dutch.errors == ['console warning: arena i18n: no message "no.such.key" in nl']


def test_the_menu_sets_the_language_for_every_later_page(dutch: Watched) -> None:
    page = dutch.page
    page.goto(f"{dutch.served}/rules")
    page.get_by_role("link", name="Türkçe").click()
    page.wait_for_url("**/rules?lang=tr")
    assert page.locator("h1").inner_text() == "Başkan oyununun kuralları"
    assert "P-A-2" in page.locator("#runs").inner_text()
    cookies = {c["name"]: c["value"] for c in dutch.context.cookies()}
    assert cookies["lang"] == "tr"
    page.goto(f"{dutch.served}/rules")  # no ?lang=: the cookie beats the Dutch browser
    assert page.locator("html").get_attribute("lang") == "tr"
    # Without an inlined catalog, i18n.js fetches /api/messages in the cookie's language.
    page.evaluate("() => { document.getElementById('i18n-messages').remove();"
                  " delete window.arenaI18n; }")
    page.evaluate("() => document.addEventListener('arena-i18n-ready',"
                  " (e) => { window.readyLang = e.detail.lang; })")
    page.add_script_tag(url="/static/i18n.js")
    wait_until(page, "window.readyLang === 'tr'")
    assert page.evaluate("() => arenaI18n.ready.then(() => [arenaI18n.lang, t('move.pass')])"
                         ) == ["tr", "Pas"]
    assert dutch.errors == []


