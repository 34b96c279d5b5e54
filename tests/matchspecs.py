"""Typed match specs for tests that write them as plain data, or hand the referee its hosts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.referee import HOST_KINDS, CopyLabels, Host, MatchSpec, Seat


def match_spec(data: Mapping[str, Any], hosts: Sequence[Host] | None = None) -> MatchSpec:
    """``MatchSpec.from_dict(data)``; with ``hosts``, seats the spec lacks are filled in.

    A test that gives the referee its own hosts needs seats only for their labels: each
    missing seat (or one given as just ``{"label": ...}``) is of its host's kind, labelled
    as given, else by the host's bot name (``-2``, ``-3`` for repeats).
    """
    if hosts is None:
        return MatchSpec.from_dict(data)
    given = list(data.get("seats") or [])
    seats: list[dict[str, Any]] = []
    copies = CopyLabels()
    for index, host in enumerate(hosts):
        seat = dict(given[index]) if index < len(given) else {}
        if not seat.get("name") and not seat.get("command"):
            gives = "command" if HOST_KINDS[host.kind].gives == "command" else "name"
            what = host.meta.ref if gives == "command" else host.meta.bot
            seat = {"label": seat.get("label"), gives: what, "host": host.kind}
        if not seat.get("label"):
            seat["label"] = copies(host.meta.bot)
        seats.append(seat)
    return MatchSpec.from_dict({**data, "seats": seats})


def table_data(seats: Sequence[Mapping[str, Any] | Seat] = (), *, match_id: str = "m",
               seed: int = 1, rounds: int = 1, rules: Mapping[str, Any] | None = None,
               limits: Mapping[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A match spec as plain data, from its parts: ``seats`` (plain data or :class:`Seat`),
    ``rounds`` with any other ``rules``, ``limits``, and other spec keys (``extra``)."""
    data: dict[str, Any] = {
        "match_id": match_id, "seed": seed, "rules": {"rounds": rounds, **(rules or {})},
        "seats": [s.to_dict() if isinstance(s, Seat) else dict(s) for s in seats], **extra}
    if limits is not None:
        data["limits"] = dict(limits)
    return data


def table_spec(seats: Sequence[Mapping[str, Any] | Seat] = (), *,
               hosts: Sequence[Host] | None = None, **parts: Any) -> MatchSpec:
    """:func:`table_data` made a :class:`MatchSpec` by :func:`match_spec` (with ``hosts``,
    the seats it lacks are filled in)."""
    return match_spec(table_data(seats, **parts), hosts)
