"""The web pages' languages: choosing one, their catalogs of messages, cards as players write them.

Messages live in ``arena/web/locales/<lang>/<area>.json``, one flat object of strings per
area (``common.json`` for the words every page shares, ``live.json``, ``table.json``, ...),
so each page's author edits its own file. A language's catalog is all its areas merged, over
English: a message a language lacks is shown in English, with one logged warning, and is an
error under tests (``tests/web/test_i18n.py`` also fails on it before anything runs).
Protocol text (``5H 6H 7H``, ``JK=7H 8H 9H``, ``pass``) and records are never translated:
:func:`card_text` and :func:`rank_text` are for people's eyes only. See docs/web.md,
"Languages".
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Final

from arena.game import RANKS, SUITS, Card
from arena.records import get_logger

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

LANGUAGES: Final = ("en", "nl", "da", "pl", "no", "tr")
"""The languages of the web pages, English (the fallback) first."""

DEFAULT_LANGUAGE: Final = "en"

LANGUAGE_NAMES: Final[Mapping[str, str]] = {
    "en": "English", "nl": "Nederlands", "da": "Dansk",
    "pl": "Polski", "no": "Norsk", "tr": "Türkçe",
}
"""Each language's name in that language, as its menu shows it."""

LANG_COOKIE: Final = "lang"
"""The cookie the language menu sets (and a page given ``?lang=`` sets too)."""

LOCALES: Final = Path(__file__).resolve().parent / "locales"

STATIC_URL: Final = "/static"
"""Where the app serves ``arena/web/static/`` (``i18n.js``, ``i18n.css``, ``rules.css``)."""

STRICT_ENV: Final = "ARENA_I18N_STRICT"
"""When ``1`` (and whenever pytest runs), a missing message raises instead of falling back."""

# Tags browsers send for a language arena has under another code: Norwegian Bokmål and
# Nynorsk are ``nb`` and ``nn``; the pages speak Bokmål.
_ALIASES: Final = {"nb": "no", "nn": "no"}
_SUIT_SYMBOLS: Final = dict(zip(SUITS, "♣♦♥♠", strict=True))
_PLACEHOLDER: Final = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_Q_VALUE: Final = re.compile(r"^q=([01](?:\.\d{0,3})?)$")

_log = get_logger("arena.web.i18n")
_warned: set[tuple[str, str]] = set()


class MissingMessage(KeyError):
    """A message key (or a value it needs) that a catalog lacks, raised in strict mode."""


def strict() -> bool:
    """Whether a missing message is an error: under pytest, or with ``ARENA_I18N_STRICT=1``."""
    return os.environ.get(STRICT_ENV) == "1" or "PYTEST_CURRENT_TEST" in os.environ


def _known(tag: str) -> str | None:
    primary = tag.strip().lower().replace("_", "-").split("-")[0]
    primary = _ALIASES.get(primary, primary)
    return primary if primary in LANGUAGES else None


def negotiate(accept_language: str | None, chosen: str | None = None) -> str:
    """The language to speak: ``chosen`` (``?lang=``, the menu's cookie) when arena has it,
    else the best of ``Accept-Language`` by q-value (``da, en;q=0.5``; ``nb`` counts as
    ``no``; ties keep the header's order), else English. Malformed parts are ignored."""
    if chosen and (lang := _known(chosen)):
        return lang
    best: tuple[float, int, str] | None = None
    for order, part in enumerate((accept_language or "").split(",")):
        tag, *params = (piece.strip() for piece in part.split(";"))
        q = 1.0
        for param in params:
            if match := _Q_VALUE.match(param.replace(" ", "")):
                q = float(match.group(1))
        lang = DEFAULT_LANGUAGE if tag == "*" else _known(tag)
        if lang is None or q <= 0 or q > 1:
            continue
        if best is None or q > best[0] or (q == best[0] and order < best[1]):
            best = (q, order, lang)
    return best[2] if best else DEFAULT_LANGUAGE


def areas(lang: str) -> dict[str, dict[str, str]]:
    """A language's message files, by area (``common``, ``live``, ...), as written."""
    return dict(_areas(lang))


