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

from ._frame_clock import sleep_until
from ._league_status import read_league_status
from ._live import valid_id

if TYPE_CHECKING:
    from ._hub import Hub
    from ._live import RunFolder

__all__ = ["MAX_TOPICS", "RATE", "frame_s", "spectator_socket"]

RATE = 20
"""Messages a browser may send per second before it is disconnected."""
MAX_TOPICS = 8
"""Topics one socket may follow at once."""
FRAME_S = 0.1
"""The least time between two messages of one topic to a socket: what came meanwhile goes
together (a match's events as one ``batch``), so a page draws at most 10 times a second."""
BUDGET = 250
"""Messages a second the spectators' sockets are sent together, at most (each topic's frame
grows beyond ``FRAME_S`` with the topics followed: 200 spectators hear a frame each 0.8 s): a
server of hundreds of spectators spends its time on the tables, not on sends, which were
its largest cost (a message is a JSON encoding, a deflate, a socket write and a timer; at 500
a second, 200 tables of instant bots kept a third of their pace, at 250 two thirds:
docs/web.md, "How much one server holds")."""
LAG = 64
"""Events of one topic waiting for a socket beyond which it gets the topic's state now (a
match's current deal) instead of the backlog: a table faster than a page can draw."""
MAX_STATES = 256
"""Matches whose state now is kept encoded for the sockets behind them."""
POLICY_VIOLATION = 1008
_ENCODE = json.JSONEncoder(separators=(",", ":")).encode
_TOPICS = ("standings", "matches", "report", "progress")
"""Every run's topics; a format adds its own (``format_topics``: ``sprt``, ``league``)."""


def frame_s(subscriptions: int) -> float:
    """The least time between two messages of one topic to a socket while the sockets follow
    ``subscriptions`` topics in all (``FRAME_S``, longer as more follow: ``BUDGET``)."""
    return max(FRAME_S, subscriptions / BUDGET)


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


class _States:
    """Each topic's state now (:func:`_current`) with its JSON; a match's encoded once for
    every socket behind it until it moves (200 spectators of one fast table each fall behind
    every frame)."""

    def __init__(self, hub: Hub, run: RunFolder) -> None:
        self.hub = hub
        self.run = run
        self._kept: dict[str, tuple[object, int, bool, dict[str, Any], str]] = {}

    def current(self, topic: str) -> tuple[dict[str, Any], str]:
        """``topic``'s state now and its JSON."""
        run = self.run
        match_id = topic[len("match:"):] if topic.startswith("match:") else None
        live = run.live.get(match_id) if match_id is not None else None
        if live is None or match_id is None:
            state = _current(topic, self.hub, run)
            return state, _ENCODE(state)
        held = run.held(match_id)
        kept = self._kept.get(topic)
        if kept is not None and kept[0] is live and kept[1:3] == (live.published, held):
            return kept[3], kept[4]
        state = _current(topic, self.hub, run)
        if len(self._kept) >= MAX_STATES:
            self._kept.clear()
        text = _ENCODE(state)
        self._kept[topic] = (live, live.published, held, state, text)
        return state, text


def spectator_socket(hub: Hub, run: RunFolder, catch_up: Callable[[str], None] = lambda t: None
                     ) -> Callable[[WebSocket], Awaitable[None]]:
    """The WebSocket endpoint of spectators. ``catch_up(topic)`` publishes what is new of a
    topic before a subscriber's snapshot is taken (a match played in this process)."""

    current = _States(hub, run).current

    async def endpoint(socket: WebSocket) -> None:
        await socket.accept()
        send_lock = trio.Lock()

        async def send(item: dict[str, Any] | str) -> None:
            text = item if isinstance(item, str) else _ENCODE(item)
            # one message at a time on the socket (a deflated frame's context is the one
            # before it); a free lock is taken without the two turns of trio's acquire
            try:
                send_lock.acquire_nowait()
            except trio.WouldBlock:
                await send_lock.acquire()
            try:
                await socket.send_text(text)
            finally:
                send_lock.release()

        async def follow(topic: str) -> None:
            catch_up(topic)
            async with hub.subscribe(topic) as events:
                await send(current(topic)[1])
                await _relay(topic, events)

        async def _relay(topic: str, events: trio.MemoryReceiveChannel[dict[str, Any]]
                         ) -> None:
            """The topic's events as they come, at most one message per frame (longer as
            more sockets follow: ``BUDGET``), the topic's state now when they pile up."""
            sent = trio.current_time()
            async for event in events:
                await sleep_until(sent + frame_s(hub.subscriptions()))
                sent = trio.current_time()
                await _forward(topic, [event, *_waiting(events)], current, send)

        try:
            async with trio.open_nursery() as nursery:
                await _listen(socket, send, follow, nursery)
        except* _GONE:
            pass  # the browser went away (or sent bytes: receive_text's KeyError)

    return endpoint


