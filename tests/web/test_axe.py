"""axe-core (the ``axe-playwright-python`` package, which bundles it) on the people's pages:
the seat page, ``/tables``, a table's spectator page and ``/``, each in two languages, on a
desktop and at 390x844: no serious or critical violation.

Skipped, with the reason shown, where Playwright, Chromium or the package is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser, skip_without_chromium, wait_until
from tests.web.conftest import start_server, stop
from tests.web.test_table_socket import read_table

skip_without_chromium()
pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is not installed "
                    "(pip install -e '.[test]')")

__all__ = ["browser"]  # a fixture, used by name

VIEWPORTS = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server with one table of two people and two bots: its address and a seat's link."""
    out = tmp_path_factory.mktemp("axe")
    process, url = start_server("serve", str(out), "--port", "0", "--table", "--preset", "runs",
                                "--bots", "greedy", "mc", "--people", "2", "--stand-in", "none")
    try:
        _, seats = read_table(process, 2)
        yield url, seats[0]
    finally:
        stop(process)


def _serious(page: Any) -> list[str]:
    """axe's serious and critical violations on the page, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{[(n['target'], n.get('failureSummary', '')[-120:]) for n in v['nodes']][:4]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_peoples_pages_have_no_serious_axe_violation(browser: Any, table: tuple[str, str],
                                                         lang: str, size: str) -> None:
    url, link = table
    context = browser.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    found: dict[str, list[str]] = {}
    try:
        page.goto(f"{link}&lang={lang}")
        page.wait_for_selector("#seats li")
        wait_until(page, "document.getElementById('status').textContent.trim() !== ''")
        found["seat"] = _serious(page)
        match_id = "table-" + link.split("/t/")[1].split("/")[0]
        for name, path, ready in (("tables", "/tables", "#seats select"),
                                  ("spectator", f"/match?id={match_id}", "#table tbody tr"),
                                  ("index", "/", "main")):
            page.goto(f"{url}{path}{'&' if '?' in path else '?'}lang={lang}")
            page.wait_for_selector(ready)
            found[name] = _serious(page)
    finally:
        context.close()
    assert found == {name: [] for name in found}, found


def test_axe_finds_what_it_should(browser: Any, tmp_path: Path) -> None:
    """The check can fail: a button without a name is a critical violation."""
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><html lang='en'><title>x</title><main>"
                         "<button></button></main></html>")
        assert any(line.startswith("button-name") for line in _serious(page))
    finally:
        page.close()
