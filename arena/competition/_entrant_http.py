"""The entrant's page and its API, beside the competition's endpoints (docs/competition.md).

- ``GET /entrant/NAME``: the page (static: the name is read by its script, never written
  into the markup by the server);
- ``GET /api/entrants/NAME``: its public document (:meth:`EntrantView.public`);
- ``GET /api/entrants/NAME/private`` with ``Authorization: Bearer TOKEN``: its logs and its
  own faults' details, for NAME's own token alone (401 without a token or for a wrong one,
  403 for another entrant's).

The run's matches and standings are the served run's own (the app's ``RunFolder`` and the
standings of ``/api/standings``), read when the routes are served by ``arena.web``'s app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import trio
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ._entrant import EntrantView, league_field
from ._history import RatingHistory
from ._store import CompetitionError, Entrant, Store

__all__ = ["entrant_routes"]

_STATIC = Path(__file__).parent / "static"


def _error(exc: CompetitionError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def _served(request: Request) -> tuple[list[dict[str, Any]], dict[str, Any],
                                             list[dict[str, Any]]]:
    """The run's match list, the records of its finished matches, and the standings' rows,
    as the app serving this request reads them (none where no run is served)."""
    follower = getattr(request.state, "follower", None)  # the lifespan's (arena.web.RunWeb)
    run = getattr(request.state, "run", None)
    if follower is None or run is None:
        return [], {}, []
    follower.sync()
    matches: list[dict[str, Any]] = run.match_list()
    records = {str(m["id"]): run.record(str(m["id"])) for m in matches
               if m.get("state") in ("finished", "waiting")}
    try:
        document = await follower.standings.get()
    except ValueError:  # records that cannot be rated: the page shows no strengths
        document = {}
    return matches, records, list(document.get("standings") or ())


def entrant_routes(out: Path, store: Store,
                   entrant: Callable[[Request], Entrant]) -> list[BaseRoute]:
    """The routes of the entrants' pages of the run in ``out``; ``entrant(request)`` is
    the token's entrant (a :class:`CompetitionError`, 401, for none)."""
    history = RatingHistory()

    def view(request: Request) -> EntrantView:
        return EntrantView.find(request.path_params["name"], store, league_field(out))

    async def page(request: Request) -> Response:
        return FileResponse(_STATIC / "entrant.html", media_type="text/html")

    async def public(request: Request) -> Response:
        try:
            found = view(request)
        except CompetitionError as exc:
            return _error(exc)
        matches, records, standings = await _served(request)
        finished = [r for r in records.values() if r is not None]
        document = await trio.to_thread.run_sync(lambda: found.public(
            standings, matches, records.get, lambda since: history.get(finished, since)))
        return JSONResponse(document)

    async def private(request: Request) -> Response:
        try:
            found = view(request)
            own = entrant(request)  # the token, checked in constant time (Store.entrant)
            if not found.registered or own.name != found.name:
                raise CompetitionError(f"this token is not {found.name[:40]!r}'s: an "
                                       "entrant's logs are its own", 403)
        except CompetitionError as exc:
            return _error(exc)
        matches, records, _ = await _served(request)
        document: Mapping[str, Any] = await trio.to_thread.run_sync(
            lambda: found.private(store, matches, records.get))
        return JSONResponse(document, headers={"Cache-Control": "no-store"})

    async def asset(request: Request) -> Response:
        name = request.url.path.lstrip("/")
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return FileResponse(_STATIC / name, media_type=kind)

    return [Route("/entrant/{name}", page), Route("/entrant.js", asset),
            Route("/entrant.css", asset),
            Route("/api/entrants/{name}", public, methods=["GET"]),
            Route("/api/entrants/{name}/private", private, methods=["GET"])]
