"""A stand-in match function for exercising schedules, executors and resume without cards.

``dry_run_match`` returns a record-shaped dict (the fields standings and
resume read: ids, seats, ranking, scores) whose result is a pure function of
the spec's seed and seats, so tests and benchmarks of the tournament layer
run in microseconds per match and stay reproducible. It plays no game: its
records say so with ``"dry_run": true``.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from arena.records import SCHEMA
from arena.seeds import rng as seeded

if TYPE_CHECKING:
    from arena.referee import MatchSpec


def dry_run_match(spec: MatchSpec) -> dict[str, Any]:
    """A record for ``spec`` with a ranking drawn from its seed and seat labels."""
    seats = spec.seats
    labels = spec.labels
    # Bots get a fixed "strength" from their label so standings are not pure noise,
    # and the seed decides the rest.
    rng = seeded(spec.seed, "dryrun", *labels)
    strength = [
        int.from_bytes(hashlib.blake2b(label.encode(), digest_size=2).digest(), "big") / 65536
        for label in labels
    ]
    keys = [strength[s] + rng.random() for s in range(len(seats))]
    ranking = sorted(range(len(seats)), key=lambda s: -keys[s])
    m = len(seats)
    scores = [0] * m
    for place, seat in enumerate(ranking):
        scores[seat] = m - 1 - place
    return {
        "schema": SCHEMA,
        "type": "match",
        "dry_run": True,
        **spec.identity(),
        "rules": spec.rules.to_dict(),
        "seats": [
            {"seat": s, "label": seat.label, "bot": seat.name or seat.command, "host": seat.host}
            for s, seat in enumerate(seats)
        ],
        "limits": spec.limits.to_dict(),
        "deals": [],
        "scores": scores,
        "ranking": ranking,
        "decisions": 0,
        "wall_s": 0.0,
    }
