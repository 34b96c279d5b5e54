"""A live server on 127.0.0.1 inside a test's trio run, and a raw HTTP request."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import trio

from arena.web import Hub, create_app, serve


@contextlib.asynccontextmanager
async def serving(out: Path, hub: Hub | None = None) -> AsyncIterator[str]:
    """``create_app(out)`` served on a free port of 127.0.0.1 (its follower beside it): the
    URL, until the block ends."""
    hub = hub or Hub()
    app = create_app(out, hub)
    async with trio.open_nursery() as nursery:
        url = await nursery.start(serve, app, "127.0.0.1", 0)
        yield url
        nursery.cancel_scope.cancel()


def raw_get(url: str, path: str) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (no client normalises its ``..``): status, body."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
                     .encode())
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body
