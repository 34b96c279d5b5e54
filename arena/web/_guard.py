"""The server's door: which requests reach the app at all (docs/web.md, "Security").

:class:`Guard` is an ASGI middleware in front of the whole app. Before any route runs it
refuses

- a ``Host`` header that names none of the addresses the server was started for (a DNS
  rebinding attack: an attacker's name that resolves to this machine would make the
  attacker's page same-origin with the server): 421, or a refused WebSocket handshake;
- a request from another origin that may change something: every method but ``GET``,
  ``HEAD`` and ``OPTIONS``, and every WebSocket handshake (a seat's socket, the spectators'
  ``/ws``), whose ``Origin`` is not the server's own or whose ``Sec-Fetch-Site`` says
  ``cross-site`` or ``same-site``: 403, or a refused handshake. A request with neither
  header comes from no browser (a browser sends ``Origin`` with every such request), so it
  carries no visitor's authority and passes;
- a request body longer than ``max_body`` bytes: 413 as soon as its ``Content-Length`` says
  so, or as soon as that many bytes of a chunked body have come, before the rest is read.
  The body is read here, at most ``max_body`` bytes, and handed to the app whole.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY", "Guard", "host_names"]

MAX_BODY = 4096
"""The largest request body (bytes) the server reads; a larger one is a 413."""
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_WILDCARDS = frozenset({"0.0.0.0", "::", ""})


def host_names(bind: str, extra: Iterable[str] = ()) -> frozenset[str] | None:
    """The host names a server bound to ``bind`` answers to: ``bind`` itself, ``localhost``
    and the loopback addresses for a loopback bind, and the names in ``extra``. None for a
    wildcard bind (``0.0.0.0``, ``::``), which answers to any IP address and to ``extra``
    only (:meth:`Guard.host_allowed`)."""
    names = {name.strip("[]").lower() for name in extra if name}
    host = bind.strip("[]").lower()
    if host in _WILDCARDS:
        return None
    names.add(host)
    if _loopback(host):
        names.update({"localhost", "127.0.0.1", "::1"})
    return frozenset(names)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _split_host(value: str) -> str | None:
    """The host name of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``),
    lowercased, or None if it is malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, after = value[1:].partition("]")
        if after and not after.startswith(":"):
            return None
        rest = after[1:]
    else:
        host, _, rest = value.partition(":")
    if not host or (rest and not rest.isdigit()):
        return None
    return host


class Guard:
    """The ASGI middleware that refuses foreign hosts, foreign origins and big bodies.

    ``hosts``: the host names the server answers to (:func:`host_names`); None answers to
    any IP address and to ``extra`` names."""

    def __init__(self, app: ASGIApp, *, hosts: frozenset[str] | None,
                 extra: frozenset[str] = frozenset(), max_body: int = MAX_BODY,
                 bodies: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.hosts = hosts
        self.extra = frozenset(name.lower() for name in extra)
        self.max_body = max_body
        self.bodies = dict(bodies or {})
        """Paths whose bodies may be longer than :attr:`max_body`, with their bounds (a
        competition's submissions: docs/competition.md)."""

    def host_allowed(self, host: str | None) -> bool:
        """Whether a request naming ``host`` (from its ``Host`` header) is served."""
        if host is None:
            return False
        if self.hosts is None:
            return _is_ip(host) or host in self.extra or host == "localhost"
        return host in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        raw_host = headers.get("host")
        problem = None
        if not self.host_allowed(_split_host(raw_host) if raw_host is not None else None):
            problem = (421, "this server does not answer to that host name")
        elif kind == "websocket" or scope.get("method", "GET") not in _SAFE:
            problem = _foreign(headers, raw_host or "")
        if problem is not None:
            if kind == "websocket":
                await receive()  # the handshake's websocket.connect, then its refusal
            await _refuse(kind, send, *problem)
            return
        if kind == "http" and scope.get("method", "GET") not in _SAFE:
            bounded = await self._bounded(headers, receive, send,
                                          self.bodies.get(scope.get("path", ""), self.max_body))
            if bounded is None:
                return
            receive = bounded
        await self.app(scope, receive, send)

    async def _bounded(self, headers: dict[str, str], receive: Receive, send: Send,
                       limit: int) -> Receive | None:
        """The body read whole, at most ``limit`` bytes, as a new ``receive``; None (a 413
        sent) when it is longer."""
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse("http", send, 413, f"request body over {limit} bytes")
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return _replay([message], receive)  # the client went away: the app hears it
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse("http", send, 413, f"request body over {limit} bytes")
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        return _replay([body], receive)


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lowercase name (the first of each)."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


def _foreign(headers: dict[str, str], host: str) -> tuple[int, str] | None:
    """Why a request that may change something comes from another origin, or None."""
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return 403, f"a {site[:20]} request may not change anything here"
    origin = headers.get("origin")
    if origin is None:
        return None
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.strip().lower():
        return 403, "a request from another origin may not change anything here"
    return None


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that answers ``messages`` first, then the client's own."""
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


async def _refuse(kind: str, send: Send, status: int, message: str) -> None:
    """A one-line JSON error (HTTP), or a refused WebSocket handshake (403)."""
    if kind == "websocket":
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
        return
    body = json.dumps({"error": message}).encode()
    headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json"),
                                          (b"content-length", str(len(body)).encode())]
    if status == 413:
        headers.append((b"connection", b"close"))
    start: dict[str, Any] = {"type": "http.response.start", "status": status,
                             "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": body})
