"""The web app of a run: its pages, its JSON API, its live updates (docs/web.md)."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

import trio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from ._api import StandingsCache, api_routes, error
from ._hub import Hub
from ._live import RunFolder
from ._live_report import STATIC, ReportBuilder, report_routes
from ._socket import spectator_socket


class Tables(Protocol):
    """What the app needs of people's tables (``arena.web._tables.Tables``): its routes."""

    def routes(self) -> list[BaseRoute]:
        """The tables' pages, API and sockets."""
        ...

__all__ = ["Follower", "Tables", "create_app"]


POLL_S = 0.25
"""How often the follower reads the run's folder for new records and live events."""
STEP_S = 0.1
"""The least time between two of the follower's reads, however often it is poked."""
STANDINGS_S = 1.0
"""The least time between two computations of the standings published while records arrive."""


class Follower:
    """Reads the run's folder and publishes what is new to the hub: ``matches`` and
    ``standings`` when a record is added, ``match:<id>`` with a match's new public events.

    What nobody subscribes to is not computed (a topic's subscriber hears its state now
    first): a run served to no one costs the reading of its folder alone."""

    def __init__(self, run: RunFolder, hub: Hub, standings: StandingsCache,
                 report: ReportBuilder | None = None) -> None:
        self.run = run
        self.hub = hub
        self.standings = standings
        self.report = report
        self._sent: dict[str, int] = {}  # match id -> live events published
        self._wake = trio.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._standings_due = False
        self._standings_at = float("-inf")

    def poke(self) -> None:
        """Look now rather than at the next poll (safe from any thread, once it runs)."""
        if self._token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self._wake.set)

    async def run_forever(self, poll_s: float = POLL_S) -> None:
        """Follow until cancelled (and rebuild the served report meanwhile)."""
        self._token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            if self.report is not None:
                nursery.start_soon(self.report.run_forever)
            await self._poll(poll_s)

    async def _poll(self, poll_s: float) -> None:
        while True:
            stepped = trio.current_time()
            await self.step()
            with trio.move_on_after(poll_s):
                await self._wake.wait()
            self._wake = trio.Event()
            await trio.sleep_until(stepped + STEP_S)  # pokes at each record come together

    def sync(self) -> None:
        """Read what is new and publish it at once (the standings at the next :meth:`step`).

        Whoever reads the run folder reads it through here (the API too), so that every
        event read is published exactly once and a new subscriber's snapshot (the events
        read so far) meets the stream where it goes on."""
        run, hub = self.run, self.hub
        recorded, grown = run.refresh()
        for match_id in [*grown, *recorded]:
            match = run.live.get(match_id) or run.ended.get(match_id)
            if match is None or run.held(match_id):  # the duplicate-set rule (_live.py)
                continue
            topic = f"match:{match_id}"
            if hub.subscribers(topic):  # else a subscriber starts from the events read
                for event in match.events[self._sent.get(match_id, 0):]:
                    hub.publish(topic, event)
            self._sent[match_id] = len(match.events)
        for match_id in recorded:
            self._sent.pop(match_id, None)
            if hub.subscribers(f"match:{match_id}"):
                hub.publish(f"match:{match_id}", {"type": "recorded"})
        if (recorded or grown) and hub.subscribers("matches"):
            hub.publish("matches", {"type": "matches", "matches": run.match_list()})
        self._standings_due = self._standings_due or bool(recorded)

    async def step(self) -> None:
        """Read once and publish what is new, the standings included (the first, then while
        someone subscribes to them, at most every ``STANDINGS_S``)."""
        self.sync()
        hub = self.hub
        if (self._standings_due  # the first ever, for a late subscriber, then as they listen
                and (hub.subscribers("standings") or "standings" not in hub.last)
                and trio.current_time() >= self._standings_at + STANDINGS_S):
            self._standings_due = False
            self._standings_at = trio.current_time()
            hub.publish("standings", {"type": "standings",
                                      "standings": await self.standings.get()})


class _Static(StaticFiles):
    """The package's static files; a path no file can have (a NUL byte in it, which the
    file system refuses with a ValueError) is a 404 like any missing file."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if "\0" in path:
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)


def _i18n_routes() -> list[BaseRoute]:
    """The language routes (the rules page, the messages), when that module is installed."""
    if importlib.util.find_spec("arena.web._rules_page") is None:
        return []
    i18n = importlib.import_module("arena.web._rules_page")
    routes: list[BaseRoute] = i18n.i18n_routes()
    return routes


def create_app(out: Path, hub: Hub, *, tables: Tables | None = None,
               extra: Sequence[BaseRoute] = (), bodies: Mapping[str, int] | None = None
               ) -> Starlette:
    """The app of the run in ``out``: pages, API and live updates from ``hub``.

    ``tables`` (people's tables) adds its routes, and ``extra`` routes of its own (a
    competition's endpoints, ``arena.competition``), with ``bodies``, the bounds of the
    request bodies of those of its paths that take more than the server's door lets by
    (``app.state.body_bounds``, which :func:`serve` reads). The app's
    :class:`Follower` (``app.state.follower``) must run beside the server: :func:`serve_run`.
    """
    run = RunFolder(Path(out))
    standings = StandingsCache(run)
    report = ReportBuilder(
        run, on_built=lambda n: hub.publish("report", {"type": "report", "build": n}),
        watched=lambda: bool(hub.subscribers("report")))
    follower = Follower(run, hub, standings, report)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "live.html", media_type="text/html")

    async def match_page(request: Request) -> Response:
        return FileResponse(STATIC / "match.html", media_type="text/html")

    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/match", match_page),
        *api_routes(run, standings, follower.sync),
        WebSocketRoute("/ws", spectator_socket(hub, run)),
        *report_routes(report, follower.sync),
        Mount("/static", _Static(directory=STATIC), name="static"),
    ]
    if tables is not None:
        routes += tables.routes()
    routes += extra
    routes += _i18n_routes()

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return JSONResponse({"error": f"{detail}: {request.url.path}"[:300]}, status_code=status)

    async def failure(request: Request, exc: Exception) -> Response:
        return error(500, f"internal error ({type(exc).__name__})")

    app = Starlette(routes=routes,
                    exception_handlers={HTTPException: not_found, Exception: failure})
    app.state.follower = follower
    app.state.run = run
    app.state.hub = hub
    app.state.body_bounds = dict(bodies or {})
    return app
