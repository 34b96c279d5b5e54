"""People's tables: a match with seats for people, opened by a link per person.

A table is one match (a rules preset, its seats, its deals), played by the referee's one
loop (:func:`arena.referee.play_match`) in the server's trio run, in the nursery of
:meth:`Tables.run`. Each person's seat gets a :class:`~arena.web._person.PersonHost` and a
link with an unguessable token (the server keeps its digest only); bots get their
``process`` host, sandboxed as a tournament's bots are (:class:`Tables`' ``sandbox``), so
a bot that thinks long never holds the server up and none can reach the server's process.
What a browser may open is bounded (:mod:`arena.web._table_bounds`): the bots the organiser
offers, the deals, the time a table plays, the tables per client, and a table nobody is at
for the absence limit ends. Every table's match has fresh deals (a secret seed: a
person remembers the deals, so tables never replay a deal), publishes its public events
through the referee's ``watch`` argument to :attr:`Tables.feed` (the server's follower's:
straight to the hub as ``match:<id>``, with no file; a live file when the tables are run
without an app), and is recorded like any match, one line in ``OUT/tables/records.jsonl``
(a folder of its own, which no tournament's resume reads), so ``arena show``, the report
and ``arena ratings`` read it.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from arena.game import Rules
from arena.records import TABLE_RECORDS, RecordWriter, get_logger
from arena.referee import (
    CopyLabels,
    Host,
    InlineHost,
    Limits,
    MatchSpec,
    MatchSpecError,
    Seat,
    make_host,
)
from arena.seeds import secret_seed

from ._feed import Feed, LiveFile
from ._live import KEEP_S, LIVE_DIR
from ._person import MAX_MESSAGE, Gate, PersonSeat, error_message
from ._person_host import PersonHost
from ._roster import Roster
from ._table_bounds import TableBounds, TableEnded, forget_finished, play_bounded
from ._table_link import STAND_IN, play_again, seat_by_link, stand_in_bot
from ._table_request import PERSON, Table, TableError, TableRequest

if TYPE_CHECKING:
    from arena.referee import ProcessPool

    from ._hub import Hub

__all__ = ["PERSON", "TableError", "TableRequest", "Tables"]

MAX_TABLES = 32
"""Tables open at once (playing or waiting for their people); one more is refused."""
BOT_START_MS = 30_000
"""The time a table's bot has to start (its process, its imports): more than a tournament's
default, as a server's machine may be busy with people's pages and other tables."""

_STATIC = Path(__file__).parent / "static"
_log = get_logger("arena.web")


class Tables:
    """The server's people's tables: opened by :meth:`open`, played in :meth:`run`."""

    def __init__(self, out: Path, hub: Hub, *, base_url: str, absence_s: float = 120.0,
                 limits: Limits | None = None, max_tables: int = MAX_TABLES,
                 bounds: TableBounds | None = None, sandbox: bool | None = None,
                 stand_in: str = STAND_IN,
                 guests: Callable[[], Mapping[str, Seat]] | None = None) -> None:
        self.out = Path(out)
        self.hub = hub
        """The server's hub; a table's match reaches it through :attr:`feed`."""
        self.feed: Callable[[MatchSpec], Feed] = lambda spec: LiveFile(
            self.out / LIVE_DIR / f"{spec.match_id}.jsonl", spec)
        """Where a table's public events go: the app (``RunWeb``) sets its follower's, which
        publishes them on the hub at once; without one, the match's live file."""
        self.base_url = base_url.rstrip("/")
        self.absence_s = absence_s
        if limits is None:
            from arena.referee import sandbox_mechanism

            limits = Limits(start_ms=BOT_START_MS, sandbox=(
                sandbox_mechanism() is not None if sandbox is None else sandbox))
        self.limits = limits
        """The bots' limits at every table: a tournament's defaults (the sandbox wherever the
        machine can give it, unless ``sandbox`` says otherwise), 30 s to start."""
        self.bounds = bounds or TableBounds()
        """What a browser may open (the command line's table is the organiser's own)."""
        self.stand_in = stand_in_bot(stand_in)
        """The bot that plays for a person away past the absence limit ("" for none)."""
        self.max_tables = max_tables
        self.guests = guests or dict
        """Bots offered beside the bounds' own, by name, each as the seat that runs it: a
        competition's entrants (``arena.competition``), read when a table is opened."""
        self.tables: dict[str, Table] = {}
        self._nursery: trio.Nursery | None = None
        self._pool: ProcessPool | None = None
        self._writer: RecordWriter | None = None
        self._write_lock = trio.Lock()

    @property
    def records_path(self) -> Path:
        """The tables' records: ``OUT/tables/records.jsonl``."""
        return self.out / TABLE_RECORDS

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                  ) -> None:
        """The nursery the tables' matches run in; returns only when cancelled (it kills
        the bots' processes then)."""
        from arena.referee import process_pool

        with process_pool() as pool:
            self._pool = pool
            try:
                async with trio.open_nursery() as nursery:
                    self._nursery = nursery
                    task_status.started()
                    await trio.sleep_forever()
            finally:
                self._nursery = None
                if self._writer is not None:
                    self._writer.close()

    async def open(self, request: TableRequest, *, client: str | None = None,
                   again: Table | None = None) -> list[str]:
        """Open a table and start its match: the table's one link (``BASE/t/TABLE``, the
        one to share: whoever opens it takes the next free person's seat), then one link
        per person's seat, in seat order (none when ``again``: a table over, whose people
        play again here, each at the same seat with the same secret and name).

        ``client``: the address of the browser that asks, held to :attr:`bounds` (the bots
        offered, the deals, its tables playing at once); None for the organiser's own."""
        if self._nursery is None:
            raise TableError("the server's tables are not running")
        playing = [t for t in self.tables.values() if t.status == "playing"]
        if len(playing) >= self.max_tables:
            raise TableError(f"{self.max_tables} tables are playing already; try later")
        if client is not None and sum(t.client == client for t in playing
                                      ) >= self.bounds.per_client:
            raise TableError(f"you have {self.bounds.per_client} tables playing already; "
                             "finish one first")
        table, links = self._make(request, client, again)
        forget_finished(self.tables, lambda t: t.status != "playing")
        self.tables[table.id] = table
        self._nursery.start_soon(self._play, table, [self._host(table, s) for s in
                                                      range(len(table.spec.seats))])
        return links

    def _make(self, request: TableRequest, client: str | None, again: Table | None = None
              ) -> tuple[Table, list[str]]:
        people = request.seats.count(PERSON)
        if people < 1:
            raise TableError("a table needs at least one 'person' seat")
        try:
            rules = Rules.preset(request.preset, **(
                {} if request.rounds is None else {"rounds": request.rounds}))
        except (TypeError, ValueError) as exc:
            raise TableError(str(exc)) from None
        guests = self._guests()
        bounds = dataclasses.replace(self.bounds, bots=(*self.bounds.bots, *guests))
        refusal = None if client is None else bounds.refusal(request.seats, rules.rounds,
                                                             PERSON)
        if refusal is not None:
            raise TableError(refusal)
        table_id = secrets.token_hex(4)
        tokens: dict[int, str] = {}
        copies = CopyLabels()
        seats: list[Seat] = []
        persons: dict[int, PersonSeat] = {}
        bots: dict[int, str] = {}
        roster = Roster()
        for index, name in enumerate(request.seats):
            if name == PERSON:
                label = f"{PERSON}-{table_id}-{index}"  # the seat's number, as in its link
                seats.append(Seat(label=label, name=PERSON, host="web"))
                before = again.people[index] if again is not None else None
                if before is None:
                    tokens[index] = secrets.token_urlsafe(24)
                persons[index] = PersonSeat(index, label, absence_s=self.absence_s,
                                            seat_ms=request.seat_ms, roster=roster,
                                            token=tokens.get(index))
                if before is not None:  # playing again: the same person, secret and name
                    persons[index].digests = list(before.digests)
                    persons[index].name, persons[index].claimed = before.name, True
            else:
                guest = guests.get(name)
                seats.append(Seat(label=copies(name), name=name, host="process")
                             if guest is None else dataclasses.replace(guest, label=copies(name)))
                bots[index] = name
        try:
            spec = MatchSpec(match_id=f"table-{table_id}", seed=secret_seed(),
                             seats=tuple(seats), rules=rules, limits=self.limits,
                             tournament="tables", private=(str(self.out.resolve()),))
            for index in bots:  # a bot that is not installed fails here, not in the match
                make_host(spec.seats[index], self.limits)
        except MatchSpecError as exc:
            raise TableError(str(exc)) from None
        # The tokens leave with the answer: the server keeps their digests only.
        links = [f"{self.base_url}/t/{table_id}"] + [
            f"{self.base_url}/t/{table_id}/{i}?token={token}" for i, token in tokens.items()]
        return Table(table_id, spec, persons, bots, client=client, request=request), links

    def _guests(self) -> Mapping[str, Seat]:
        """The guests by name, but none under a name the bounds offer or a person's: a
        bot offered by name is always that bot."""
        return {name: seat for name, seat in self.guests().items()
                if name not in self.bounds.bots and name != PERSON}

    def _host(self, table: Table, seat: int) -> Host:
        person = table.people.get(seat)
        if person is not None:
            return PersonHost(person, InlineHost(self.stand_in) if self.stand_in else None)
        return make_host(table.spec.seats[seat], self.limits, self._pool, table.spec.private)

    async def _play(self, table: Table, hosts: list[Host]) -> None:
        spec = table.spec
        # The match's public events go to the server's follower, which publishes them on the
        # hub (match:<id>) for the live view (a file when no app follows, ``feed``).
        live_path = self.out / LIVE_DIR / f"{spec.match_id}.jsonl"
        live = self.feed(spec)
        try:
            assert self._nursery is not None
            record = await play_bounded(
                spec, hosts, live, self.bounds, absence_s=self.absence_s, nursery=self._nursery,
                # with a stand-in, an empty table is played out by it (within the bounds'
                # deals and time); without, it ends
                present=lambda: bool(self.stand_in) or any(
                    p.connected for p in table.people.values()),
                from_start=table.client is not None)  # the organiser's waits for its people
        except MatchSpecError as exc:
            table.status = "ended" if isinstance(exc, TableEnded) else "failed"
            _log.warning(f"table {table.status}", table=table.id, error=str(exc))
            for person in table.people.values():
                person.finish({"error": str(exc)})
            return
        finally:
            live.close()
        for seat, person in table.people.items():
            record["seats"][seat]["name"] = person.name
            if person.stood_in:  # the match was partly played by the seat's stand-in
                record["seats"][seat]["stand_in"] = {"bot": person.stand_in,
                                                     "decisions": person.stood_in}
        await self._write(record)
        table.status = "over"
        result = {"match": spec.match_id, "scores": record["scores"],
                  "ranking": record["ranking"],
                  "labels": spec.labels,
                  "names": [p.name if (p := table.people.get(s)) else None
                            for s in range(len(hosts))]}
        for person in table.people.values():
            person.finish(result)
        # The live file goes once the follower has had the last events (the match's end,
        # which a spectator waits for), as a run's live files do.
        await trio.sleep(KEEP_S)
        live_path.unlink(missing_ok=True)

    async def _write(self, record: dict[str, Any]) -> None:
        async with self._write_lock:
            if self._writer is None:
                self._writer = RecordWriter(self.records_path)
            await trio.to_thread.run_sync(self._writer.write, record)

    # ------------------------------------------------------------------ the web

    def routes(self) -> list[BaseRoute]:
        """The table page, the table API, the seat page and the seat's WebSocket."""
        return [
            Route("/tables", self._page_tables, methods=["GET"]),
            Route("/api/tables", self._api_open, methods=["POST"]),
            Route("/api/tables", self._api_list, methods=["GET"]),
            Route("/api/tables/options", self._api_options, methods=["GET"]),
            Route("/api/tables/{table}/again", self._api_again, methods=["POST"]),
            Route("/t/{table}", self._page_table, methods=["GET"]),
            Route("/t/{table}/{seat:int}", self._page_seat, methods=["GET"]),
            WebSocketRoute("/ws/t/{table}/{seat:int}", self._socket),
        ]

    async def _page_tables(self, request: Request) -> Response:
        return FileResponse(_STATIC / "table.html", media_type="text/html")

    async def _api_list(self, request: Request) -> Response:
        return JSONResponse([t.public() for t in self.tables.values()])

    async def _api_options(self, request: Request) -> Response:

        return JSONResponse({"presets": list(Rules.PRESETS),
                             "bots": [*self.bounds.bots, *self._guests()]})

    async def _api_open(self, request: Request) -> Response:
        body = await request.body()  # bounded by the server's guard (arena.web._guard)
        try:
            table = TableRequest.from_json(json.loads(body))
            links = await self.open(table, client=request.client.host if request.client
                                    else "")
        except (ValueError, TableError) as exc:  # json's errors are ValueErrors
            return JSONResponse({"error": str(exc)[:300]}, status_code=400)
        return JSONResponse({"table": links[0], "links": links[1:]})

    def _seat_of(self, table_id: str, seat: int, token: str) -> PersonSeat | None:
        table = self.tables.get(table_id)
        person = table.people.get(seat) if table is not None else None
        if person is None or not person.admits(token):
            return None
        return person

    async def _page_table(self, request: Request) -> Response:
        return seat_by_link(self.tables, request.path_params["table"], request)

    async def _api_again(self, request: Request) -> Response:
        return await play_again(self, request)

    async def _page_seat(self, request: Request) -> Response:
        person = self._seat_of(request.path_params["table"], request.path_params["seat"],
                               request.query_params.get("token", ""))
        if person is None:
            return Response("no such seat", status_code=404, media_type="text/plain")
        return FileResponse(_STATIC / "seat.html", media_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _socket(self, ws: WebSocket) -> None:
        person = self._seat_of(ws.path_params["table"], ws.path_params["seat"],
                               ws.query_params.get("token", ""))
        if person is None:
            await ws.close(code=1008)  # before accepting: the handshake is refused
            return
        await ws.accept()
        outbox = person.attach()
        lock = trio.Lock()

        async def say(text: str) -> None:
            async with lock:
                await ws.send_text(text)

        async def pump(cancel: trio.CancelScope) -> None:
            async for text in outbox:
                await say(text)
            # Replaced by a page opened later on the same link, or too slow a reader.
            cancel.cancel()

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(pump, nursery.cancel_scope)
                await self._read(ws, person, say)
                nursery.cancel_scope.cancel()
        except WebSocketDisconnect:
            pass
        finally:
            person.detach(outbox)
        if ws.client_state.name == "CONNECTED":
            with trio.CancelScope(shield=True):
                await ws.close(code=4000)

    async def _read(self, ws: WebSocket, person: PersonSeat, say: Any) -> None:
        gate = Gate()
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            if len(text.encode()) > MAX_MESSAGE:
                error: str | None = f"message longer than {MAX_MESSAGE} bytes"
            elif not gate.allow(trio.current_time()):
                error = "too many messages: slow down"
            else:
                error = person.receive(text)
            if error is not None:
                await say(json.dumps(error_message(error)))
