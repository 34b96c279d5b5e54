"""The people of one table as every seat's page sees them (:class:`Roster`)."""

from __future__ import annotations

from collections.abc import Mapping, Sized
from typing import Any, Protocol

import trio

__all__ = ["Member", "Roster"]


class Member(Protocol):
    """What a roster reads of a person's seat (``arena.web._person.PersonSeat``)."""

    @property
    def name(self) -> str:
        """The display name the person gave ("" for none yet)."""
        ...

    @property
    def connected(self) -> bool:
        """Whether a page of the seat is open."""
        ...

    @property
    def absent_by(self) -> float:
        """The trio time the seat's absence limit runs out (inf while a page is open)."""
        ...

    @property
    def stand_in(self) -> str:
        """The seat's stand-in bot ("" for none)."""
        ...

    @property
    def stood_in(self) -> Sized:
        """The decisions the stand-in made for the seat in this match."""
        ...

    def send(self, message: Mapping[str, Any]) -> None:
        """Send ``message`` to the seat's open pages."""
        ...


class Roster:
    """The people of one table as every seat's page sees them: their display names and
    which seats are away (no page open), with the time their absence limit still runs.
    What a person gives as their name is public at the table (the record keeps it)."""

    def __init__(self) -> None:
        self.seats: dict[int, Member] = {}

    def message(self) -> dict[str, Any]:
        """``{"type": "people", "people": [{"seat", "name", "away_s", "stand_in",
        "stood_in"}, ...]}``; ``away_s`` is None for a seat with a page open, else the
        seconds its absence limit still runs; ``stand_in`` the seat's stand-in bot ("" for
        none), ``stood_in`` how many decisions it made for the seat in this match."""
        now = trio.current_time()
        return {"type": "people", "people": [
            {"seat": s, "name": p.name,
             "away_s": None if p.connected else round(max(0.0, p.absent_by - now), 1),
             "stand_in": p.stand_in, "stood_in": len(p.stood_in)}
            for s, p in sorted(self.seats.items())]}

    def changed(self) -> None:
        """A name or a presence changed: every open page hears it."""
        message = self.message()
        for person in self.seats.values():
            person.send(message)
