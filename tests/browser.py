"""What the browser tests share: Debian's Chromium, found and launched quietly.

A module that drives a browser reads ``CHROMIUM`` and ``ARGS`` from here and calls
:func:`skip_without_chromium` at import, so a machine without Chromium skips it with the
reason printed.
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("ARENA_CHROMIUM") or shutil.which("chromium") or \
    shutil.which("chromium-browser")
"""The browser to drive (``ARENA_CHROMIUM`` names another), or None."""

# Quiet on a closed network: no background requests of Chromium's own.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def skip_without_chromium() -> None:
    """Skip the calling test module, saying why, where there is no Chromium."""
    if CHROMIUM is None:
        pytest.skip("no Chromium to drive: apt-get install chromium (as .ci/run does)",
                    allow_module_level=True)