async def _forward(topic: str, batch: list[dict[str, Any]],
                   current: Callable[[str], tuple[dict[str, Any], str]],
                   send: Callable[[dict[str, Any] | str], Awaitable[None]]) -> None:
    """One frame's events of ``topic`` sent: the topic's state now when they piled up, a
    match's events as one batch, the match list's changes merged."""
    match = topic.startswith("match:")
    if match:
        batch = _flat(batch)
    lagged = any(e.get("type") == "lagged" for e in batch)
    ended = any(e.get("type") == "recorded" for e in batch)
    if lagged or (len(batch) > LAG and not ended):
        now, text = current(topic)  # the latest state, at once
        await send(text)
        if ended and now.get("type") != "recorded":
            await send({"topic": topic, "type": "recorded"})
    elif len(batch) > 1 and match:
        # (a match's last events and its end come whole, however many: nothing follows
        # them, and its state now would no longer hold its last deal)
        await send({"topic": topic, "type": "batch", "events": batch})
    elif match:
        await send({"topic": topic, **batch[0]})
    else:
        for item in _merged(batch):
            await send(item)


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


def _waiting(events: trio.MemoryReceiveChannel[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that came since the last was received, without waiting."""
    found = []
    while True:
        try:
            found.append(events.receive_nowait())
        except trio.WouldBlock:
            return found


def _flat(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A match topic's items as its events in order, without the topic: each batch the
    follower published (several events at a time) opened, anything else as it is."""
    events: list[dict[str, Any]] = []
    for item in items:
        if item.get("type") == "batch":
            events += item["events"]
        else:
            events.append({k: v for k, v in item.items() if k != "topic"})
    return events


def _merged(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A topic's items of one frame, the match list's changes that follow one another as one
    (each entry as last changed, the ids gone in all): what a page makes of them in turn."""
    out: list[dict[str, Any]] = []
    for item in items:
        if not (item.get("type") == "changed" and out and out[-1].get("type") == "changed"):
            out.append(item)
            continue
        entries = {entry["id"]: entry for entry in out[-1]["matches"]}
        gone = dict.fromkeys(out[-1]["gone"])
        for entry in item["matches"]:
            entries[entry["id"]] = entry
            gone.pop(entry["id"], None)
        for match_id in item["gone"]:
            entries.pop(match_id, None)
            gone[match_id] = None
        out[-1] = {**item, "matches": list(entries.values()), "gone": list(gone)}
    return out


def _tail(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A match's events from its current deal's start on, after its first event (the
    match's start) and the last deal's end before (the scores so far): what a page needs to
    draw the match now."""
    start = next((i for i in range(len(events) - 1, -1, -1)
                  if events[i].get("type") == "deal_start"), 0)
    head = [e for e in events[:1] if e.get("type") == "match_start" and start > 0]
    ended = next((events[i] for i in range(start - 1, 0, -1)
                  if events[i].get("type") == "deal_end"), None)
    return head + ([ended] if ended is not None else []) + events[start:]


def _current(topic: str, hub: Hub, run: RunFolder) -> dict[str, Any]:
    """What a new subscriber of ``topic`` hears first: the topic's state now."""
    if topic == "matches":
        return {"topic": topic, "type": "matches", "matches": run.index.latest(),
                "total": run.index.total()}
    if topic.startswith("match:"):
        match_id = topic[len("match:"):]
        live = run.live.get(match_id)
        if live is not None and run.held(match_id):
            return {"topic": topic, "type": "held"}
        if live is not None:
            return {"topic": topic, "type": "events", "labels": live.labels,
                    "events": _tail(live.events[:live.published])}
        state = "recorded" if run.recorded(match_id) else "unknown"
        return {"topic": topic, "type": state}
    if topic == "league" and "league" not in hub.last:
        status = read_league_status(run.folder)
        if status is not None:
            return {"topic": topic, "type": "league", "status": status}
    return hub.last.get(topic) or {"topic": topic, "type": "none"}
