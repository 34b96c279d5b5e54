"""The follower: what is new in the run, published on the hub.

It reads the run's folder (records as they grow; the live files of matches played in other
processes) and is handed the events of the matches played in the server's own process
(:meth:`Follower.feed`, no file), and publishes what is new: ``matches`` and ``standings``
when a record is added, ``match:<id>`` with a match's new public events.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import trio

from ._feed import LocalWatch
from ._in_play import InPlay
from ._live import LIVE_DIR, WATCHED
from ._socket import frame_s

if TYPE_CHECKING:
    from arena.referee import MatchSpec

    from ._api import StandingsCache
    from ._hub import Hub
    from ._live import RunFolder
    from ._live_report import ReportBuilder

__all__ = ["POLL_S", "STANDINGS_S", "STANDINGS_SHARE", "STEP_S", "Follower"]

POLL_S = 0.25
"""How often the follower reads the run's folder for new records and live events."""
STEP_S = 0.1
"""The least time between two of the follower's reads, however often it is poked."""
STANDINGS_S = 1.0
"""The least time between two computations of the standings published while records arrive
(and no less than ``STANDINGS_SHARE`` times the last one took)."""
STANDINGS_SHARE = 20.0
"""The standings of a long run take long (every record read, the ratings fitted): the next
computation waits this many times the last one's time, so that they take at most a
twenty-first of the time (in ``arena run --serve`` in a child process, beside the run on the
same machine)."""


