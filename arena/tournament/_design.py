"""Block designs for tables of k seats: which bots meet, and who sits where.

Two tools, both exact rather than heuristic:

- **Rotation classes.** Number the bots 0..n-1 and shift a k-subset S by j
  (every member x becomes x+j mod n). The n shifts of S form its class. If
  member x of S sits in seat s(x), and in the shift S+j bot x+j takes the
  same seat s(x), then over a full class of n tables each bot plays exactly
  k tables, once in every seat. A full round robin is the union of all
  classes; a capped one is a sample of whole classes, so the balance holds
  exactly. Classes are produced one at a time: nothing grows with the
  number of tables.
- **Equitable seat colouring** (de Werra's theorem): for tables that are not
  whole classes (the few subsets a shift maps onto themselves, gauntlets),
  seats are assigned as a k-edge-colouring of the bipartite graph tables x
  bots in which every bot gets every seat floor(d/k) or ceil(d/k) times,
  d being its number of tables. Each bot's tables are cut into groups of k,
  and the groups are coloured properly with alternating-path swaps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb

from arena.seeds import rng as seeded

Table = tuple[int, ...]
"""Bots of one table, in seat order (entry i sits in seat i)."""


def _shift(subset: Sequence[int], j: int, n: int) -> tuple[int, ...]:
    return tuple(sorted((x + j) % n for x in subset))


def _canonical(subset: tuple[int, ...], n: int) -> tuple[tuple[int, ...], int]:
    """The class representative (smallest shift containing 0) and the class size."""
    best = subset
    period = n
    for x in subset:
        shifted = _shift(subset, -x, n)
        if shifted < best:
            best = shifted
        if x and shifted == subset:
            period = min(period, x)
    # The period is the smallest positive shift that maps the subset onto itself.
    return best, period


def _class_tables(rep: tuple[int, ...], size: int, n: int) -> Iterator[Table]:
    """The tables of a class: shift j seats bot x+j where x sat in the representative."""
    for j in range(size):
        yield tuple((x + j) % n for x in rep)


def rotation_classes(n: int, k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every class of k-subsets of range(n) as (representative, size), in a fixed order."""
    for rest in combinations(range(1, n), k - 1):
        subset = (0, *rest)
        rep, size = _canonical(subset, n)
        if rep == subset:
            yield rep, size


def full_round_robin(n: int, k: int) -> Iterator[Table]:
    """Every k-subset of n bots once, seats balanced within one for every bot.

    Whole classes stream out first (exactly balanced); the few subsets that
    some shift maps onto themselves come last, seated by equitable colouring.
    """
    short: list[Table] = []
    for rep, size in rotation_classes(n, k):
        if size == n:
            yield from _class_tables(rep, size, n)
        else:
            short.extend(_class_tables(rep, size, n))
    if short:
        yield from equitable_seats(short, k)


def sampled_round_robin(
    n: int, k: int, max_tables: int, seed: int, block: int = 0
) -> Iterator[Table]:
    """A balanced sample of whole classes: at most ``max_tables`` tables.

    Every bot plays exactly ``classes * k`` tables, ``classes`` in each seat,
    where ``classes = max_tables // n``. Falls back to the full round robin
    when it fits under the cap. The sample is drawn from the tournament
    ``seed``; ``block`` tells apart several samples of one tournament.
    """
    if comb(n, k) <= max_tables:
        yield from full_round_robin(n, k)
        return
    wanted = capped_classes(n, k, max_tables)
    rng = seeded(seed, "design", n, k, block)
    chosen: list[tuple[int, ...]] = []
    if wanted * 2 > comb(n, k) // n:
        # Dense sample: enumerate the classes and draw without replacement.
        reps = [rep for rep, size in rotation_classes(n, k) if size == n]
        chosen = sorted(rng.sample(reps, wanted))
    else:
        taken: set[tuple[int, ...]] = set()
        while len(chosen) < wanted:
            subset = (0, *sorted(rng.sample(range(1, n), k - 1)))
            rep, size = _canonical(subset, n)
            if size == n and rep not in taken:
                taken.add(rep)
                chosen.append(rep)
    for rep in chosen:
        yield from _class_tables(rep, n, n)


def capped_classes(n: int, k: int, max_tables: int) -> int:
    """How many whole classes a round robin capped at ``max_tables`` tables plays."""
    # Subsets that a proper shift d (a divisor of n) maps onto themselves are unions of
    # residues mod d; their count bounds the subsets outside whole classes from above.
    short = sum(
        comb(d, k * d // n) for d in range(1, n) if n % d == 0 and (k * d) % n == 0
    )
    return min(max_tables // n, (comb(n, k) - short) // n)


def round_robin_tables(n: int, k: int, max_tables: int | None) -> int:
    """Number of tables of a round robin of n bots at tables of k, optionally capped."""
    if max_tables is None or comb(n, k) <= max_tables:
        return comb(n, k)
    return capped_classes(n, k, max_tables) * n


def equitable_seats(tables: Sequence[Sequence[int]], k: int) -> list[Table]:
    """Seat every table (all of k bots) so each bot's seat counts differ by at most one."""
    # Vertices: tables are 0..T-1; each bot's tables are cut into groups of k, and each
    # group is one vertex T.. (a group of at most k edges gets distinct seats).
    t_count = len(tables)
    group_of: dict[tuple[int, int], int] = {}
    bot_of: dict[int, int] = {}
    seen: dict[int, int] = {}
    next_group = t_count
    edges: list[tuple[int, int, int]] = []  # (table vertex, group vertex, bot)
    for t, table in enumerate(tables):
        if len(table) != k:
            raise ValueError(f"table {t} has {len(table)} bots, not {k}")
        for bot in table:
            count = seen.get(bot, 0)
            seen[bot] = count + 1
            key = (bot, count // k)
            if key not in group_of:
                group_of[key] = next_group
                bot_of[next_group] = bot
                next_group += 1
            edges.append((t, group_of[key], bot))
    # at[v][c] = the other end of the edge coloured c at vertex v.
    at: list[dict[int, int]] = [{} for _ in range(next_group)]
    for u, v, _ in edges:
        a = next(c for c in range(k) if c not in at[u])
        b = next(c for c in range(k) if c not in at[v])
        if a not in at[v]:
            at[u][a] = v
            at[v][a] = u
            continue
        _swap_path(at, v, a, b)
        at[u][a] = v
        at[v][a] = u
    seated: list[Table] = []
    for t in range(len(tables)):
        seats = [-1] * k
        for colour, group in at[t].items():
            seats[colour] = bot_of[group]
        seated.append(tuple(seats))
    return seated


def _swap_path(at: list[dict[int, int]], v: int, a: int, b: int) -> None:
    """Swap colours a and b along the path from v that alternates a, b, ...; in a bipartite
    graph it cannot reach the edge's other end, after which a is free at both ends."""
    path = [v]
    colour = a
    x = v
    while colour in at[x]:
        y = at[x][colour]
        path.append(y)
        x = y
        colour = b if colour == a else a
    colour = a
    pairs: list[tuple[int, int, int]] = []
    for p in range(len(path) - 1):
        pairs.append((path[p], path[p + 1], colour))
        colour = b if colour == a else a
    for x, y, c in pairs:
        del at[x][c]
        del at[y][c]
    for x, y, c in pairs:
        other = b if c == a else a
        at[x][other] = y
        at[y][other] = x
