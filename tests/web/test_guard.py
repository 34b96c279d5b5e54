"""The server's door (arena.web._guard) against a live ``arena serve --table`` on 127.0.0.1:
other origins change nothing, other host names get nothing, big bodies are refused before
they are read."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from httpx_ws import WebSocketUpgradeError, connect_ws

from arena.web._guard import host_names
from tests.web.conftest import start_server, stop

SEATS = {"seats": ["person", "greedy"], "preset": "standard", "rounds": 1}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """The URL of ``arena serve OUT --table`` and its process id."""
    out = tmp_path_factory.mktemp("guarded")
    process, url = start_server("serve", str(out), "--port", "0", "--table")
    try:
        yield url, process.pid
    finally:
        stop(process)


def _tables(url: str) -> int:
    return len(httpx.get(f"{url}/api/tables", timeout=60).json())


def _other_origin(url: str) -> str:
    parts = urlsplit(url)
    return f"http://{parts.hostname}:{(parts.port or 80) + 1}"


def test_a_post_from_another_origin_opens_no_table(server: tuple[str, int]) -> None:
    url, _ = server
    before = _tables(url)
    foreign = [
        {"Origin": _other_origin(url)},  # a page on another port: a no-cors POST
        {"Origin": "http://attacker.example"},
        {"Origin": "null"},  # a sandboxed frame, a file: page
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": url},
    ]
    for headers in foreign:
        answer = httpx.post(f"{url}/api/tables", content=str(SEATS).replace("'", '"'),
                            headers={"Content-Type": "text/plain", **headers}, timeout=60)
        assert answer.status_code == 403, (headers, answer.text)
        assert "error" in answer.json()
    assert _tables(url) == before
    # The page's own POST (same origin, as fetch() sends it) opens one.
    own = httpx.post(f"{url}/api/tables", json=SEATS,
                     headers={"Origin": url, "Sec-Fetch-Site": "same-origin"}, timeout=60)
    assert own.status_code == 200, own.text
    assert _tables(url) == before + 1


def test_sockets_from_another_origin_are_refused(server: tuple[str, int]) -> None:
    url, _ = server
    link = httpx.post(f"{url}/api/tables", json=SEATS, timeout=60).json()["links"][0]
    seat = re.sub(r"^(http://[^/]+)/t/", r"\1/ws/t/", link)
    for target in (f"{url}/ws", seat):
        with httpx.Client(headers={"Origin": _other_origin(url)},
                          timeout=60) as client, pytest.raises(
                WebSocketUpgradeError), connect_ws(target, client):
            pass
        with httpx.Client(headers={"Origin": url}, timeout=60) as client, connect_ws(
                target, client) as ws:
            ws.send_text('{"subscribe": "matches"}' if target.endswith("/ws") else
                         '{"type": "name", "name": "Ann"}')
            assert ws.receive_text(timeout=10)


def test_another_host_name_gets_nothing(server: tuple[str, int]) -> None:
    url, _ = server
    port = urlsplit(url).port
    for name in ("attacker.example", f"attacker.example:{port}", "127.0.0.1.nip.io", ""):
        answer = httpx.get(f"{url}/api/tables", headers={"Host": name}, timeout=60)
        assert answer.status_code == 421, name
        with httpx.Client(headers={"Host": name}, timeout=60) as client, pytest.raises(
                WebSocketUpgradeError), connect_ws(f"{url}/ws", client):
            pass
    for name in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
        assert httpx.get(f"{url}/api/tables", headers={"Host": name}, timeout=60).status_code == 200


def test_the_names_a_server_answers_to() -> None:
    assert host_names("127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert host_names("192.0.2.7", ["arena.example.org"]) == {"192.0.2.7",
                                                               "arena.example.org"}
    assert host_names("0.0.0.0") is None  # any IP address, and the names given


def _peak_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+)", status).group(1))  # type: ignore[union-attr]


def test_a_big_body_is_refused_before_it_is_read(server: tuple[str, int]) -> None:
    url, pid = server
    answer = httpx.post(f"{url}/api/tables", content=b"x" * 5000, timeout=60)
    assert answer.status_code == 413 and "4096" in answer.json()["error"]
    # A 100 MB chunked body: the 413 comes after the first 4 KiB; the server's memory
    # peak does not move by the body's size.
    parts = urlsplit(url)
    peak = _peak_kb(pid)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as conn:
        conn.sendall(f"POST /api/tables HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                     "Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
                     .encode())
        chunk = b"x" * (1 << 20)
        head = f"{len(chunk):x}\r\n".encode()
        sent = 0
        deadline = time.monotonic() + 60
        try:
            while sent < 100 and time.monotonic() < deadline:
                conn.sendall(head + chunk + b"\r\n")
                sent += 1
        except OSError:
            pass  # the server closed the connection after its answer
        reply = b""
        try:
            while b"\r\n\r\n" not in reply:
                got = conn.recv(4096)
                if not got:
                    break
                reply += got
        except OSError:
            pass
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert sent < 100  # the server stopped reading long before the body's end
    assert _peak_kb(pid) - peak < 20_000


def test_a_name_given_is_answered_to(tmp_path: Path) -> None:
    process, url = start_server("serve", str(tmp_path), "--port", "0", "--table",
                                "--name", "arena.example.org")
    try:
        netloc = f"arena.example.org:{urlsplit(url).port}"
        assert httpx.get(f"{url}/api/tables", headers={"Host": netloc},
                         timeout=60).status_code == 200
        answer = httpx.post(f"{url}/api/tables", json=SEATS,
                            headers={"Host": netloc, "Origin": f"http://{netloc}"}, timeout=60)
        assert answer.status_code == 200, answer.text
        other = httpx.get(f"{url}/api/tables", headers={"Host": "other.example.org"}, timeout=60)
        assert other.status_code == 421
    finally:
        stop(process)
