"""What a people's table is opened with (:class:`TableRequest`, from the command line or a
browser's JSON) and what an open table holds (:class:`Table`); :mod:`arena.web._tables`
opens and plays them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.referee import MatchSpec

from ._person import PersonSeat

__all__ = ["PERSON", "Table", "TableError", "TableRequest"]

PERSON = "person"
"""In a table's seats, the seat of a person (any other entry is a bot's name)."""


class TableError(ValueError):
    """A table that cannot be opened: the message names what is wrong."""


@dataclass(frozen=True)
class TableRequest:
    """What a table is opened with: the rules preset, the seats in order (``"person"``
    or a bot's name), the deals (``rounds``, the preset's when None), the people's clock
    per decision (``seat_ms``, none when None)."""

    seats: tuple[str, ...]
    preset: str = "standard"
    rounds: int | None = None
    seat_ms: int | None = None

    @classmethod
    def of(cls, *, preset: str, bots: Sequence[str], people: int, rounds: int | None = None,
           seat_ms: int | None = None) -> TableRequest:
        """The people's seats first, then the bots' (``arena serve --table``)."""
        return cls((PERSON,) * people + tuple(bots), preset, rounds, seat_ms)

    @classmethod
    def from_json(cls, data: object) -> TableRequest:
        """A request from the table page's JSON body; :class:`TableError` names a bad field."""
        if not isinstance(data, Mapping):
            raise TableError("a table request is a JSON object")
        unknown = sorted(set(data) - {"seats", "preset", "rounds", "seat_ms"})
        if unknown:
            raise TableError(f"unknown field {str(unknown[0])[:40]!r}")
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) and 0 < len(s) <= 80
                                                  for s in seats):
            raise TableError("'seats' must be a list of 'person' or bot names")
        preset = data.get("preset", "standard")
        if not isinstance(preset, str):
            raise TableError("'preset' must be a rules preset's name")
        numbers = []
        for key, low in (("rounds", 1), ("seat_ms", 1000)):
            value = data.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not low <= value <= 10**7):
                raise TableError(f"'{key}' must be a whole number from {low} (or null)")
            numbers.append(value)
        return cls(tuple(seats), preset, numbers[0], numbers[1])


@dataclass
class Table:
    """One open table: its match spec, its people's seats, where it stands."""

    id: str
    spec: MatchSpec
    people: dict[int, PersonSeat]
    bots: dict[int, str]
    status: str = "playing"
    """``playing`` until the match is recorded, then ``over`` (or ``failed``, or ``ended``:
    stopped unrecorded, nobody at it for the absence limit or past its time)."""
    client: str | None = None
    """The address of the browser that opened it (None: the organiser's command line)."""
    request: TableRequest | None = None
    next: str | None = None
    """The table its people play again at, once there is one."""

    def public(self) -> dict[str, Any]:
        """What anyone may know of the table (no token): the people's display names too."""
        people = sorted(self.people)
        return {"table": self.id, "match_id": self.spec.match_id, "labels": self.spec.labels,
                "people": people, "names": [self.people[s].name for s in people],
                "status": self.status, "rules": self.spec.rules.to_dict()}
