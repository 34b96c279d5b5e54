"""An answer to a request that failed inside a route (500) carries the security headers too:
Starlette answers an unhandled exception outside every middleware (docs/web.md, "Security")."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from arena.web import create_app
from arena.web._headers import SECURITY_HEADERS


async def broken(request: Request) -> Response:
    raise RuntimeError("a route's own bug")


def test_a_failing_route_answers_500_with_the_security_headers(tmp_path: Path) -> None:
    app = create_app(tmp_path, extra=[Route("/broken", broken)])
    with TestClient(app, raise_server_exceptions=False, backend="trio") as client:
        answer = client.get("/broken")
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error (RuntimeError)"}
    assert "a route's own bug" not in answer.text  # the exception's words stay in the server
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers.get(name) == value, name
