"""The competition's HTTP endpoints, beside the run's pages (docs/competition.md).

- ``POST /api/entrants`` with ``{"name": NAME}`` (``application/json``) registers an
  entrant: 201 ``{"name", "token"}``, the token shown this once;
- ``POST /api/submissions?label=LABEL`` with ``Authorization: Bearer TOKEN`` and the file
  or archive as the body (:mod:`._kinds`): 201, the submission (``label`` defaults to the
  entrant's name);
- ``GET /api/submissions`` with the token: that entrant's submissions, and nobody else's;
- ``GET /enter``: a page that does the three from a browser;
- ``GET /entrant/NAME``, ``GET /api/entrants/NAME`` and, with the token,
  ``GET /api/entrants/NAME/private``: an entrant's page (``_entrant_http``).

Every refusal is one line of JSON, ``{"error": ...}``, with its status. A body is read no
further than its bound: a registration's 1 KiB, a submission's ``max_bytes``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import trio
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from arena.plugins import registry
from arena.referee import Seat
from arena.web import PERSON, Hub, Tables

from ._entrant import league_field
from ._entrant_http import entrant_routes
from ._entries import write_entries
from ._files import store_source
from ._kinds import KINDS, check_submission
from ._store import CompetitionError, Entrant, Store, check_name
from ._trial import TrialQueue

__all__ = ["COMPETITION_DIR", "Competition", "Limits"]

COMPETITION_DIR = "competition"
"""``OUT/competition/``: the store and the submitted files."""

_NAME_BODY = 1024
ATTEMPTS_PER_SUBMISSION = 4
"""How many bodies an entrant may send to submit, refused ones included, per submission it
may make (``per_day``): a bound on the archives the server reads and unpacks."""
_STATIC = Path(str(resources.files("arena.competition") / "static"))


@dataclass(frozen=True)
class Limits:
    """What a competition takes (the config's ``submissions``)."""

    max_bytes: int = 262_144
    per_day: int = 5
    kinds: tuple[str, ...] = KINDS
    taken: frozenset[str] = field(default_factory=frozenset)  # the organiser's labels
    tables: bool = False  # people may open tables against the league's bots and entrants

    @property
    def attempts_per_day(self) -> int:
        """The bodies an entrant may send to submit in any 24 hours, kept or refused:
        :data:`ATTEMPTS_PER_SUBMISSION` times :attr:`per_day`."""
        return ATTEMPTS_PER_SUBMISSION * self.per_day


def _error(exc: CompetitionError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, read no further than ``limit`` bytes (413 past it)."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise CompetitionError(f"the body is over {limit} bytes, the most taken here", 413)
    return bytes(data)


class Competition:
    """The submissions of the run in ``out``: its store and its endpoints."""

    def __init__(self, out: str | Path, limits: Limits, trials: TrialQueue | None = None
                 ) -> None:
        self.folder = Path(out) / COMPETITION_DIR
        self.limits = limits
        self.store = Store(self.folder)
        self.trials = trials
        if trials is not None:  # the entries' folders again, and what a run left untried
            write_entries(self.folder.parent, self.folder, self.store)
            for submission in self.store.submissions():
                if submission.state in ("received", "building", "trying"):
                    trials.start(submission.id)

    def close(self) -> None:
        """Close the store."""
        self.store.close()

    def _entrant(self, request: Request) -> Entrant:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise CompetitionError("give the entrant's token: Authorization: Bearer TOKEN", 401)
        return self.store.entrant(token.strip())

    def _refuse_reserved(self, name: str, what: str, status: int) -> None:
        """Refuse (a :class:`CompetitionError` with ``status``) a name or label an entrant may
        not take: an organiser's entry of the league (its config's or its field's), an
        installed bot's (``arena bots``), or a person's seat at the tables."""
        if name in self.limits.taken or any(
                e.get("base") == name and self.store.owner(name) is None
                for e in league_field(self.folder.parent)):
            reason = "an organiser's entry of this league"
        elif name == PERSON:
            reason = "a person's seat at the tables"
        elif name in registry():
            reason = "a built-in bot's (arena bots)"
        else:
            return
        raise CompetitionError(f"{what} {name!r} is {reason}: choose another", status)

    async def register(self, request: Request) -> JSONResponse:
        """``POST /api/entrants``."""
        try:
            if request.headers.get("content-type", "").split(";")[0] != "application/json":
                raise CompetitionError("send the name as application/json: {\"name\": ...}",
                                       415)
            try:
                data = json.loads(await _body(request, _NAME_BODY))
            except (ValueError, UnicodeDecodeError):
                raise CompetitionError("the body is not JSON: {\"name\": ...}") from None
            if not isinstance(data, dict) or set(data) != {"name"}:
                raise CompetitionError("the body must be {\"name\": NAME} and nothing else")
            name = check_name(data["name"], "the name")
            self._refuse_reserved(name, "the name", 409)
            entrant, token = self.store.register(name, taken=self.limits.taken)
        except CompetitionError as exc:
            return _error(exc)
        return JSONResponse({"name": entrant.name, "token": token}, status_code=201)

    async def submit(self, request: Request) -> JSONResponse:
        """``POST /api/submissions?label=LABEL``."""
        try:
            entrant = self._entrant(request)
            label = request.query_params.get("label") or entrant.name
            check_name(label, "the label")
            if self.store.owner(label) != entrant.name:
                self._refuse_reserved(label, "the label", 403)
            self.store.attempt(entrant, self.limits.attempts_per_day)
            data = await _body(request, self.limits.max_bytes)
            checked = await trio.to_thread.run_sync(functools.partial(
                check_submission, data, max_bytes=self.limits.max_bytes,
                kinds=self.limits.kinds))
            # by content: kept once, whoever sent it
            store_source(self.folder, checked.kind, checked.sha256, data)
            submission = self.store.submit(
                entrant, label, kind=checked.kind, sha256=checked.sha256, size=checked.size,
                per_day=self.limits.per_day, taken=self.limits.taken)
        except CompetitionError as exc:
            return _error(exc)
        if self.trials is not None:
            self.trials.start(submission.id)
        return JSONResponse(submission.to_dict(), status_code=201)

    async def list_submissions(self, request: Request) -> JSONResponse:
        """``GET /api/submissions``: the token's entrant's own."""
        try:
            entrant = self._entrant(request)
        except CompetitionError as exc:
            return _error(exc)
        return JSONResponse({"entrant": entrant.name, "submissions": [
            s.to_dict() for s in self.store.submissions(entrant)]})

    def guests(self) -> dict[str, Seat]:
        """The entrants' bots a people's table may seat, by label: each label's entered
        version, as the league runs it (``OUT/entries.json``)."""
        try:
            entries = json.loads((self.folder.parent / "entries.json").read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(e["label"]): Seat(label=str(e["label"]), command=str(e["command"]),
                                      host="command")
                for e in entries if isinstance(e, dict) and "label" in e and "command" in e}

    def tables(self, hub: Hub) -> Tables:
        """People's tables beside the league (``submissions: {tables: true}``): the
        built-in bots and the entrants' (:meth:`guests`), always sandboxed (a machine
        without the sandbox opens no table: an entrant's bot never runs outside it)."""
        return Tables(self.folder.parent, hub, base_url="", guests=self.guests, sandbox=True)

    def body_bounds(self) -> dict[str, int]:
        """The paths whose bodies are longer than the server's door lets by (4 KiB), and
        their bounds: a submission's, up to ``max_bytes``."""
        return {"/api/submissions": self.limits.max_bytes}

    def routes(self) -> list[BaseRoute]:
        """The endpoints, the page ``/enter`` that uses them, and the entrants' pages
        (``/entrant/NAME``, ``/api/entrants/NAME``)."""

        async def page(request: Request) -> Response:
            return FileResponse(_STATIC / "enter.html", media_type="text/html")

        async def script(request: Request) -> Response:
            return FileResponse(_STATIC / "enter.js", media_type="text/javascript")

        async def shared(request: Request) -> Response:
            return FileResponse(_STATIC / "page.js", media_type="text/javascript")

        return [Route("/enter", page), Route("/enter.js", script),
                Route("/competition/page.js", shared),
                Route("/api/entrants", self.register, methods=["POST"]),
                Route("/api/submissions", self.submit, methods=["POST"]),
                Route("/api/submissions", self.list_submissions, methods=["GET"]),
                *entrant_routes(self.folder.parent, self.store, self._entrant)]
