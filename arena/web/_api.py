"""The JSON API (docs/web.md): standings, matches, one match, a league's status.

Every answer is JSON; a bad id or path is a one-line JSON error with its status code.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import trio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.ratings import RatingsError
from arena.records import RECORDS, public_record
from arena.report import GrowingStandings, standings_text

from ._apart import ApartStandings
from ._league_status import read_league_status
from ._live import valid_id
from ._match_list import STATES

if TYPE_CHECKING:
    from ._live import RunFolder

__all__ = ["StandingsCache", "api_routes", "encode", "error", "json_answer"]


def error(status: int, message: str) -> JSONResponse:
    """A one-line JSON error: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


def encode(document: Any) -> bytes:
    """``document`` as JSON bytes, as Starlette's ``JSONResponse`` writes it."""
    return json.dumps(document, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


async def json_answer(document: Any) -> Response:
    """A JSON answer encoded in a worker thread: a record may be large, and the event loop
    serves every page, socket and table meanwhile."""
    body = await trio.to_thread.run_sync(encode, document)
    return Response(body, media_type="application/json")


class StandingsCache:
    """The standings document of the run's records, computed again only when they grew.

    It is :func:`arena.report.standings_document` with its defaults, the one computation
    ``standings.json`` is written by, read as the file grows (each record once:
    :class:`arena.report.GrowingStandings`): a finished run's ``/api/standings`` is that
    file's text byte for byte (:meth:`text`). With ``apart`` (``arena run --serve``, whose
    server shares the runner's machine) it is computed in a child process at a lower priority
    (:class:`~arena.web._apart.ApartStandings`), else in a thread of this one."""

    def __init__(self, run: RunFolder, *, apart: bool = False) -> None:
        self.run = run
        self._key: int | None = None
        self._text: str | None = None
        self._document: dict[str, Any] | None = None
        self._lock = trio.Lock()
        self._growing: GrowingStandings | ApartStandings = (
            ApartStandings(run.folder / RECORDS) if apart
            else GrowingStandings(run.folder / RECORDS))

    async def get(self) -> dict[str, Any]:
        """The document for the records read so far (computed in a thread)."""
        async with self._lock:
            key = len(self.run.records)
            if self._document is None or key != self._key:
                self._document = await trio.to_thread.run_sync(self._growing.document)
                self._text = None
                self._key = key
            return self._document

    def close(self) -> None:
        """End the child process that computes them, if any."""
        if isinstance(self._growing, ApartStandings):
            self._growing.close()

    async def text(self) -> str:
        """The document as ``standings.json`` spells it."""
        document = await self.get()
        if self._text is None:
            self._text = standings_text(document)
        return self._text


class ListAnswers:
    """The encoded answers of ``/api/matches`` for the list as it is (its
    :attr:`~arena.web._match_list.MatchIndex.stamp`), each query's made once: a page of
    hundreds of matches in play asked by every page costs its encoding once per change of the
    list, not once per request. Each is kept plain and gzipped (a list of matches compresses
    some tenfold, which a busy server's socket and a loaded browser read sooner)."""

    SIZE = 16
    """Queries kept for one stamp (a client asking many is answered all the same)."""

    def __init__(self) -> None:
        self._stamp: object = None
        self._bodies: dict[object, tuple[bytes, bytes]] = {}

    def get(self, stamp: object, query: object, make: Callable[[], Any]
            ) -> tuple[bytes, bytes]:
        """The answer to ``query`` (plain, gzipped) for the list at ``stamp``, made of
        ``make()`` unless kept."""
        if stamp != self._stamp or len(self._bodies) >= self.SIZE:
            self._stamp = stamp
            self._bodies.clear()
        kept = self._bodies.get(query)
        if kept is None:
            body = encode(make())
            kept = self._bodies[query] = (body, gzip.compress(body, compresslevel=1, mtime=0))
        return kept


def _gzip_accepted(request: Request) -> bool:
    return any(part.split(";")[0].strip() == "gzip"
               for part in request.headers.get("accept-encoding", "").split(","))


def _list_answer(request: Request, run: RunFolder, answers: ListAnswers,
                 query: tuple[list[str] | None, int, int | None, int | None]) -> Response:
    """``/api/matches``' answer to ``query`` (:func:`_list_query`), gzipped when accepted."""

    def make() -> dict[str, Any]:
        states, offset, limit, last = query
        page, total = run.index.page(states, offset, limit, last)
        return {"matches": page, "total": total}

    body, zipped = answers.get(run.index.stamp, (tuple(query[0] or ()), *query[1:]), make)
    if _gzip_accepted(request):
        return Response(zipped, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(body, media_type="application/json", headers={"Vary": "Accept-Encoding"})


def _list_query(request: Request) -> tuple[list[str] | None, int, int | None, int | None]:
    """``/api/matches``' query: ``state`` (comma-separated), ``offset``, ``limit``, ``last``;
    a ValueError names a bad one."""
    query = request.query_params
    unknown = sorted(set(query) - {"state", "offset", "limit", "last"})
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0][:40]!r} (state, offset, limit, last)")
    states = None
    if "state" in query:
        states = [s for s in query["state"].split(",") if s]
        bad = [s for s in states if s not in STATES]
        if bad or not states:
            raise ValueError(f"state: {(bad or [''])[0][:40]!r} is none of {', '.join(STATES)}")
    numbers: list[int | None] = []
    for key in ("offset", "limit", "last"):
        text = query.get(key)
        if text is not None and not (text.isdigit() and len(text) <= 9):
            raise ValueError(f"{key}: {text[:40]!r} is not a whole number from 0")
        numbers.append(None if text is None else int(text))
    return states, numbers[0] or 0, numbers[1], numbers[2]


