"""The host of a person's seat: the :class:`arena.referee.Host` the referee asks, which
asks the seat's page (:class:`~arena.web._person.PersonSeat`), or its stand-in bot while the
person is away past the seat's absence limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.referee import BotRef, Host, InlineHost

from ._person import Absent, PersonSeat
from ._priority import after_server

if TYPE_CHECKING:
    from arena.game import View
    from arena.referee import Deadline, StartInfo

__all__ = ["PersonHost"]


class PersonHost(Host):
    """The host of a person's seat (kind ``web``): the referee asks the seat's page. A
    ``stand_in`` (an inline host of a bot the server trusts) decides for a seat left
    longer than its absence limit, until a page is open on it again, after the server's work
    (:func:`~arena.web._priority.after_server`: a table of stand-ins decides at once)."""

    kind = "web"
    timed = False
    observes = True

    def __init__(self, seat: PersonSeat, stand_in: InlineHost | None = None) -> None:
        self.person = seat
        self.stand_in = stand_in
        if stand_in is not None:
            seat.stand_in = stand_in.meta.ref

    @property
    def meta(self) -> BotRef:
        return BotRef("person", "person", "web", "")

    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        self.person.begin(info)
        if self.stand_in is not None:
            self.stand_in.start_now(info)

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        try:
            return await self.person.decide("play", view, 0, deadline)
        except Absent as absent:
            await after_server()
            return self._stand_in(absent, "play", view, 0)

    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        try:
            return await self.person.decide("exchange", view, count, deadline)
        except Absent as absent:
            await after_server()
            return self._stand_in(absent, "exchange", view, count)

    def _stand_in(self, absent: Absent, kind: str, view: View, count: int) -> object:
        if self.stand_in is None:
            raise absent  # the seat's timeout fault
        self.person.stood_in.append({"deal": view.number, "kind": kind,
                                     "move": len(view.plays) if kind == "play" else None})
        self.person.roster.changed()
        if kind == "play":
            return self.stand_in.play_now(view)
        return self.stand_in.exchange_now(view, count)

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:
        self.person.tell({"type": "end_deal", "result": result})
        if self.stand_in is not None and self.stand_in.hears_end_deal:
            self.stand_in.end_deal_now(result)

    async def observe(self, view: View, kind: str, seat: int, deadline: Deadline) -> None:
        self.person.show(view, kind, seat)
