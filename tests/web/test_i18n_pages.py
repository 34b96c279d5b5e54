"""The players' rules page and the catalogs' API over HTTP: the language each request gets,
the same sections in every language, nothing a strict CSP refuses, no input reflected."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient

from arena.web import _i18n
from arena.web._headers import CSP, SecurityHeaders
from arena.web._i18n import LANGUAGES, catalog, run_text
from arena.web._rules_page import i18n_routes, rules_page

STATIC = Path(_i18n.__file__).resolve().parent / "static"


@pytest.fixture
def client() -> TestClient:
    """A fresh client (and cookie jar) on an app of the language routes and the static files,
    with the run's web's security headers."""
    app = Starlette(routes=[*i18n_routes(), Mount("/static", StaticFiles(directory=STATIC))],
                    middleware=[Middleware(SecurityHeaders)])
    return TestClient(app)


class Page(HTMLParser):
    """What a test reads off a page: section ids, scripts, attributes, links, text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.attributes.extend((tag, name, value) for name, value in attrs)
        if tag == "section":
            self.sections.append(found.get("id") or "")
        if tag == "script":
            self.scripts.append(found)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_the_rules_page_speaks_the_browser_language(client: TestClient) -> None:
    response = client.get("/rules", headers={"Accept-Language": "nl-NL,nl;q=0.9,en;q=0.5"})
    assert response.status_code == 200
    assert response.headers["content-language"] == "nl"
    assert '<html lang="nl">' in response.text
    assert "<h1>De regels van President</h1>" in response.text
    assert "Accept-Language" in response.headers["vary"]
    assert "set-cookie" not in response.headers  # only a choice is remembered


def test_a_chosen_language_wins_and_is_remembered(client: TestClient) -> None:
    response = client.get("/rules?lang=tr", headers={"Accept-Language": "da"})
    assert response.headers["content-language"] == "tr"
    assert "lang=tr" in response.headers["set-cookie"]
    cookie = TestClient(client.app, cookies={"lang": "pl"})
    assert cookie.get("/rules", headers={"Accept-Language": "da"}).headers[
        "content-language"] == "pl"
    assert cookie.get("/rules?lang=no").headers["content-language"] == "no"


def test_an_unknown_language_is_english_and_never_echoed(client: TestClient) -> None:
    response = client.get("/rules", params={"lang": '"><script>alert(1)</script>'})
    assert response.status_code == 200
    assert response.headers["content-language"] == "en"
    assert "alert(1)" not in response.text
    assert "set-cookie" not in response.headers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_rules_page_has_the_sections_of_the_english_one(client: TestClient,
                                                              lang: str) -> None:
    english = Page(client.get("/rules?lang=en").text)
    page = Page(client.get(f"/rules?lang={lang}").text)
    assert page.sections == english.sections
    assert page.sections[:2] == ["cards", "aim"]
    assert {"sets", "runs", "jokers", "revolution", "eight", "exchange", "roles",
            "scoring"} <= set(page.sections)
    assert all(section.html.strip() for section in rules_page(lang).sections)
    text = "".join(page.text)
    assert run_text(lang, "KA2") in text  # H-A-2 in Dutch, P-A-2 in Turkish
    assert not re.search(r"\{(run|rank|card):", text), "a card macro was left unfilled"
    for role in ("president", "vice-president", "scum", "vice-scum", "citizen"):
        assert catalog(lang)[f"role.{role}"] in text, f"{lang} rules never name {role}"


def test_the_dutch_and_turkish_pages_write_their_players_ranks(client: TestClient) -> None:
    dutch = client.get("/rules?lang=nl").text
    assert "<strong>3 4 5 6 7 8 9 10 B V H A 2</strong>" in dutch
    assert "H-A-2 is de hoogste reeks van drie" in dutch
    turkish = client.get("/rules?lang=tr").text
    assert "<strong>3 4 5 6 7 8 9 10 V K P A 2</strong>" in turkish
    assert "P-A-2 en yüksek üçlü seridir" in turkish


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_needs_nothing_a_strict_csp_refuses(client: TestClient,
                                                           lang: str) -> None:
    response = client.get(f"/rules?lang={lang}")
    assert response.headers["content-security-policy"] == CSP
    page = Page(response.text)
    for script in page.scripts:  # a script runs only from a file; inline is data only
        assert script.get("src") or script.get("type") == "application/json", script
    assert not [a for a in page.attributes if a[1].startswith("on") or a[1] == "style"]
    urls = [value for _, name, value in page.attributes if name in {"src", "href"} and value]
    assert all(not re.match(r"^(https?:)?//", url) for url in urls), urls
    for url in {u for u in urls if u.startswith("/static/")}:
        assert client.get(url).status_code == 200, url


def test_the_inlined_catalog_cannot_close_its_script(client: TestClient) -> None:
    html = client.get("/rules?lang=en").text
    block = html.split('<script type="application/json" id="i18n-messages">')[1]
    block = block.split("</script>")[0]
    assert "<" not in block and ">" not in block


def test_api_messages_gives_a_language_catalog(client: TestClient) -> None:
    body = client.get("/api/messages?lang=da").json()
    assert body["lang"] == "da"
    assert body["messages"] == catalog("da")
    assert [language["code"] for language in body["languages"]] == list(LANGUAGES)
    assert {language["name"] for language in body["languages"]} >= {"Dansk", "Türkçe"}
    client.cookies.clear()  # ?lang=da was remembered: forget it to see Accept-Language
    negotiated = client.get("/api/messages", headers={"Accept-Language": "nb-NO"})
    assert negotiated.json()["lang"] == "no"
    assert negotiated.headers["content-type"].startswith("application/json")
    assert client.get("/api/messages?lang=zz").json()["lang"] == "en"


def test_api_messages_is_encoded_once_a_language_and_answers_as_before(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogs do not change while the server runs: a language's answer is encoded at
    its first request and the same bytes answer the next ones; each language its own."""
    from arena.web import _rules_page

    _rules_page._messages_body.cache_clear()
    encoded: list[str] = []
    encode = _rules_page.messages_json
    monkeypatch.setattr(_rules_page, "messages_json",
                        lambda lang: encoded.append(lang) or encode(lang))
    answers = [client.get(f"/api/messages?lang={lang}") for lang in ("da", "da", "nl", "da")]
    assert encoded == ["da", "nl"]
    assert answers[0].content == answers[1].content == answers[3].content
    assert answers[0].content == _i18n.messages_json("da").encode()  # as it was encoded
    assert answers[0].json()["messages"] == catalog("da")
    assert answers[2].json()["lang"] == "nl" and answers[2].json()["messages"] == catalog("nl")
    assert all(answer.headers["content-type"].startswith("application/json")
               for answer in answers)


def test_the_routes_answer_only_get(client: TestClient) -> None:
    assert client.post("/rules").status_code == 405
    assert client.post("/api/messages").status_code == 405


def test_arena_serve_mounts_the_language_routes(served: str) -> None:
    import httpx

    rules = httpx.get(f"{served}/rules?lang=nl", timeout=30)
    assert rules.status_code == 200 and "H-A-2" in rules.text
    assert rules.headers["content-security-policy"] == CSP
    messages = httpx.get(f"{served}/api/messages", headers={"Accept-Language": "pl"}, timeout=30)
    assert messages.json()["messages"]["move.pass"] == "Pas"
    for asset in ("i18n.js", "i18n.css", "rules.css", "favicon.svg"):
        assert httpx.get(f"{served}/static/{asset}", timeout=30).status_code == 200, asset
