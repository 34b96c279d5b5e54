"""A stand-in for the referee in A/B tests: plays a match spec with planted strengths.

Its records have what the tournament runner, the standings and the ratings read (seats,
deals with finishing orders, points, one move per seat, faults; the ranking and scores).
"""

from __future__ import annotations

import math
from typing import Any

from arena.records import SCHEMA
from arena.referee import MatchSpec
from arena.seeds import rng as seeded

STRENGTH = {"strong": 0.7, "weak": 0.0, "twin": 0.0}
CALLS: list[str] = []


def play(spec: MatchSpec) -> dict[str, Any]:
    """Finishing orders drawn from Plackett-Luce (Gumbel trick), seeded by the spec."""
    CALLS.append(spec.match_id)
    rng = seeded(spec.seed, "planted", spec.match_id)
    labels = spec.labels
    n = len(labels)
    deals = []
    for d in range(3):
        draw = [STRENGTH[label.split("#")[0]] - math.log(-math.log(rng.random() or 1e-12))
                for label in labels]
        order = sorted(range(n), key=lambda s: -draw[s])
        points = [0] * n
        for place, seat in enumerate(order):
            points[seat] = n - 1 - place
        deals.append({"deal": d, "finish_order": order, "points": points,
                      "movers": list(range(n)), "moves": ["pass"] * n, "faults": []})
    scores = [sum(deal["points"][seat] for deal in deals) for seat in range(n)]
    return {"schema": SCHEMA, "type": "match", "match_id": spec.match_id,
            "tournament": spec.tournament, "seed": spec.seed, "set": spec.set,
            "round": spec.round, "seats": [s.to_dict() for s in spec.seats], "deals": deals,
            "scores": scores, "ranking": sorted(range(n), key=lambda seat: -scores[seat])}


def play_faulty_baseline(spec: MatchSpec) -> dict[str, Any]:
    """As :func:`play`, with one timeout of the seat labelled ``weak`` in every deal."""
    record = play(spec)
    weak = [s for s, label in enumerate(spec.labels) if label == "weak"]
    for deal in record["deals"]:
        deal["faults"] = [{"seat": s, "kind": "timeout", "move": 0, "detail": ""} for s in weak]
    return record
