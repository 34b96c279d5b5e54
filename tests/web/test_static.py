"""The package's pages, scripts and styles are answered from memory, with the same bytes and
headers as their files would be, and revalidated by their ETag; files kept in memory are read
again when another file takes their place or their report is rebuilt, within a bound."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from arena.web._live_report import STATIC
from arena.web._static import KeptFiles


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files read from disk (``Path.read_bytes``) during the test."""
    names: list[str] = []
    read = Path.read_bytes

    def counted(path: Path) -> bytes:
        names.append(path.name)
        return read(path)

    monkeypatch.setattr(Path, "read_bytes", counted)
    return names


def test_a_kept_file_is_read_once_and_again_when_another_takes_its_place(
        tmp_path: Path, reads: list[str]) -> None:
    kept = KeptFiles()
    path = tmp_path / "summary.js"
    path.write_bytes(b"window.A=1;\n")
    first = kept.read(path)
    assert kept.read(path) == first and first[0] == b"window.A=1;\n"
    assert reads == ["summary.js"]
    # a build writes a new file and moves it into place: the same size, the same time
    stat = path.stat()
    new = tmp_path / "new.js"
    new.write_bytes(b"window.A=2;\n")
    os.utime(new, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(new, path)
    assert kept.read(path)[0] == b"window.A=2;\n"
    assert reads == ["summary.js", "summary.js"]
    # rewritten where it is, at the same time and size: the report's next build says so
    path.write_bytes(b"window.A=3;\n")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert kept.read(path, generation=1)[0] == b"window.A=3;\n"
    assert kept.read(path, generation=1)[0] == b"window.A=3;\n"
    assert len(reads) == 3
    path.unlink()
    with pytest.raises(OSError):
        kept.read(path, generation=1)


def test_kept_files_stay_within_their_bound(tmp_path: Path, reads: list[str]) -> None:
    kept = KeptFiles(limit=400)
    for name in "abcde":
        (tmp_path / name).write_bytes(name.encode() * 100)
    (tmp_path / "big").write_bytes(b"x" * 101)
    for name in "abcd":
        kept.read(tmp_path / name)
    kept.read(tmp_path / "a")  # a was read last: b is the first forgotten
    assert kept.size == 400 and reads == ["a", "b", "c", "d"]
    assert kept.read(tmp_path / "e")[0] == b"e" * 100
    assert kept.size == 400 and reads[-1] == "e"
    for name in "acde":
        kept.read(tmp_path / name)
    assert reads == ["a", "b", "c", "d", "e"]
    kept.read(tmp_path / "b")
    assert reads[-1] == "b" and kept.size == 400
    for _ in range(2):  # over a quarter of the bound: read each time, never kept
        assert kept.read(tmp_path / "big")[0] == b"x" * 101
    assert reads[-2:] == ["big", "big"] and kept.size == 400


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