class Follower:
    """Publishes what is new in the run to the hub.

    What nobody subscribes to is not computed (a topic's subscriber hears its state now
    first): a run served to no one costs the reading of its folder alone."""

    def __init__(self, run: RunFolder, hub: Hub, standings: StandingsCache,
                 report: ReportBuilder | None = None) -> None:
        self.run = run
        self.hub = hub
        self.standings = standings
        self.report = report
        self._wake = trio.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._standings_due = False
        self._standings_at = float("-inf")
        self._standings_pause = STANDINGS_S
        self._matches_due = False
        self._marked = True  # a marker left by a server stopped is removed at the first step
        self._flushes: list[Callable[[], None]] = []  # matches in process with events to publish
        self._poked = False  # a poke on its way, not yet answered by a read of the folder
        self._flushed_at = float("-inf")

    def poke(self) -> None:
        """Look now rather than at the next poll (safe from any thread, once it runs). Pokes
        before the next read of the folder come together: the runner, which pokes at each
        record (``arena run --serve``: a line to the server's process each), wakes the
        server's trio run at most once a read."""
        if self._token is not None and not self._poked:
            self._poked = True
            with contextlib.suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self._wake.set)

    def bind(self) -> None:
        """Remember the current trio run: :meth:`poke` and a ``threadsafe`` :meth:`feed`
        reach it from other threads (:meth:`run_forever` binds too)."""
        self._token = trio.lowlevel.current_trio_token()

    async def run_forever(self, poll_s: float = POLL_S) -> None:
        """Follow until cancelled (and rebuild the served report meanwhile)."""
        self.bind()
        async with trio.open_nursery() as nursery:
            if self.report is not None:
                nursery.start_soon(self.report.run_forever)
            try:
                await self._poll(poll_s)
            finally:
                self._mark(False)

    async def _poll(self, poll_s: float) -> None:
        while True:
            stepped = trio.current_time()
            await self.step()
            with trio.move_on_after(poll_s):
                await self._wake.wait()
            self._wake = trio.Event()
            await trio.sleep_until(stepped + STEP_S)  # pokes at each record come together

    # ------------------------------------------------------------------ matches in process

    def feed(self, spec: MatchSpec, *, threadsafe: bool = False) -> LocalWatch:
        """The ``watch`` of a match played in this process: its events go to the hub with no
        file. Called in the server's trio run, or with ``threadsafe`` from another thread
        (a runner's in this process, through the Python API) once :meth:`run_forever`
        runs."""
        match = InPlay(spec.match_id, spec.set, list(spec.labels), spec.round, local=True)
        topic = f"match:{spec.match_id}"
        hub = self.hub

        def watched(event: Mapping[str, Any]) -> bool:
            return bool(hub.subscribers(topic)) or (
                event.get("type") == "deal_end" and bool(hub.subscribers("matches")))

        def flush() -> None:
            self.publish_match(spec.match_id, live=True)

        if not threadsafe:
            self._begin(match)
            return LocalWatch(match, flush, self._later, watched)
        token = self._token
        if token is None:
            raise RuntimeError("the follower is not running")

        def soon(f: Callable[[], None]) -> None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(f)

        soon(lambda: self._begin(match))
        return LocalWatch(match, flush, soon, watched,
                          listening=lambda: bool(hub.subscribers(topic)))

    def _later(self, flush: Callable[[], None]) -> None:
        """Publish a match in process's new events at the follower's next step (at most
        ``STEP_S`` away while they come; a spectator hears a frame at most every ``FRAME_S``
        anyway), and no sooner than half a spectator's frame after the last publication
        (``_socket.frame_s``: 0.4 s with 200 spectators, who each hear a frame every 0.8 s):
        a table's decisions cost it an append each, not a publication each. Before the
        follower runs, at once."""
        if self._token is None:
            flush()
            return
        self._flushes.append(flush)
        self._wake.set()

    def _begin(self, match: InPlay) -> None:
        self.run.add_local(match)
        self._matches_due = True  # published at the next step, with what else changed

    def publish_match(self, match_id: str, *, live: bool = False) -> None:
        """Publish the events of ``match_id`` not yet published (none while it is held: the
        duplicate-set rule, _live.py), several as one ``{"type": "batch", "events": [...]}``
        (the events as the match has them, without the topic); with ``live``, a match in
        process whose deal ended moves the match list."""
        run, hub = self.run, self.hub
        match = run.live.get(match_id) or run.ended.get(match_id)
        if match is None or run.held(match_id):
            return
        topic = f"match:{match_id}"
        end = len(match.events)
        new = match.events[match.published:end]
        if new and hub.subscribers(topic):  # else a subscriber starts from those published
            # one item for what came since the last publication, however many: a fast table
            # costs the hub one item per subscriber a step, not one per event
            hub.publish(topic, new[0] if len(new) == 1 else {"type": "batch", "events": new})
        match.published = end
        if live and not self._matches_due and any(e.get("type") == "deal_end" for e in new):
            self._matches_due = True  # its scores: at the next step, with what else changed

    def catch_up(self, topic: str) -> None:
        """Before a new subscriber of ``topic``: what is new goes to its subscribers so far
        (a match in process's events, the match list's changes), so that the new one's
        snapshot ends where the stream goes on."""
        if topic.startswith("match:"):
            self.publish_match(topic[len("match:"):])
        elif topic == "matches":
            self.publish_matches()

    def publish_matches(self) -> None:
        """What changed in the match list, to the ``matches`` topic (docs/web.md)."""
        changed, gone = self.run.index.changes()
        if changed or gone:
            self.hub.publish("matches", {"type": "changed", "matches": changed, "gone": gone,
                                         "total": self.run.index.total()})

    # ------------------------------------------------------------------ the folder

    def sync(self) -> None:
        """Read what is new and publish it at once (the standings at the next :meth:`step`).

        Whoever reads the run folder reads it through here (the API too), so that every
        event read is published exactly once and a new subscriber's snapshot (the events
        published so far) meets the stream where it goes on."""
        run, hub = self.run, self.hub
        self._poked = False  # a record written from now on pokes again
        now = time.monotonic()
        if self._flushes and now >= self._flushed_at + frame_s(hub.subscriptions()) / 2:
            self._flushed_at = now
            flushes, self._flushes = self._flushes, []
            for flush in flushes:
                flush()
        recorded, grown = run.refresh()
        for match_id in [*grown, *recorded]:
            self.publish_match(match_id)
        for match_id in recorded:
            if hub.subscribers(f"match:{match_id}"):
                hub.publish(f"match:{match_id}", {"type": "recorded"})
        if (recorded or grown or self._matches_due) and hub.subscribers("matches"):
            self.publish_matches()
        self._matches_due = False
        self._standings_due = self._standings_due or bool(recorded)

    def _mark(self, watched: bool) -> None:
        """Keep the run's ``live/watched`` while someone follows its matches in play (the
        match list or a match), so that the run's matches begun meanwhile send their public
        events (:class:`~arena.web._feed.LiveMatch`; one ``stat`` a step while watched)."""
        marker = self.run.folder / LIVE_DIR / WATCHED
        with contextlib.suppress(OSError):
            if watched and not marker.exists():
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.touch()
            elif not watched and self._marked:
                marker.unlink(missing_ok=True)
        self._marked = watched

    async def step(self) -> None:
        """Read once and publish what is new, the standings included (the first, then while
        someone subscribes to them, at most every ``STANDINGS_S``)."""
        self.sync()
        hub = self.hub
        self._mark(any(t == "matches" or t.startswith("match:") for t in hub.topics()))
        if (self._standings_due  # the first ever, for a late subscriber, then as they listen
                and (hub.subscribers("standings") or "standings" not in hub.last)
                and trio.current_time() >= self._standings_at + self._standings_pause):
            self._standings_due = False
            self._standings_at = trio.current_time()
            standings = await self.standings.get()
            took = trio.current_time() - self._standings_at
            self._standings_pause = max(STANDINGS_S, STANDINGS_SHARE * took)
            hub.publish("standings", {"type": "standings", "standings": standings})
