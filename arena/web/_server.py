"""Serving the app with Hypercorn's trio worker, in the trio run of the caller."""

from __future__ import annotations

import functools
import ipaddress
import logging
from collections.abc import Iterable, Mapping

import trio
from hypercorn.config import Config
from hypercorn.trio import serve as hypercorn_serve
from starlette.types import ASGIApp

from ._guard import Guard, host_names

__all__ = ["MAX_SOCKET_MESSAGE", "is_loopback", "serve"]

MAX_SOCKET_MESSAGE = 16 * 1024
"""The largest WebSocket message (bytes) a browser may send on any socket of the server; a
larger one closes the socket (Hypercorn's bound). A seat's page is held to a smaller bound
of its own (``_person.MAX_MESSAGE``), which its table answers with an error."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable only from this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def serve(app: ASGIApp, host: str, port: int, *, names: Iterable[str] = (),
                bodies: Mapping[str, int] | None = None,
                task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve ``app`` on ``host:port`` until cancelled; ``task_status.started(url)`` once the
    socket listens (``port`` 0 takes a free port, which the URL names).

    The app is served behind its :class:`~arena.web._guard.Guard`: it answers to ``host``
    (and for a loopback address to ``localhost``), to the host ``names`` given (the names
    people reach the server by, ``arena serve --name``), and to any IP address when
    ``host`` is a wildcard; changes come from its own origin only; bodies are bounded (those
    of the paths in ``bodies`` by their own bound). The app's lifespan runs in this trio run
    (Hypercorn's), before the socket listens."""
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.websocket_max_message_size = MAX_SOCKET_MESSAGE
    config.accesslog = None
    config.errorlog = logging.getLogger("arena.web.hypercorn")
    config.graceful_timeout = 1.0

    async with trio.open_nursery() as nursery:
        names = frozenset(names)
        guarded = Guard(app, hosts=host_names(host, names), extra=names,
                        bodies=bodies)
        binds: list[str] = await nursery.start(
            functools.partial(hypercorn_serve, guarded, config))  # type: ignore[arg-type]
        task_status.started(binds[0].rstrip("/"))
