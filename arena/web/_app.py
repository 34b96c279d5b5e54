"""The web app of a run: its pages, its JSON API, its live updates (docs/web.md)."""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import trio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from ._api import StandingsCache, api_routes, error
from ._feed import Feed, local_feed
from ._follower import Follower
from ._headers import SECURITY_HEADERS, SecurityHeaders
from ._hub import Hub
from ._live import RunFolder
from ._live_report import STATIC, ReportBuilder, report_routes, safe_path
from ._server import serve
from ._socket import spectator_socket
from ._static import package_file

if TYPE_CHECKING:
    from arena.referee import MatchSpec


class Tables(Protocol):
    """What the app needs of people's tables (``arena.web._tables.Tables``): its routes,
    the nursery its matches play in, and where their public events go (``feed``: the app
    sets it to its follower's, so they reach the hub with no file)."""

    feed: Callable[[MatchSpec], Feed]

    def routes(self) -> list[BaseRoute]:
        """The tables' pages, API and sockets."""
        ...

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                  ) -> None:
        """Play the tables' matches until cancelled."""
        ...

__all__ = ["RunWeb", "Tables", "create_app"]


class _Static(StaticFiles):
    """The package's static files, a GET's answered from memory (:func:`package_file`); a
    path no file can have (a NUL byte in it, which the file system refuses with a
    ValueError) is a 404 like any missing file."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if "\0" in path:
            raise HTTPException(status_code=404)
        if scope["method"] == "GET":
            found = safe_path(STATIC, path)
            answer = None if found is None else package_file(Request(scope), found)
            if answer is not None:
                return answer
        return await super().get_response(path, scope)


def _i18n_routes() -> list[BaseRoute]:
    """The language routes (the rules page, the messages), when that module is installed."""
    if importlib.util.find_spec("arena.web._rules_page") is None:
        return []
    i18n = importlib.import_module("arena.web._rules_page")
    routes: list[BaseRoute] = i18n.i18n_routes()
    return routes


class RunWeb:
    """The web of the run in ``out``: its app (pages, API, live updates), its hub, its
    follower and, with ``tables``, its people's tables; the one entry ``arena serve`` and
    ``arena run --serve`` serve a run by (:meth:`serve`).

    The app's lifespan (Starlette's ``lifespan=``) runs the follower of the run and the tables
    beside the server, and while it runs the run's matches played in this process (a run and
    its server in one process through the Python API, :class:`~arena.web._feed.LiveMatch`)
    publish to the hub directly. ``extra`` routes are served beside the run's (a competition's
    endpoints, ``arena.competition``), ``bodies`` bound the request bodies of those of its
    paths that take more than the server's door lets by. Every answer of every route carries
    the security headers (:class:`~arena.web._headers.SecurityHeaders`). With
    ``standings_apart`` the standings are computed in a child process at a lower priority
    (``arena run --serve``: the server shares the runner's machine,
    :class:`~arena.web._apart.ApartStandings`).
    """

    def __init__(self, out: Path, hub: Hub | None = None, *, tables: Tables | None = None,
                 extra: Sequence[BaseRoute] = (), bodies: Mapping[str, int] | None = None,
                 standings_apart: bool = False) -> None:
        self.out = Path(out)
        self.hub = hub or Hub()
        self.tables = tables
        self.bodies = dict(bodies or {})
        self.run = RunFolder(self.out)
        hub = self.hub
        self.standings = StandingsCache(self.run, apart=standings_apart)
        self.report = ReportBuilder(
            self.run, on_built=lambda n: hub.publish("report", {"type": "report", "build": n}),
            watched=lambda: bool(hub.subscribers("report")))
        self.follower = Follower(self.run, hub, self.standings, self.report)
        if tables is not None:
            tables.feed = self.follower.feed
        self.app = self._app(extra)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[dict[str, Any]]:
        """The follower (and the tables) beside the server, for as long as it serves; the
        lifespan's state (Starlette's ``request.state`` in every request) names the run
        and its follower, which routes served beside the run's (``extra``) read."""
        self.hub.bind()
        self.follower.bind()  # before the matches of this process may publish
        try:
            async with trio.open_nursery() as nursery:
                # the folder read once before the server listens; the standings are the
                # follower's first step's, the server listening: the first document reads
                # every record (a million matches: minutes), nobody waits for it to see a page
                self.follower.sync()
                nursery.start_soon(self.follower.run_forever)
                if self.tables is not None:
                    await nursery.start(self.tables.run)
                with local_feed(self.out, functools.partial(self.follower.feed,
                                                            threadsafe=True)):
                    yield {"run": self.run, "follower": self.follower}
                nursery.cancel_scope.cancel()
        finally:
            self.standings.close()

    async def serve(self, host: str, port: int, *, names: Iterable[str] = (),
                    task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the run on ``host:port`` until cancelled (:func:`~arena.web.serve`);
        ``task_status.started(url)`` once it listens, its follower and tables running."""
        await serve(self.app, host, port, names=names, bodies=self.bodies,
                    task_status=task_status)

    def _app(self, extra: Sequence[BaseRoute]) -> Starlette:
        run, follower = self.run, self.follower

        def page(name: str) -> Callable[[Request], Awaitable[Response]]:
            async def answer(request: Request) -> Response:
                if request.method == "GET":
                    kept = package_file(request, STATIC / name, "text/html")
                    if kept is not None:
                        return kept
                return FileResponse(STATIC / name, media_type="text/html")

            return answer

        index, match_page = page("live.html"), page("match.html")

        routes: list[BaseRoute] = [
            Route("/", index),
            Route("/match", match_page),
            *api_routes(run, self.standings, follower.sync),
            WebSocketRoute("/ws", spectator_socket(self.hub, run, follower.catch_up)),
            *report_routes(self.report, follower.sync),
            Mount("/static", _Static(directory=STATIC), name="static"),
        ]
        if self.tables is not None:
            routes += self.tables.routes()
        routes += extra
        routes += _i18n_routes()

        async def not_found(request: Request, exc: Exception) -> Response:
            status = exc.status_code if isinstance(exc, HTTPException) else 500
            detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
            return JSONResponse({"error": f"{detail}: {request.url.path}"[:300]},
                                status_code=status)

        async def failure(request: Request, exc: Exception) -> Response:
            # Starlette answers an unhandled exception outside every middleware, so this
            # answer carries the security headers itself.
            answer = error(500, f"internal error ({type(exc).__name__})")
            answer.headers.update(SECURITY_HEADERS)
            return answer

        return Starlette(routes=routes, lifespan=self._lifespan,
                         middleware=[Middleware(SecurityHeaders)],
                         exception_handlers={HTTPException: not_found, Exception: failure})


def create_app(out: Path, hub: Hub | None = None, *, tables: Tables | None = None,
               extra: Sequence[BaseRoute] = ()) -> Starlette:
    """The app of the run in ``out`` (:attr:`RunWeb.app`), its follower and tables run by
    its lifespan: serve it with :func:`~arena.web.serve` (any ASGI server that runs the
    lifespan in a trio run will do)."""
    return RunWeb(out, hub, tables=tables, extra=extra).app
