"""The people of one table as every seat's page sees them (:class:`Roster`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import trio

if TYPE_CHECKING:
    from ._person import PersonSeat

__all__ = ["Roster"]


class Roster:
    """The people of one table as every seat's page sees them: their display names and
    which seats are away (no page open), with the time their absence limit still runs.
    What a person gives as their name is public at the table (the record keeps it)."""

    def __init__(self) -> None:
        self.seats: dict[int, PersonSeat] = {}

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
