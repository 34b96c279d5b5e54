"""Records of imaginary bots with planted strengths: the ground truth the statistics are checked
against, and a cheap way to see how many sets an experiment needs before running it.

Each deal's finishing order is drawn from a Plackett-Luce model: a bot of strength ``theta`` gets
``theta + Gumbel noise`` and the seats finish in decreasing order of that draw (the Gumbel
trick samples Plackett-Luce exactly). ``set_noise`` adds a per-set, per-bot shift of the given
standard deviation shared by every deal of the set, so deals within a set are correlated as
they are with duplicate hands; intervals must then resample whole sets to stay honest.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations, permutations
from typing import Any

import numpy as np

from arena.records import SCHEMA


def simulate_records(
    strengths: Mapping[str, float],
    *,
    sets: int,
    players: int = 4,
    deals: int = 1,
    set_noise: float = 0.0,
    seed: int = 0,
    tournament: str = "planted",
    round_robin: bool = False,
) -> Iterator[dict[str, Any]]:
    """Yield minimal match records (the fields that ratings read) of planted bots.

    Every set seats ``players`` bots (all of them when there are exactly that many, else a fresh
    random draw per set, or with ``round_robin`` every ``players``-subset of the bots in turn, so
    that ``sets`` a multiple of their number plays each table equally often) and plays
    ``players`` matches of ``deals`` deals, rotating the seats.
    """
    labels = list(strengths)
    if len(labels) < players:
        raise ValueError(f"need at least {players} bots, got {len(labels)}")
    subsets = np.asarray(list(combinations(range(len(labels)), players)), dtype=np.int64)
    theta = np.asarray([strengths[label] for label in labels], dtype=np.float64)
    rng = np.random.default_rng(seed)
    points = list(range(players - 1, -1, -1))
    block = 4096
    for first in range(0, sets, block):
        count = min(block, sets - first)
        if len(labels) == players:
            tables = np.tile(np.arange(players), (count, 1))
        elif round_robin:
            tables = subsets[np.arange(first, first + count) % len(subsets)]
        else:
            tables = np.argsort(rng.random((count, len(labels))), axis=1)[:, :players]
        shift = rng.normal(0.0, set_noise, size=(count, players)) if set_noise else 0.0
        base = theta[tables] + shift  # (count, players): strength of each table member
        noise = rng.gumbel(size=(count, players, deals, players))
        draws = base[:, None, None, :] + noise
        finish = np.argsort(-draws, axis=3)  # table-member indices, best first
        tables_list = tables.tolist()
        finish_list = finish.tolist()
        for k in range(count):
            set_index = first + k
            members = tables_list[k]
            for r in range(players):
                seat_member = members[r:] + members[:r]  # rotation r: seat s holds member s+r
                yield _match_record(tournament, set_index, r, [labels[m] for m in seat_member],
                                    [[seat_member.index(members[m]) for m in order]
                                     for order in finish_list[k][r]], points)


def _match_record(tournament: str, set_index: int, rotation: int, seated: list[str],
                  orders: list[list[int]], points: list[int]) -> dict[str, Any]:
    """The record of rotation ``rotation`` of set ``set_index``: ``seated`` the labels by
    seat, ``orders`` each deal's finishing order (seats, the best first)."""
    players = len(seated)
    deals_out = []
    scores = [0] * players
    for d, order in enumerate(orders):
        pts = [0] * players
        for place, seat in enumerate(order):
            pts[seat] = points[place]
            scores[seat] += points[place]
        deals_out.append({"deal": d, "finish_order": order, "points": pts, "faults": []})
    return {
        "schema": SCHEMA,
        "type": "match",
        "match_id": f"{tournament}-s{set_index}-r{rotation}",
        "tournament": tournament,
        "seed": set_index,
        "set": f"{tournament}-s{set_index}",
        "round": None,
        "seats": [{"seat": s, "label": label} for s, label in enumerate(seated)],
        "deals": deals_out,
        "scores": scores,
        "ranking": sorted(range(players), key=lambda s: -scores[s]),
    }


def expected_scores(strengths: Mapping[str, float], table: list[str]) -> dict[str, float]:
    """Exact expected per-deal score (0 last .. 1 first) of each bot at one table without
    set noise: the Plackett-Luce probability of every finishing order, summed."""
    w = [float(np.exp(strengths[label])) for label in table]
    n = len(table)
    out = dict.fromkeys(table, 0.0)
    for order in permutations(range(n)):
        prob = 1.0
        left = sum(w)
        for i in order:
            prob *= w[i] / left
            left -= w[i]
        for place, i in enumerate(order):
            out[table[i]] += prob * (n - 1 - place) / (n - 1)
    return out