def api_routes(run: RunFolder, standings: StandingsCache, sync: Callable[[], None]
               ) -> list[Route]:
    """The API's routes over ``run``, which ``sync()`` brings up to date."""

    async def get_standings(request: Request) -> Response:
        sync()
        try:
            return Response(await standings.text(), media_type="application/json")
        except RatingsError as exc:
            return error(503, f"cannot read the records: {exc}")

    answers = ListAnswers()

    async def get_matches(request: Request) -> Response:
        try:
            query = _list_query(request)
        except ValueError as exc:
            return error(400, str(exc))
        sync()
        return _list_answer(request, run, answers, query)

    async def get_match(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        if not valid_id(match_id):
            return error(404, "not a match id")
        sync()
        if run.recorded(match_id):
            if match_id in run.records and run.waiting_for_set(match_id):
                return error(409, f"match {match_id} is finished; its hands are shown once "
                             "every match of its duplicate set is")
            record = await trio.to_thread.run_sync(run.record, match_id)
            if record is None:
                return error(404, f"match {match_id}'s record is no longer in its file")
            return await json_answer({"state": "finished", "record": public_record(record)})
        live = run.live.get(match_id)
        if live is not None and run.held(match_id):
            return error(409, f"match {match_id} is in play; its moves are shown once no "
                         "other match of its duplicate set is unplayed or in play")
        if live is not None:
            return JSONResponse({"state": "playing", "labels": live.labels,
                                 "events": live.events})
        return error(404, f"no match {match_id} in this run")

    async def get_league(request: Request) -> JSONResponse:
        status = read_league_status(run.folder)
        if status is None:
            return error(404, "no league status in this run: a league writes it each round "
                         "when run with --serve or --live (arena ratings OUT gives a finished "
                         "league's leaderboard)")
        return JSONResponse(status)

    return [
        Route("/api/standings", get_standings),
        Route("/api/matches", get_matches),
        Route("/api/matches/{match_id:path}", get_match),
        Route("/api/league", get_league),
    ]
