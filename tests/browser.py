"""What the browser tests share: Debian's Chromium, found and launched quietly.

A module that drives a browser calls :func:`skip_without_chromium` at import, so a machine
without Playwright or Chromium skips it with the reason printed, and imports the
``browser`` fixture from here.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("ARENA_CHROMIUM") or shutil.which("chromium") or \
    shutil.which("chromium-browser")
"""The browser to drive (``ARENA_CHROMIUM`` names another), or None."""

# Quiet on a closed network: no background requests of Chromium's own.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def skip_without_chromium() -> None:
    """Skip the calling test module, saying why, where there is no Playwright or Chromium."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                        "(pip install -e '.[test]')")
    if CHROMIUM is None:
        pytest.skip("no Chromium to drive: apt-get install chromium (as .ci/run does)",
                    allow_module_level=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium under Playwright, one for a test module."""
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def wait_until(page: Any, condition: str, timeout_ms: int = 30_000) -> None:
    """Wait for ``condition`` (a JavaScript expression) to hold on ``page``. The server's
    Content-Security-Policy forbids eval, which Playwright's ``wait_for_function`` uses for
    its predicate whenever the first check fails (a race); a function passed to
    ``evaluate`` is not evaluated by the page, so it polls there instead."""
    held = page.evaluate(
        "([timeout]) => new Promise((resolve) => { const end = Date.now() + timeout;"
        " const check = () => { if (" + condition + ") { resolve(true); }"
        " else if (Date.now() > end) { resolve(false); } else { setTimeout(check, 20); } };"
        " check(); })", [timeout_ms])
    assert held, f"{condition} did not hold within {timeout_ms} ms"
