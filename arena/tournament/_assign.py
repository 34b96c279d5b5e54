"""Seating one table: each bot where it sat least, by a minimum-cost assignment."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations


def seat_least_used(
    group: Sequence[int], seat_counts: Sequence[Sequence[int]]
) -> tuple[int, ...]:
    """Seat a table's bots where they sat least (minimum-cost assignment; ties by order)."""
    m = len(group)
    # First as many bots as possible in a seat they used least (each other seat would put
    # its counts two apart), then the square of how far above its least-used seat a seat
    # is, so an imbalance of two costs more than several of one.
    squares = []
    for bot in group:
        counts = seat_counts[bot]
        least = min(counts) if counts else 0
        squares.append([(counts[s] - least) ** 2 if s < len(counts) else 0 for s in range(m)])
    heavy = m * max(max(row) for row in squares) + 1
    cost = [[heavy * (sq > 0) + sq for sq in row] for row in squares]
    if m <= 5:
        best = min(
            permutations(range(m)),
            key=lambda perm: sum(cost[i][perm[i]] for i in range(m)),
        )
    else:
        best = tuple(_hungarian(cost))
    seats = [-1] * m
    for i, s in enumerate(best):
        seats[s] = group[i]
    return tuple(seats)


def _hungarian(cost: Sequence[Sequence[int]]) -> list[int]:
    """Minimum-cost assignment row -> column of a square matrix (O(m^3))."""
    m = len(cost)
    inf = float("inf")
    u = [0.0] * (m + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)
    way = [0] * (m + 1)
    for i in range(1, m + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    assignment = [0] * m
    for j in range(1, m + 1):
        if p[j]:
            assignment[p[j] - 1] = j - 1
    return assignment
