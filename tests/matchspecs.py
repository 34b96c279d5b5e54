"""Typed match specs for tests that write them as plain data, or hand the referee its hosts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.referee import CopyLabels, Host, MatchSpec, Seat


def match_spec(data: Mapping[str, Any], hosts: Sequence[Host] | None = None) -> MatchSpec:
    """``MatchSpec.from_dict(data)``; with ``hosts``, seats the spec lacks are filled in.

    A test that gives the referee its own hosts needs seats only for their labels: each
    missing seat (or one given as just ``{"label": ...}``) is labelled as given, else by the
    host's bot name (``-2``, ``-3`` for repeats), like a seat whose host the test supplies.
    """
    if hosts is None:
        return MatchSpec.from_dict(data)
    given = list(data.get("seats") or [])
    seats: list[dict[str, Any]] = []
    copies = CopyLabels()
    for index, host in enumerate(hosts):
        seat = dict(given[index]) if index < len(given) else {}
        if not seat.get("name") and not seat.get("command"):
            seat = {"label": seat.get("label"), "name": host.meta.bot, "host": "inline"}
        if not seat.get("label"):
            seat["label"] = copies(host.meta.bot)
        seats.append(seat)
    return MatchSpec.from_dict({**data, "seats": seats})


def spec_data(
    *,
    match_id: str = "m",
    seed: int = 11,
    preset: str | None = None,
    rounds: int | None = None,
    rules: Mapping[str, Any] | None = None,
    seats: Sequence[Seat | Mapping[str, Any]] | None = None,
    limits: Mapping[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A match spec as plain data: ``preset`` and ``rounds`` go into ``rules``, seats may be
    :class:`Seat` objects or mappings; what is not given is left out (the spec's defaults)."""
    data: dict[str, Any] = {"match_id": match_id, "seed": seed}
    rules = {**({"preset": preset} if preset else {}),
             **({"rounds": rounds} if rounds is not None else {}), **(rules or {})}
    if rules:
        data["rules"] = rules
    if seats is not None:
        data["seats"] = [s.to_dict() if isinstance(s, Seat) else dict(s) for s in seats]
    if limits is not None:
        data["limits"] = dict(limits)
    return {**data, **extra}


def spec(hosts: Sequence[Host] | None = None, **options: Any) -> MatchSpec:
    """A typed match spec from :func:`spec_data`'s options (seats filled in from ``hosts``
    as :func:`match_spec` does)."""
    return match_spec(spec_data(**options), hosts)
