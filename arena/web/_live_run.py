"""A run played while it is served: the reporter that feeds the hub and the live folder."""

from __future__ import annotations

import collections
import contextlib
import functools
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio

from arena.tournament import Reporter

from ._app import _i18n_routes
from ._hub import Hub
from ._league_status import write_league_status
from ._live import KEEP_S, LIVE_DIR, valid_id

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from arena.ratings import SprtStatus
    from arena.tournament import LeagueStatus, Standings

    from ._app import RunWeb
    from ._tables import Tables

__all__ = ["KEEP_S", "SWEEP_S", "RunServer", "WebReporter"]

SWEEP_S = 1.0
"""How often the runner's reporter removes the live files of the matches recorded
``KEEP_S`` ago or more."""


class WebReporter(Reporter):
    """Tells the web of the run's progress: each recorded match pokes the follower while
    someone subscribes (``poke``: the standings and match list are published at once, not
    at its next look),
    each league round's status is published as ``"league"`` and kept in
    ``OUT/live/league.json``, an sprt's status as ``"sprt"``.

    Called from the runner's thread: it reaches the hub through
    :meth:`Hub.publish_threadsafe`. Without a hub (``arena run --live``) it only writes.
    ``begin`` is called first at the run's start, once its workers are started (it starts the
    server: :class:`RunServer`). The run's display hears the run beside it, both in one
    :class:`arena.tournament.Reporters`.
    """

    def __init__(self, folder: Path, hub: Hub | None = None,
                 poke: Callable[[], None] | None = None,
                 begin: Callable[[], None] | None = None) -> None:
        self.folder = folder
        self.hub = hub
        self.poke = poke
        self.begin = begin
        self._recorded: collections.deque[tuple[float, str]] = collections.deque()
        self._swept = float("-inf")
        self._writer: ThreadPoolExecutor | None = None

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        if self.begin is not None:
            self.begin()
        for stale in (self.folder / LIVE_DIR).glob("*.jsonl"):  # of a run that was stopped
            stale.unlink(missing_ok=True)
        self._publish("progress", {"type": "progress", "total": total, "done": done})

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        match_id = str(record.get("match_id"))
        if valid_id(match_id):  # recorded: its live file goes a little later
            self._recorded.append((time.monotonic(), match_id))
        self._remove_live(time.monotonic() - KEEP_S)
        if self.poke is not None and (self.hub is None or self.hub.followed()):
            self.poke()  # nobody subscribed: the follower's next look (or a request) will do

    def sprt(self, status: SprtStatus) -> None:
        self._publish("sprt", {"type": "sprt", "line": status.summary()})

    def league(self, status: LeagueStatus) -> None:
        data = status.to_dict()
        if self._writer is None:  # the file is written off the runner's thread, in order
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="arena-live")
        self._writer.submit(write_league_status, self.folder / LIVE_DIR, data)
        self._publish("league", {"type": "league", "status": data})

    def stop(self) -> None:
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        self._remove_live(float("inf"))
        for abandoned in (self.folder / LIVE_DIR).glob("*.jsonl"):  # in flight at Ctrl-C
            abandoned.unlink(missing_ok=True)
        if self.poke is not None:
            self.poke()

    def _remove_live(self, before: float) -> None:
        """Remove the live files of the matches recorded before ``before`` (monotonic), at
        most every ``SWEEP_S`` (a file stays ``KEEP_S`` to ``KEEP_S + SWEEP_S``): one look
        at the live folder a sweep, not a removal a record on the runner's thread, most
        matches having no file (nobody followed them, or they were over in their first
        batch's time)."""
        recorded = self._recorded
        if not recorded or recorded[0][0] > before or (
                before != float("inf") and time.monotonic() < self._swept + SWEEP_S):
            return
        self._swept = time.monotonic()
        due = set()
        while recorded and recorded[0][0] <= before:
            due.add(f"{recorded.popleft()[1]}.jsonl")
        live = self.folder / LIVE_DIR
        try:
            names = os.listdir(live)
        except OSError:  # no live folder: no file
            return
        for name in due.intersection(names):
            (live / name).unlink(missing_ok=True)

    def _publish(self, topic: str, event: Mapping[str, Any]) -> None:
        if self.hub is not None:
            self.hub.publish_threadsafe(topic, event)


