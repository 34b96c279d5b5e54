"""A table's one link, ``BASE/t/TABLE`` (:func:`seat_by_link`), and who may stand in for
a person who left (:func:`stand_in_bot`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.responses import RedirectResponse, Response

from ._i18n import LANGUAGES

if TYPE_CHECKING:
    from starlette.requests import Request

    from ._tables import Table

__all__ = ["COOKIE_S", "SEAT_COOKIE", "seat_by_link", "stand_in_bot"]

SEAT_COOKIE = "arena-seat"
"""The cookie (scoped to ``/t/TABLE``) by which a browser that took a seat through the
table's one link keeps it: the seat's token."""
COOKIE_S = 7 * 24 * 3600
"""How long the cookie keeps the seat (s)."""


def seat_by_link(table: Table | None, request: Request) -> Response:
    """The answer to ``GET /t/TABLE``: the seat this browser took before (its cookie), else
    the next free person's seat (the cookie is set), each as a 303 to the seat's own link;
    else (every seat taken, or the match over) the spectator's page."""
    if table is None:
        return Response("no such table", status_code=404, media_type="text/plain")
    token = request.cookies.get(SEAT_COOKIE, "")
    mine = next((p for p in table.people.values() if token and p.admits(token)), None)
    free = mine or next((p for p in table.people.values() if not p.claimed), None)
    if free is None or (table.status != "playing" and mine is None):
        return RedirectResponse(f"/match?id={table.spec.match_id}", status_code=303,
                                headers={"Cache-Control": "no-store"})
    free.claimed = True
    lang = request.query_params.get("lang", "")
    keep = f"&lang={lang}" if lang in LANGUAGES else ""  # never echo what is not ours
    answer = RedirectResponse(f"/t/{table.id}/{free.seat}?token={free.token}{keep}",
                              status_code=303, headers={"Cache-Control": "no-store",
                                                        "Referrer-Policy": "no-referrer"})
    answer.set_cookie(SEAT_COOKIE, free.token, max_age=COOKIE_S, path=f"/t/{table.id}",
                      httponly=True, samesite="lax")
    return answer


def stand_in_bot(name: str) -> str:
    """``name`` if it may stand in for a person ("" for none): a built-in bot, since it
    plays in the server's own process (an inline host); else a :class:`TableError`."""
    from arena.plugins import registry

    from ._tables import TableError

    if name and (name not in registry() or registry().get(name).plugin != "builtin"):
        builtin = sorted(e.name for e in registry() if e.plugin == "builtin")
        raise TableError(f"the stand-in must be a built-in bot ({', '.join(builtin)}), "
                         f"not {name[:40]!r}")
    return name
