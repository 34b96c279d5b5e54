"""Match records in tests: a record without what depends on the clock."""

from __future__ import annotations

from typing import Any


def without_timings(record: dict[str, Any], *, hosts: bool = False) -> dict[str, Any]:
    """A copy of ``record`` minus what depends on the clock: ``wall_s`` and the deals' think
    times (``think_us``). With ``hosts``, also each seat's ``host`` (what differs between two
    ways of playing the same match)."""
    out = {key: value for key, value in record.items() if key != "wall_s"}
    out["deals"] = [{k: v for k, v in deal.items() if k != "think_us"}
                    for deal in record.get("deals") or ()]
    if hosts:
        out["seats"] = [{k: v for k, v in s.items() if k != "host"} for s in record["seats"]]
    return out


def record_faults(record: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """Every fault of ``record``, deal by deal in order (docs/records.md); with ``seat``, only
    that seat's."""
    return [f for deal in record["deals"] for f in deal["faults"]
            if seat is None or f["seat"] == seat]