class RunServer:
    """The server of a run played in the caller's thread (``arena run --serve``): the run's
    :class:`~arena.web.RunWeb` in a trio run of its own, in a thread. A match the runner plays
    in its own thread (one job) publishes to its hub directly (``LiveMatch``).

    The runner's thread stays the main thread, so Ctrl-C stops the run there as it stops a
    run without a server (the matches in flight abandoned at once), and the run's workers are
    forked before :meth:`start` (a thread running forbids the fork).
    """

    def __init__(self, folder: Path, host: str, port: int,
                 extra: Sequence[BaseRoute] = (), bodies: Mapping[str, int] | None = None,
                 tables: Callable[[Hub], Tables] | None = None) -> None:
        self.folder = folder
        self.make_tables = tables
        """People's tables beside the run (a competition's, docs/competition.md), made with
        the server's hub."""
        self.extra = tuple(extra)
        """Routes served beside the run's (a competition's, docs/competition.md)."""
        self.bodies = dict(bodies or {})
        """Their paths that take bodies longer than the server's door lets by, and how long."""
        self.host = host
        self.port = port
        self.hub = Hub()
        self.url = ""
        self.web: RunWeb | None = None
        self._thread: threading.Thread | None = None
        self._listening = threading.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        self._error: BaseException | None = None
        _i18n_routes()  # its imports (the rules page's markdown) before the run's clock starts

    def start(self) -> str:
        """Listen, in a thread of its own; the URL. The error of a socket that cannot listen
        (OSError) is raised here."""
        self._thread = threading.Thread(target=self._main, name="arena-web", daemon=True)
        self._thread.start()
        self._listening.wait()
        if self._error is not None:
            raise self._error
        return self.url

    def poke(self) -> None:
        """Have the follower read the run's folder now (from any thread)."""
        if self.web is not None:
            self.web.follower.poke()

    def step(self) -> None:
        """Read the run's folder once and publish what is new (from the runner's thread)."""
        if self._token is not None and self.web is not None:
            with contextlib.suppress(trio.RunFinishedError, trio.Cancelled):
                trio.from_thread.run(self.web.follower.step, trio_token=self._token)

    def wait(self) -> None:
        """Serve until the server stops (Ctrl-C raises KeyboardInterrupt here meanwhile:
        the thread is joined a quarter of a second at a time, so the main thread returns to
        the interpreter, which runs the signal's handler, at least that often)."""
        while self._thread is not None and self._thread.is_alive():
            self._thread.join(0.25)
        if self._error is not None:
            raise self._error

    def stop(self) -> None:
        """Stop serving: the open connections are closed, the thread ends."""
        if self._token is not None and self._scope is not None:
            with contextlib.suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self._scope.cancel)
        if self._thread is not None:
            self._thread.join()

    def _main(self) -> None:
        try:
            trio.run(self._serve)
        except BaseException as exc:  # handed to the caller's thread
            self._error = _leaf(exc)
        finally:
            self._listening.set()

    async def _serve(self) -> None:
        from ._app import RunWeb

        self.folder.mkdir(parents=True, exist_ok=True)
        tables = self.make_tables(self.hub) if self.make_tables is not None else None
        web = RunWeb(self.folder, self.hub, tables=tables, extra=self.extra,
                     bodies=self.bodies, standings_apart=True)
        with trio.CancelScope() as scope:
            self._scope, self._token = scope, trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                self.url = await nursery.start(functools.partial(web.serve, self.host,
                                                                 self.port))
                if tables is not None:
                    tables.base_url = self.url
                self.web = web
                self._listening.set()


def _leaf(exc: BaseException) -> BaseException:
    """The one error an exception group holds (a nursery's), else the group itself."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc
