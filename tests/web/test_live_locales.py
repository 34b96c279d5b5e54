"""The live pages' messages: every key they use, in all six languages, same placeholders."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "arena" / "web"
LANGUAGES = ("en", "nl", "da", "pl", "no", "tr")
PAGES = ("live.html", "match.html", "building.html", "live.js", "match.js", "common.js")


def used_keys() -> set[str]:
    found: set[str] = set()
    for name in PAGES:
        text = (WEB / "static" / name).read_text(encoding="utf-8")
        found |= set(re.findall(r"""["'](live\.[a-z_]+)["']""", text))
    return found


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(
        (WEB / "locales" / lang / "live.json").read_text(encoding="utf-8"))
    return data


def test_the_pages_use_keys() -> None:
    assert {"live.title", "live.standings", "live.exchange"} <= used_keys()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_is_there_with_its_placeholders(lang: str) -> None:
    english, here = catalog("en"), catalog(lang)
    assert used_keys() <= set(here), sorted(used_keys() - set(here))
    assert set(here) == set(english)
    for key, text in here.items():
        assert text.strip(), key
        assert names(text) == names(english[key]), key


def names(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))
