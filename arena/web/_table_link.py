"""A table's one link, ``BASE/t/TABLE`` (:func:`seat_by_link`), playing again at a table
(:func:`play_again`), and who may stand in for a person who left (:func:`stand_in_bot`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from starlette.responses import JSONResponse, RedirectResponse, Response

from ._i18n import LANGUAGES
from ._table_request import Table, TableError, TableRequest

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = ["COOKIE_S", "SEAT_COOKIE", "STAND_IN", "play_again", "seat_by_link", "stand_in_bot"]

SEAT_COOKIE = "arena-seat"
"""The cookie (scoped to ``/t/TABLE``) by which a browser that took a seat through the
table's one link keeps it: the seat's token."""
COOKIE_S = 7 * 24 * 3600
"""How long the cookie keeps the seat (s)."""
STAND_IN = "greedy"
"""The bot that plays for a person away past the absence limit, unless told otherwise."""


class Tables(Protocol):
    """What playing again needs of the server's tables (``arena.web.Tables``)."""

    tables: dict[str, Table]
    base_url: str

    async def open(self, request: TableRequest, *, client: str | None = None,
                   again: Table | None = None) -> list[str]: ...


def seat_by_link(tables: Mapping[str, Table], table_id: str, request: Request) -> Response:
    """The answer to ``GET /t/TABLE``: the seat this browser took before (its cookie; at
    the table its people play again at, once the match is over and they do), else the next
    free person's seat (the cookie is set), each as a 303 to the seat's own link; else
    (every seat taken, or the match over) the spectator's page."""
    table = tables.get(table_id)
    if table is None:
        return Response("no such table", status_code=404, media_type="text/plain")
    token = request.cookies.get(SEAT_COOKIE, "")
    mine = next((p for p in table.people.values() if token and p.admits(token)), None)
    while mine is not None and table.next is not None and table.next in tables:
        table = tables[table.next]  # they play again: the same seat, the same token
        mine = table.people[mine.seat]
    free = mine or next((p for p in table.people.values() if not p.claimed), None)
    if free is None or (table.status != "playing" and mine is None):
        return RedirectResponse(f"/match?id={table.spec.match_id}", status_code=303,
                                headers={"Cache-Control": "no-store"})
    free.claimed = True
    if mine is None:  # a secret of its own for this browser (the server keeps its digest)
        token = free.grant()
    lang = request.query_params.get("lang", "")
    keep = f"&lang={lang}" if lang in LANGUAGES else ""  # never echo what is not ours
    answer = RedirectResponse(f"/t/{table.id}/{free.seat}?token={token}{keep}",
                              status_code=303, headers={"Cache-Control": "no-store"})
    answer.set_cookie(SEAT_COOKIE, token, max_age=COOKIE_S, path=f"/t/{table.id}",
                      httponly=True, samesite="lax")
    return answer


async def play_again(tables: Tables, request: Request) -> Response:
    """``POST /api/tables/TABLE/again`` with ``{"token": TOKEN}``, a seat's token of a table
    whose match is over: the table its people play again at (opened by the first to ask:
    the same request, each person at the same seat with the same token and name), as
    ``{"table": its link, "link": the asker's seat there}``. Every page of the old table
    hears ``{"type": "again", "table": ID}``."""
    body = await request.body()
    try:
        token = json.loads(body).get("token") if len(body) <= 4096 else None
    except (ValueError, AttributeError):  # not JSON, not an object
        token = None
    table = tables.tables.get(request.path_params["table"])
    mine = next((p for p in table.people.values() if isinstance(token, str)
                 and p.admits(token)), None) if table is not None else None
    if table is None or mine is None or table.request is None:
        return JSONResponse({"error": "no such seat"}, status_code=404)
    if table.status == "playing":
        return JSONResponse({"error": "the match is still being played"}, status_code=409)
    if table.next is None:
        try:
            link = (await tables.open(table.request, again=table, client=table.client))[0]
        except TableError as exc:
            return JSONResponse({"error": str(exc)[:300]}, status_code=409)
        table.next = link.rsplit("/", 1)[1]
        for person in table.people.values():
            person.again(table.next)
    return JSONResponse({"table": f"{tables.base_url}/t/{table.next}",
                         "link": f"/t/{table.next}/{mine.seat}?token={token}"})


def stand_in_bot(name: str) -> str:
    """``name`` if it may stand in for a person ("" for none): a built-in bot, since it
    plays in the server's own process (an inline host); else a :class:`TableError`."""
    from arena.plugins import registry

    if name and (name not in registry() or registry().get(name).plugin != "builtin"):
        builtin = sorted(e.name for e in registry() if e.plugin == "builtin")
        raise TableError(f"the stand-in must be a built-in bot ({', '.join(builtin)}), "
                         f"not {name[:40]!r}")
    return name