@cache
def _areas(lang: str) -> dict[str, dict[str, str]]:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (arena speaks {', '.join(LANGUAGES)})")
    found: dict[str, dict[str, str]] = {}
    for path in sorted((LOCALES / lang).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: not readable JSON: {exc}") from None
        if not isinstance(data, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            raise ValueError(f"{path}: must be one JSON object of strings")
        found[path.stem] = data
    return found


@cache
def _own(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for area in _areas(lang).values():
        merged.update(area)
    return merged


def catalog(lang: str) -> dict[str, str]:
    """Every message of ``lang`` (all areas), English where it lacks one."""
    return {**_own(DEFAULT_LANGUAGE), **_own(negotiate(None, lang))}


def _missing(lang: str, key: str, what: str) -> None:
    if strict():
        raise MissingMessage(f"{what} (language {lang!r}, key {key!r})")
    if (lang, key) not in _warned:
        _warned.add((lang, key))
        _log.warning("missing message", lang=lang, key=key, problem=what)


def t(lang: str, key: str, **values: object) -> str:
    """The message ``key`` in ``lang``, its ``{name}`` placeholders filled from ``values``.

    A message ``lang`` lacks is English (the key itself if English lacks it too), after one
    logged warning per language and key; in strict mode (:func:`strict`) it raises
    :class:`MissingMessage`.
    """
    lang = negotiate(None, lang)
    text = _own(lang).get(key)
    if text is None:
        _missing(lang, key, "no such message")
        text = _own(DEFAULT_LANGUAGE).get(key, key)

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            _missing(lang, key, f"no value for {{{name}}}")
            return match.group(0)
        return str(values[name])

    return _PLACEHOLDER.sub(fill, text)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message."""
    return set(_PLACEHOLDER.findall(text))


def rank_text(lang: str, rank: int | str) -> str:
    """How players of ``lang`` write a rank (an index 0..12 or a letter of ``RANKS``): the
    Dutch king is ``H`` (heer), the Turkish ``P`` (papaz), the Turkish ``K`` a queen (kız);
    the ten is ``10`` everywhere."""
    letter = RANKS[rank] if isinstance(rank, int) else rank.upper().replace("10", "T")
    if len(letter) != 1 or letter not in RANKS:
        raise ValueError(f"not a rank: {rank!r}")
    return t(lang, f"rank.{letter}") if letter in "TJQKA" else letter


def card_text(lang: str, card: Card | str) -> str:
    """A card as players of ``lang`` read it: rank as they write it, then the suit's symbol
    (``H♥`` is the Dutch king of hearts); a joker is that language's word for it."""
    card = Card.parse(card)
    if card.rank is None or card.suit is None:
        return t(lang, "card.joker")
    return rank_text(lang, card.rank) + _SUIT_SYMBOLS[SUITS[card.suit]]


def run_text(lang: str, ranks: str) -> str:
    """Ranks joined as players write a run: ``run_text("nl", "KA2") == "H-A-2"``."""
    return "-".join(rank_text(lang, rank) for rank in ranks.replace("10", "T"))


def move_text(lang: str, move: str) -> str:
    """A move in protocol text (``5H 6H 7H``, ``JK=7H 8H 9H``, ``pass``) as people read it:
    ``pass`` in their words, each card by :func:`card_text`, a declared joker as what it
    stands for. The protocol text itself stays what buttons and records carry."""
    if move.strip().lower() == "pass":
        return t(lang, "move.pass")
    words = []
    for token in move.split():
        if token.upper().startswith("JK="):
            words.append(t(lang, "card.joker_as", card=card_text(lang, token[3:])))
        else:
            words.append(card_text(lang, token))
    return " ".join(words)


def language_of(conn: HTTPConnection) -> str:
    """The language of a request or socket: ``?lang=``, else the menu's cookie, else the
    browser's ``Accept-Language``, else English."""
    chosen = conn.query_params.get("lang") or conn.cookies.get(LANG_COOKIE)
    return negotiate(conn.headers.get("accept-language"), chosen)


def messages_json(lang: str) -> str:
    """What ``/api/messages`` answers, as JSON safe to inline in an HTML ``<script>`` block."""
    lang = negotiate(None, lang)
    body = json.dumps({
        "lang": lang,
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
        "messages": catalog(lang),
    }, ensure_ascii=False, sort_keys=True)
    return body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def i18n_head(lang: str) -> str:
    """The HTML a page puts in its ``<head>`` to speak ``lang``: its catalog inlined as a JSON
    data block (which a strict CSP allows: it is never run) and ``i18n.js``, which fills the
    ``data-i18n`` elements and defines ``t()`` before the page's own scripts run."""
    return (f'<link rel="stylesheet" href="{STATIC_URL}/i18n.css">\n'
            f'<script type="application/json" id="i18n-messages">{messages_json(lang)}</script>\n'
            f'<script src="{STATIC_URL}/i18n.js"></script>')


def language_menu(lang: str) -> str:
    """The language menu as HTML: one link per language (``?lang=xx``), the current one
    marked; ``i18n.js`` makes a click also set the cookie. It works without scripts too."""
    items = "".join(
        f'<li><a href="?lang={code}" hreflang="{code}" lang="{code}" data-lang="{code}"'
        + (' aria-current="true"' if code == lang else "")
        + f">{escape(LANGUAGE_NAMES[code])}</a></li>"
        for code in LANGUAGES)
    label = escape(t(lang, "lang.menu"))
    return (f'<nav class="i18n-menu" aria-label="{label}">'
            f'<span class="i18n-menu-label" data-i18n="lang.menu">{label}</span>'
            f"<ul>{items}</ul></nav>")
