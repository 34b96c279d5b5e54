"""The report's texts in the web pages' six languages, for a report read from the disk.

The messages are the web's own catalogs (``arena/web/locales/<lang>/``: ``report.json`` for
the report's texts, ``common.json`` for the roles and the cards' rank letters, ``table.json``
for the people's seats), merged over
English as the served pages merge them (``arena.web._i18n.catalog``; tests hold the two
equal). They are read as files, so the report needs no web extra, and written into the
report as ``data/messages.js``, which picks the language of the page's ``?lang=`` (else of
the language menu's cookie, else the report's own, ``arena report --lang``) and hands it to
``i18n.js``, the web pages' script (copied into the report), as the inline catalog it reads.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Final

__all__ = ["AREAS", "LANGUAGES", "catalogs", "copy_i18n", "write_messages"]

LANGUAGES: Final = ("en", "nl", "da", "pl", "no", "tr")
"""The languages of the report, English (the fallback) first: ``arena.web._i18n.LANGUAGES``."""
AREAS: Final = ("common", "table", "report")
"""The catalogs' areas the report uses (``table``: a person's seat as the seat page names it)."""

_WEB = resources.files("arena") / "web"
_PICK = """(function () {
  var I = window.ARENA_I18N, asked = new URLSearchParams(location.search).get("lang");
  var cookie = document.cookie.split(";").map(function (part) { return part.trim(); })
    .filter(function (part) { return part.indexOf("lang=") === 0; })[0];
  if (!asked && cookie) asked = decodeURIComponent(cookie.slice(5));
  var lang = Object.prototype.hasOwnProperty.call(I.catalogs, asked) ? asked : I.lang;
  var node = document.createElement("script");
  node.type = "application/json";
  node.id = "i18n-messages";
  node.textContent = JSON.stringify({ lang: lang, languages: I.languages,
                                      messages: I.catalogs[lang] });
  document.head.append(node);
})();
"""


def _own(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for area in AREAS:
        path = _WEB / "locales" / lang / f"{area}.json"
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def catalogs() -> dict[str, dict[str, str]]:
    """Each language's messages of :data:`AREAS`, over English's."""
    english = _own(LANGUAGES[0])
    return {lang: {**english, **_own(lang)} for lang in LANGUAGES}


def write_messages(path: Path, lang: str) -> None:
    """``data/messages.js``: every language's catalog, ``lang`` the report's own."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (the report speaks "
                         f"{', '.join(LANGUAGES)})")
    found = catalogs()
    data = {"lang": lang, "catalogs": found,
            "languages": [{"code": c, "name": found[c]["lang.name"]} for c in LANGUAGES]}
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    path.write_text(f"window.ARENA_I18N={text};\n{_PICK}", encoding="utf-8")


def copy_i18n(folder: Path) -> None:
    """The web pages' ``i18n.js`` (messages, the cards' words, the language menu) and its
    style, into the report's folder."""
    for name in ("i18n.js", "i18n.css"):
        (folder / name).write_bytes((_WEB / "static" / name).read_bytes())
