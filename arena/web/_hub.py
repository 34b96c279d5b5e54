"""In-process publish and subscribe on trio memory channels: what the web pages hear.

Topics: ``"standings"`` (the standings document after each match), ``"matches"`` (the list of
matches changed: one finished, one began), ``"league"`` (a league's status each round) and
``"match:<id>"`` (a match in play: its public events, docs/web.md).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

import trio

__all__ = ["LAGGED", "Hub"]

LAGGED = {"type": "lagged"}
"""What a subscriber whose buffer was full hears instead of the events it missed."""


class Hub:
    """Publishes events to the subscribers of a topic; the publisher never waits.

    Each subscriber has a buffer of ``buffer`` events; when it is full, every event in it is
    dropped for one ``{"type": "lagged"}`` (:data:`LAGGED`): the subscriber fetches the
    topic's state now instead (a slow page gets the latest state, not a backlog, and never
    holds the publisher up).
    :meth:`publish` is called in the trio run the hub lives in; a thread (the runner of
    ``arena run --serve``) calls :meth:`publish_threadsafe` after :meth:`bind`.
    """

    def __init__(self, buffer: int = 256) -> None:
        self.buffer = buffer
        self._subscribers: dict[
            str, set[tuple[trio.MemorySendChannel[dict[str, Any]],
                           trio.MemoryReceiveChannel[dict[str, Any]]]]] = {}
        self._token: trio.lowlevel.TrioToken | None = None
        self._count = 0
        self.last: dict[str, dict[str, Any]] = {}
        """The last event of each topic, for a page that subscribes late."""

    def bind(self) -> None:
        """Remember the current trio run, for :meth:`publish_threadsafe`."""
        self._token = trio.lowlevel.current_trio_token()

    def publish(self, topic: str, event: Mapping[str, Any]) -> None:
        """Send ``event`` to every subscriber of ``topic`` now, without blocking."""
        item = {"topic": topic, **event}
        self.last[topic] = item
        for send, receive in list(self._subscribers.get(topic, ())):
            try:
                send.send_nowait(item)
            except trio.WouldBlock:
                with contextlib.suppress(trio.WouldBlock):
                    while True:
                        receive.receive_nowait()  # the backlog goes
                with contextlib.suppress(trio.WouldBlock):
                    send.send_nowait({"topic": topic, **LAGGED})
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._subscribers.get(topic, set()).discard((send, receive))

    def publish_threadsafe(self, topic: str, event: Mapping[str, Any]) -> None:
        """:meth:`publish` from another thread (after :meth:`bind`); never waits. Events
        published after the trio run ended are dropped."""
        if self._token is None:
            raise RuntimeError("Hub.bind() was not called in the trio run")
        with contextlib.suppress(trio.RunFinishedError):
            self._token.run_sync_soon(self.publish, topic, dict(event))

    def topics(self) -> list[str]:
        """The topics someone subscribes to now."""
        return list(self._subscribers)

    def followed(self) -> bool:
        """Whether anyone subscribes to anything now (safe from any thread)."""
        return bool(self._subscribers)

    def subscribers(self, topic: str) -> int:
        """How many subscribe to ``topic`` now."""
        return len(self._subscribers.get(topic, ()))

    def subscriptions(self) -> int:
        """How many subscriptions there are now, of every topic."""
        return self._count

    @contextlib.asynccontextmanager
    async def subscribe(self, topic: str) -> AsyncIterator[
            trio.MemoryReceiveChannel[dict[str, Any]]]:
        """A channel of ``topic``'s events from now on, until the block ends."""
        send, receive = trio.open_memory_channel[dict[str, Any]](self.buffer)
        pair = (send, receive)
        self._subscribers.setdefault(topic, set()).add(pair)
        self._count += 1
        try:
            yield receive
        finally:
            self._count -= 1
            group = self._subscribers.get(topic)
            if group is not None:
                group.discard(pair)
                if not group:
                    del self._subscribers[topic]
            send.close()
            receive.close()
