"""The spectators' WebSocket: subscribe to topics, hear their events; nothing else.

A browser sends ``{"subscribe": "<topic>"}`` (``standings``, ``matches``, ``report``,
``progress``, a format's own such as ``sprt`` or ``league``, or ``match:<id>``) and
receives that topic's events, starting with the topic's current state.
Anything else it sends is answered with ``{"error": ...}``; a browser that sends more than
``RATE`` messages in a second, or a message over the server's size limit, is disconnected.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio
from starlette.websockets import WebSocket, WebSocketDisconnect

from arena.tournament import format_topics

from ._league_status import read_league_status
from ._live import valid_id

if TYPE_CHECKING:
    from ._hub import Hub
    from ._live import RunFolder

__all__ = ["MAX_TOPICS", "RATE", "spectator_socket"]

RATE = 20
"""Messages a browser may send per second before it is disconnected."""
MAX_TOPICS = 8
"""Topics one socket may follow at once."""
POLICY_VIOLATION = 1008
_TOPICS = ("standings", "matches", "report", "progress")
"""Every run's topics; a format adds its own (``format_topics``: ``sprt``, ``league``)."""


def _topic(message: str) -> str | None:
    """The topic a message subscribes to, or None for any other message."""
    try:
        data = json.loads(message)
    except ValueError:
        return None
    topic = data.get("subscribe") if isinstance(data, dict) and len(data) == 1 else None
    if not isinstance(topic, str):
        return None
    if topic in _TOPICS or topic in format_topics():
        return topic
    if topic.startswith("match:") and valid_id(topic[len("match:"):]):
        return topic
    return None


def spectator_socket(hub: Hub, run: RunFolder) -> Callable[[WebSocket], Awaitable[None]]:
    """The WebSocket endpoint of spectators."""

    async def endpoint(socket: WebSocket) -> None:
        await socket.accept()
        send_lock = trio.Lock()

        async def send(item: dict[str, Any]) -> None:
            async with send_lock:
                await socket.send_text(json.dumps(item, separators=(",", ":")))

        async def follow(topic: str) -> None:
            async with hub.subscribe(topic) as events:
                await send(_current(topic, hub, run))
                async for event in events:
                    await send(event)

        try:
            async with trio.open_nursery() as nursery:
                await _listen(socket, send, follow, nursery)
        except* _GONE:
            pass  # the browser went away (or sent bytes: receive_text's KeyError)

    return endpoint


_GONE = (WebSocketDisconnect, KeyError, RuntimeError, OSError, trio.BrokenResourceError,
         trio.ClosedResourceError)


async def _listen(socket: WebSocket, send: Callable[[dict[str, Any]], Awaitable[None]],
                  follow: Callable[[str], Awaitable[None]], nursery: trio.Nursery) -> None:
    """Read the browser's messages: subscriptions start a follower task, anything else is
    answered with an error, a flood closes the socket."""
    topics: set[str] = set()
    window, count = time.monotonic(), 0
    while True:
        message = await socket.receive_text()
        now = time.monotonic()
        if now - window >= 1.0:
            window, count = now, 0
        count += 1
        if count > RATE:
            await socket.close(POLICY_VIOLATION, "too many messages")
            nursery.cancel_scope.cancel()
            return
        topic = _topic(message)
        if topic is None:
            await send({"error": 'a spectator may only send {"subscribe": "<topic>"}'})
        elif topic in topics:
            continue
        elif len(topics) >= MAX_TOPICS:
            await send({"error": f"at most {MAX_TOPICS} topics per socket"})
        else:
            topics.add(topic)
            nursery.start_soon(follow, topic)


def _current(topic: str, hub: Hub, run: RunFolder) -> dict[str, Any]:
    """What a new subscriber of ``topic`` hears first: the topic's state now."""
    if topic == "matches":
        return {"topic": topic, "type": "matches", "matches": run.match_list()}
    if topic.startswith("match:"):
        match_id = topic[len("match:"):]
        live = run.live.get(match_id)
        if live is not None and run.held(match_id):
            return {"topic": topic, "type": "held"}
        if live is not None:
            return {"topic": topic, "type": "events", "labels": live.labels,
                    "events": live.events}
        state = "recorded" if run.record(match_id) is not None else "unknown"
        return {"topic": topic, "type": state}
    if topic == "league" and "league" not in hub.last:
        status = read_league_status(run.folder)
        if status is not None:
            return {"topic": topic, "type": "league", "status": status}
    return hub.last.get(topic) or {"topic": topic, "type": "none"}
