"""The players' rules page, ``/rules``, and the catalogs' API, ``/api/messages``.

Each language's rules are ``arena/web/locales/<lang>/rules.md``: a ``# title``, an
introduction, then sections ``## Heading {#id}`` whose ids are the same in every language
(the page's anchors; a test holds every language to English's list). Cards in the text are
written as macros that :mod:`._i18n` fills as that language writes them: ``{run:KA2}``
(``H-A-2`` in Dutch), ``{rank:K}``, ``{card:KH}``. Markdown is rendered with raw HTML off,
so the sources cannot inject markup; no user input reaches the page but the language code,
which is checked against :data:`LANGUAGES` first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import Final

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from ._i18n import (
    LANG_COOKIE,
    LANGUAGES,
    LOCALES,
    STATIC_URL,
    card_text,
    i18n_head,
    language_menu,
    language_of,
    messages_json,
    rank_text,
    run_text,
    t,
)

_SECTION: Final = re.compile(r"^## (?P<title>.+?) \{#(?P<id>[a-z][a-z0-9-]*)\}\s*$", re.M)
_MACRO: Final = re.compile(r"\{(?P<kind>run|rank|card):(?P<arg>[0-9TJQKA2CDHS]+)\}")
_YEAR: Final = 60 * 60 * 24 * 365


@dataclass(frozen=True)
class Section:
    """One section of a rules page: its anchor, its heading and its body as safe HTML."""

    id: str
    title: str
    html: str


@dataclass(frozen=True)
class RulesPage:
    """A language's rules: title, introduction (safe HTML) and sections in order."""

    lang: str
    title: str
    intro: str
    sections: tuple[Section, ...]


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _cards(lang: str, text: str) -> str:
    def fill(match: re.Match[str]) -> str:
        kind, arg = match.group("kind"), match.group("arg")
        if kind == "run":
            return run_text(lang, arg)
        return rank_text(lang, arg) if kind == "rank" else card_text(lang, arg)

    return _MACRO.sub(fill, text)


@cache
def rules_page(lang: str) -> RulesPage:
    """The rules of ``lang``, read from its ``rules.md``; ``ValueError`` names a bad source."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    path = LOCALES / lang / "rules.md"
    source = _cards(lang, path.read_text(encoding="utf-8"))
    head, *rest = _SECTION.split(source)
    title_line, _, intro = head.strip().partition("\n")
    if not title_line.startswith("# "):
        raise ValueError(f"{path}: must start with a '# ' title line")
    md = _markdown()
    sections = tuple(Section(id=rest[i + 1], title=rest[i].strip(), html=md.render(rest[i + 2]))
                     for i in range(0, len(rest), 3))
    ids = [section.id for section in sections]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: a section id appears twice in {ids}")
    return RulesPage(lang=lang, title=title_line[2:].strip(), intro=md.render(intro),
                     sections=sections)


@cache
def rules_html(lang: str) -> str:
    """The whole rules page of ``lang`` as HTML (the same for every request: built once)."""
    page = rules_page(lang)
    contents = "".join(f'<li><a href="#{s.id}">{escape(s.title)}</a></li>'
                       for s in page.sections)
    body = "\n".join(
        f'<section id="{s.id}" class="rules-section" aria-labelledby="h-{s.id}">'
        f'<h2 id="h-{s.id}">{escape(s.title)}</h2>\n{s.html}</section>'
        for s in page.sections)
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(page.title)} · arena</title>
<link rel="icon" href="{STATIC_URL}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{STATIC_URL}/rules.css">
{i18n_head(lang)}
</head>
<body class="rules-page">
<header class="site-header">
<nav class="site-menu" aria-label="{escape(t(lang, "menu.label"))}">
<a href="/" data-i18n="menu.home">{escape(t(lang, "menu.home"))}</a>
<a href="/rules" aria-current="page" data-i18n="menu.rules">{escape(t(lang, "menu.rules"))}</a>
</nav>
{language_menu(lang)}
</header>
<main>
<h1>{escape(page.title)}</h1>
<div class="rules-intro">{page.intro}</div>
<nav class="rules-contents" aria-labelledby="h-contents">
<h2 id="h-contents" data-i18n="rules.contents">{escape(t(lang, "rules.contents"))}</h2>
<ol>{contents}</ol>
</nav>
{body}
</main>
</body>
</html>
"""


def _spoken(response: Response, request: Request, lang: str) -> Response:
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language, Cookie"
    if request.query_params.get("lang") == lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=_YEAR, samesite="lax")
    return response


async def rules_endpoint(request: Request) -> Response:
    """``GET /rules``: the players' rules in the request's language (see ``language_of``)."""
    lang = language_of(request)
    return _spoken(HTMLResponse(rules_html(lang)), request, lang)


async def messages_endpoint(request: Request) -> Response:
    """``GET /api/messages?lang=xx``: ``{"lang", "languages", "messages"}``, the catalog
    over English; without ``lang`` (or with one arena lacks) the request's language."""
    lang = language_of(request)
    response = Response(_messages_body(lang), media_type="application/json")
    return _spoken(response, request, lang)


@cache
def _messages_body(lang: str) -> bytes:
    """``/api/messages``' body in ``lang`` (a language arena has), encoded once a language
    and process: the catalogs do not change while it runs, and a page without its catalog
    inlined asks for it on each load."""
    return messages_json(lang).encode()


def i18n_routes() -> list[BaseRoute]:
    """The routes of the languages: ``/rules`` (the players' rules page, ``?lang=xx``) and
    ``/api/messages?lang=xx`` (a language's catalog as JSON)."""
    return [Route("/rules", rules_endpoint, methods=["GET"], name="rules"),
            Route("/api/messages", messages_endpoint, methods=["GET"], name="messages")]

