"""The package's pages, scripts and styles are answered from memory, with the same bytes and
headers as their files would be, and revalidated by their ETag."""

from __future__ import annotations

import httpx

from arena.web._live_report import STATIC


def test_static_files_from_memory_with_an_etag(served: str) -> None:
    for path, name in (("/static/live.js", "live.js"), ("/", "live.html"),
                       ("/match", "match.html")):
        answer = httpx.get(served + path, timeout=30)
        assert answer.status_code == 200 and answer.content == (STATIC / name).read_bytes()
        assert "Content-Security-Policy" in answer.headers
        assert answer.headers["x-content-type-options"] == "nosniff"
        etag = answer.headers["etag"]
        again = httpx.get(served + path, headers={"If-None-Match": etag}, timeout=30)
        assert again.status_code == 304 and again.content == b""
        assert "Content-Security-Policy" in again.headers
    assert httpx.get(served + "/static/live.js", timeout=30).headers["content-type"].startswith(
        "text/javascript")
    assert httpx.get(served + "/", timeout=30).headers["content-type"].startswith("text/html")
    for bad in ("/static/../_app.py", "/static/nothing.js", "/static/%00"):
        assert httpx.get(served + bad, timeout=30).status_code == 404, bad
    assert httpx.head(served + "/static/live.css", timeout=30).status_code == 200
