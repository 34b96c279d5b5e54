"""The page /enter in Chromium: a name registered, its token shown once, a bot submitted
with it and listed; a name of HTML refused as text, never as markup."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser, skip_without_chromium

from .test_enter import BOT, CONFIG, forget_entries

skip_without_chromium()
pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from tests.web.conftest import start_server, stop  # noqa: E402

__all__ = ["browser"]  # a fixture, used by name


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("enter")
    config = folder / "open.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    process, address = start_server("run", str(config), "--out", str(folder / "out"),
                                    "--serve", "0", "-j", "1", "-q")
    try:
        yield address
    finally:
        stop(process)
        forget_entries(folder / "out")


def test_a_stranger_registers_and_submits_from_the_browser(browser: Any, url: str,
                                                            tmp_path: Path) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/enter")
    page.fill("#name", "dora")
    page.click("#register-form button")
    page.wait_for_selector("#new-token")
    token = page.inner_text("#new-token")
    assert token.startswith(tuple("0123456789")) and "." in token
    assert page.input_value("#token") == token
    bot = tmp_path / "shedder.py"
    bot.write_bytes(BOT)
    page.fill("#label", "dora-bot")
    page.set_input_files("#file", str(bot))
    page.click("#submit-form button")
    page.wait_for_selector("#mine table.submissions tbody tr")
    assert "Submitted dora-bot version 1: received." in page.inner_text("#submit-result")
    assert page.locator("#mine tr[data-label='dora-bot']").count() == 1
    assert page.get_attribute("#own-page", "href") == "/entrant/dora"
    # a second entrant cannot take dora's label: the refusal is shown as one line
    other = browser.new_page()
    other.goto(url + "/enter")
    other.fill("#name", "eve")
    other.click("#register-form button")
    other.wait_for_selector("#new-token")
    other.fill("#label", "dora-bot")
    other.set_input_files("#file", str(bot))
    other.click("#submit-form button")
    other.wait_for_selector("#submit-result.problem")
    assert "belongs to another entrant" in other.inner_text("#submit-result")
    assert not errors, errors


def test_a_name_of_html_is_refused_as_text(browser: Any, url: str) -> None:
    page = browser.new_page()
    page.goto(url + "/enter")
    hostile = '<img src=x onerror="window.PWNED=1">'
    page.evaluate("document.getElementById('name').removeAttribute('pattern');"
                  "document.getElementById('name').removeAttribute('maxlength')")
    page.fill("#name", hostile)
    page.click("#register-form button")
    page.wait_for_selector("#register-result.problem")
    assert "is not 1-32 letters" in page.inner_text("#register-result")
    assert page.locator("#register-result img").count() == 0
    assert page.evaluate("window.PWNED === undefined")
