"""``arena serve OUT``: a live server on 127.0.0.1 answers the run's API."""

from __future__ import annotations

from pathlib import Path

import httpx

from arena.report import standings_document, standings_text


def test_the_standings_are_the_saved_document(served: str, finished_run: Path) -> None:
    answer = httpx.get(f"{served}/api/standings", timeout=30)
    assert answer.status_code == 200
    expected = standings_document(finished_run)  # the defaults standings.json is written with
    assert answer.content == standings_text(expected).encode()
    assert answer.json()["matches"] == 4


def test_the_match_list_has_every_finished_match(served: str, finished_run: Path) -> None:
    matches = httpx.get(f"{served}/api/matches", timeout=30).json()["matches"]
    assert len(matches) == 4 and {m["state"] for m in matches} == {"finished"}


def test_the_server_binds_loopback_by_default(served: str) -> None:
    assert served.startswith("http://127.0.0.1:")
