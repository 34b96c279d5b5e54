"""Every page a league served with submissions open answers, its own and the competition's,
carries the same security headers (arena.web._headers, docs/web.md "Security")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

import httpx

from arena.web._headers import SECURITY_HEADERS
from tests.competition.test_enter import serve_league

CONFIG = """\
name: headers
seed: 3
players: 3
rules: {preset: runs, rounds: 2}
format: {type: league, min_sets: 1, stop: {deals: 12}}
submissions: {open: true, max_bytes: 2000, per_day: 3, kinds: [python-file], tables: true}
bots: [greedy, random, lowest]
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from serve_league(tmp_path_factory, "headers", CONFIG)


def test_every_page_carries_the_security_headers(served: tuple[str, Path]) -> None:
    url, _ = served
    entrant = httpx.post(f"{url}/api/entrants", json={"name": "alice"}, timeout=30)
    assert entrant.status_code == 201, entrant.text
    opened = httpx.post(f"{url}/api/tables", json={"seats": ["person", "greedy", "random"],
                                                   "preset": "runs", "rounds": 1}, timeout=30)
    assert opened.status_code == 200, opened.text
    table, seat = opened.json()["table"], opened.json()["links"][0]
    pages = ["/", "/match?id=x", "/enter", "/entrant/alice", "/entrant/greedy", "/tables",
             "/rules", "/report/", "/report/people/", seat, table]
    for page in pages:
        answer = httpx.get(page if page.startswith("http") else url + page, timeout=30,
                           follow_redirects=True)
        assert answer.status_code == 200, (page, answer.status_code)
        assert answer.headers["content-type"].startswith("text/html"), page
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers.get(name) == value, (page, name, answer.headers.get(name))
    for other in ("/enter.js", "/api/standings", "/api/entrants/alice", "/no/such/page"):
        answer = httpx.get(url + other, timeout=30)
        assert answer.headers.get("x-content-type-options") == "nosniff", other
