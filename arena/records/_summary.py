"""A record's summary, read without building the record: what a list of matches shows.

A record is mostly hands, moves and timings (some KB a match); a list of matches (the
server's, ``arena.web``) shows its id, type, set, round, scores, ranking and its seats' labels
and names. :func:`parse_summary` decodes those with a typed msgspec decoder that skips the rest
without building it, and the fields :func:`arena.records.parse_record` checks as light values
(a hand is an undecoded span of the line), which that one judge then checks: a line is a
summary exactly when it is a record. A line the typed decoder does not take as it is (another
shape, a torn line, a record of schema 1) goes through :func:`parse_record` whole, so the
verdict and its wording are always that reader's.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ._reader import _record_problem, parse_record

__all__ = ["SUMMARY", "parse_summary"]

SUMMARY = ("match_id", "type", "set", "round", "scores", "ranking")
"""A summary's fields beside ``seats`` (each seat's ``label`` and ``name``)."""


class _Seat(msgspec.Struct):
    label: str
    name: Any = None


class _Deal(msgspec.Struct):
    finish_order: Any = None
    points: Any = None
    leader: Any = msgspec.UNSET
    hands: list[msgspec.Raw] | None = None
    roles: list[msgspec.Raw] | None = None
    movers: list[int] | None = None  # None: schema 1's moves, read whole
    faults: list[dict[str, Any]] | None = None
    forfeits: list[dict[str, Any]] | None = None
    exchanges: list[dict[str, Any]] | None = None


class _Record(msgspec.Struct):
    schema: Any
    match_id: Any = None
    type: Any = msgspec.UNSET
    set: Any = None
    round: Any = None
    scores: Any = None
    ranking: Any = None
    seats: list[_Seat] | None = None
    deals: list[_Deal] | None = None


_DECODE = msgspec.json.Decoder(_Record).decode


def parse_summary(raw: bytes) -> dict[str, Any] | str:
    """One line of a records file as its record's summary (:data:`SUMMARY` and ``seats``,
    each ``{"label", "name"}``), or else :func:`parse_record`'s phrase saying why it is no
    record."""
    try:
        record = _DECODE(raw)
    except (msgspec.DecodeError, RecursionError):
        return _whole(raw)
    if record.type is not msgspec.UNSET and record.type != "match":  # another type (error):
        return _whole(raw)  # parse_record takes it as it is
    deals = record.deals
    if deals is None or any(deal.movers is None for deal in deals):
        return _whole(raw)
    seats = record.seats
    light: dict[str, Any] = {
        "match_id": record.match_id, "ranking": record.ranking, "scores": record.scores,
        "seats": None if seats is None else [{"label": s.label} for s in seats],
        "deals": [_light(deal) for deal in deals]}
    problem = _record_problem(light)
    if problem is not None:
        return f"not a record ({problem})"
    kind = None if record.type is msgspec.UNSET else record.type
    return {"match_id": record.match_id, "type": kind, "set": record.set,
            "round": record.round, "scores": record.scores, "ranking": record.ranking,
            "seats": [{"label": s.label, "name": s.name} for s in seats or ()]}


def _light(deal: _Deal) -> dict[str, Any]:
    """A deal's checked fields, as the record's dict holds them (a hand as its raw text)."""
    light = {"finish_order": deal.finish_order, "points": deal.points, "hands": deal.hands,
             "roles": deal.roles, "movers": deal.movers, "faults": deal.faults,
             "forfeits": deal.forfeits, "exchanges": deal.exchanges}
    if deal.leader is not msgspec.UNSET:
        light["leader"] = deal.leader
    return light


def _whole(raw: bytes) -> dict[str, Any] | str:
    """The summary of the line read whole (:func:`parse_record`), or its verdict."""
    record = parse_record(raw)
    if isinstance(record, str):
        return record
    return {**{key: record.get(key) for key in SUMMARY},
            "seats": [{"label": s.get("label"), "name": s.get("name")}
                      for s in record.get("seats") or ()]}
