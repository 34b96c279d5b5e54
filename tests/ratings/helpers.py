"""Small hand-made records for the ratings tests."""

from __future__ import annotations

from typing import Any


def record(
    match_id: str,
    labels: list[str],
    orders: list[list[int]],
    *,
    set_id: str | None = None,
    points: list[int] | None = None,
    faults: dict[int, list[int]] | None = None,
    tournament: str = "t",
) -> dict[str, Any]:
    """A match record with one deal per finishing order (seats best..worst)."""
    n = len(labels)
    table = points or list(range(n - 1, -1, -1))
    deals = []
    for d, order in enumerate(orders):
        pts = [0] * n
        for place, seat in enumerate(order):
            pts[seat] = table[place]
        deals.append({
            "deal": d,
            "finish_order": list(order),
            "points": pts,
            "faults": [{"seat": s, "kind": "timeout", "move": 0, "detail": ""}
                       for s in (faults or {}).get(d, [])],
        })
    return {
        "schema": 1,
        "type": "match",
        "match_id": match_id,
        "tournament": tournament,
        "seed": 1,
        "set": set_id,
        "round": None,
        "seats": [{"seat": s, "label": label} for s, label in enumerate(labels)],
        "deals": deals,
    }
