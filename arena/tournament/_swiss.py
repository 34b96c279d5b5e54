"""Swiss pairing for tables of k seats.

A round is formed from the standings (best first). In order of weight:

1. **No repeat table-mates**: a depth-first search seats each table's
   *anchor* (the best bot not yet seated) with the nearest bots below it in
   the standings that have met neither the anchor nor each other, and
   backtracks when the bots left over cannot be seated. For small fields it
   is exhaustive, so a repeat happens only when no pairing avoids one; for
   large fields a node budget bounds it, after which a greedy pass seats
   everyone and swaps between tables (nearest first) remove repeat meetings
   while they can.
2. **Small spread of scores at a table**: candidates are tried nearest in
   the standings first, so tables gather bots of similar score.
3. **Balanced seats**: a bot keeps its seat counts within one by sitting in
   a seat it used least. Bots are swapped between nearby tables while a
   swap lets more bots do so, adds no repeat meeting and widens neither
   table's range of scores; then each table's seats are assigned by a
   minimum-cost assignment (brute force up to 5 seats, Hungarian above)
   that seats as many bots as possible in a least-used seat, and after
   that spreads the rest as little as it can (the square of how far a seat
   is above the bot's least-used one).

When the bots do not fill whole tables (n mod k = r != 0), ``short_tables``
puts the bottom of the standings at k - r tables of k-1 seats (when that
is impossible, one table of r seats, or a bye when r = 1), moving a short
table up only when that is what avoids a repeat meeting; ``byes`` lets r
bots sit out, the lowest placed among those with the fewest byes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction

from arena.tournament._assign import seat_least_used

_BUDGET = 200_000
_REPAIR_BUDGET = 300_000
_SEAT_BUDGET = 400_000  # candidate swaps tried to balance seats, per round
_SEAT_WINDOW = 12  # tables on either side a seat-balancing swap looks at


class _Exhausted(Exception):
    pass


def table_sizes(n: int, k: int, odd: str) -> tuple[list[int], int]:
    """Table sizes (best tables first) and the number of byes for n bots at tables of k."""
    r = n % k
    if r == 0:
        return [k] * (n // k), 0
    if odd == "short_tables":
        short = k - r
        if k - 1 >= 2 and short * (k - 1) <= n:
            full = (n - short * (k - 1)) // k
            return [k] * full + [k - 1] * short, 0
        if r >= 2:
            return [k] * (n // k) + [r], 0
    return [k] * (n // k), r


def choose_byes(order: Sequence[int], byes: Sequence[int], count: int) -> list[int]:
    """The ``count`` bots that sit out: fewest byes so far, then lowest in the standings."""
    if count <= 0:
        return []
    place = {bot: i for i, bot in enumerate(order)}
    ranked = sorted(order, key=lambda b: (byes[b], -place[b]))
    return sorted(ranked[:count], key=lambda b: place[b])


def pair_round(
    order: Sequence[int],
    sizes: Sequence[int],
    met: Sequence[set[int]],
    seat_counts: Sequence[Sequence[int]],
    *,
    scores: Sequence[int | float | Fraction] | None = None,
    balance_seats: bool = True,
    budget: int = _BUDGET,
) -> list[tuple[int, ...]]:
    """Seat ``order`` (bots best first) at tables of ``sizes``; each table in seat order.

    ``met[b]`` holds the bots b has shared a table with; ``seat_counts[b][s]``
    how often b sat in seat s; ``scores[b]`` b's standing score (default: its
    position in ``order``), which seat-balancing swaps between tables must not
    spread further at either table. ``balance_seats=False`` skips those swaps
    (each table's seats are still assigned by least use).
    """
    if sum(sizes) != len(order):
        raise ValueError(f"{len(order)} bots do not fill tables of sizes {list(sizes)}")
    nodes = [budget]
    groups: list[list[int]] | None = None
    try:
        # Short tables go to the bottom first; when that order cannot avoid repeats,
        # every other order of the table sizes is tried before giving in.
        for sizes_order in _size_orders(sizes):
            groups = _search(order, sizes_order, met, nodes)
            if groups is not None:
                break
    except _Exhausted:
        groups = None
    if groups is None:
        groups = _repair(_greedy(order, sizes, met), met)
    if balance_seats:
        # Scores matter only by their order: rank them once, compare small integers after.
        values = [-i for i in range(len(order))] if scores is None else [scores[b] for b in order]
        ranks = {value: r for r, value in enumerate(sorted(set(values)))}
        key = {bot: ranks[value] for bot, value in zip(order, values, strict=True)}
        _balance_seats(groups, met, seat_counts, key)
    return [seat_least_used(group, seat_counts) for group in groups]


def _size_orders(sizes: Sequence[int]) -> Iterator[list[int]]:
    """Distinct orders of the table sizes, largest tables first, then the others."""
    values = sorted(-s for s in sizes)  # next-permutation on the negation: big first
    while True:
        yield [-v for v in values]
        i = len(values) - 2
        while i >= 0 and values[i] >= values[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(values) - 1
        while values[j] <= values[i]:
            j -= 1
        values[i], values[j] = values[j], values[i]
        values[i + 1 :] = reversed(values[i + 1 :])


def _search(
    order: Sequence[int], sizes: Sequence[int], met: Sequence[set[int]], budget: list[int]
) -> list[list[int]] | None:
    """Depth-first search over seats, iterative (a thousand bots is deeper than the stack)."""
    n = len(order)
    used = [False] * n
    slots = [(t, j) for t, size in enumerate(sizes) for j in range(size)]
    chosen = [-1] * len(slots)  # index into order, -1 when the slot is open
    depth = 0
    while depth < len(slots):
        if depth < 0:
            return None  # no pairing in this order of table sizes avoids repeats
        _, j = slots[depth]
        if j == 0:  # the anchor: the best bot not yet seated, no alternative
            if chosen[depth] < 0:
                anchor = used.index(False)
                chosen[depth] = anchor
                used[anchor] = True
                depth += 1
            else:
                used[chosen[depth]] = False
                chosen[depth] = -1
                depth -= 1
            continue
        if chosen[depth] >= 0:
            used[chosen[depth]] = False
            start = chosen[depth] + 1
        else:
            start = chosen[depth - 1] + 1
        members = [order[c] for c in chosen[depth - j : depth]]
        found = -1
        for i in range(start, n):
            if not used[i] and not any(order[i] in met[m] for m in members):
                found = i
                break
        budget[0] -= 1
        if budget[0] < 0:
            raise _Exhausted
        if found < 0:
            chosen[depth] = -1
            depth -= 1
        else:
            chosen[depth] = found
            used[found] = True
            depth += 1
    tables: list[list[int]] = []
    for (_, j), c in zip(slots, chosen, strict=True):
        if j == 0:
            tables.append([])
        tables[-1].append(order[c])
    return tables


def _greedy(
    order: Sequence[int], sizes: Sequence[int], met: Sequence[set[int]]
) -> list[list[int]]:
    """Anchor plus, one at a time, the nearest bot with the fewest meetings at the table."""
    remaining = list(order)
    tables: list[list[int]] = []
    for size in sizes:
        members = [remaining.pop(0)]
        while len(members) < size:
            best_i = min(
                range(len(remaining)),
                key=lambda i: (sum(remaining[i] in met[m] for m in members), i),
            )
            members.append(remaining.pop(best_i))
        tables.append(members)
    return tables


def _clashes(table: Sequence[int], met: Sequence[set[int]]) -> int:
    return sum(1 for i, a in enumerate(table) for b in table[i + 1 :] if b in met[a])


def _repair(tables: list[list[int]], met: Sequence[set[int]]) -> list[list[int]]:
    """Swap bots between tables, nearest tables first, while a swap removes repeat meetings.

    Every applied swap lowers the total number of repeat meetings, so this ends; a
    budget of candidate swaps bounds the time when repeats are unavoidable anyway.
    """
    clashes = [_clashes(t, met) for t in tables]
    budget = [_REPAIR_BUDGET]
    while True:
        swap = _find_swap(tables, clashes, met, budget)
        if swap is None:
            return tables
        ti, i, tj, j = swap
        tables[ti][i], tables[tj][j] = tables[tj][j], tables[ti][i]
        clashes[ti] = _clashes(tables[ti], met)
        clashes[tj] = _clashes(tables[tj], met)


def _find_swap(
    tables: list[list[int]], clashes: list[int], met: Sequence[set[int]], budget: list[int]
) -> tuple[int, int, int, int] | None:
    """The first swap (table, seat, other table, seat) that lowers the repeat meetings."""
    for ti, table in enumerate(tables):
        if not clashes[ti]:
            continue
        for i, a in enumerate(table):
            if not any(b in met[a] for b in table if b != a):
                continue
            for tj in sorted(range(len(tables)), key=lambda t: (abs(t - ti), t)):
                if tj == ti:
                    continue
                other = tables[tj]
                before = clashes[ti] + clashes[tj]
                for j, b in enumerate(other):
                    budget[0] -= 1
                    if budget[0] < 0:
                        return None
                    new_t = [*table[:i], b, *table[i + 1 :]]
                    new_o = [*other[:j], a, *other[j + 1 :]]
                    if _clashes(new_t, met) + _clashes(new_o, met) < before:
                        return ti, i, tj, j
    return None


def _least_seats(counts: Sequence[int]) -> int:
    """Bit mask of the seats a bot used least: where it may sit this round and keep its
    seat counts within one (or not drift further apart when they already are)."""
    if not counts:
        return 0xFF  # no history: any seat
    least = min(counts)
    return sum(1 << s for s, count in enumerate(counts) if count == least)


def _misplaced(masks: Sequence[int]) -> int:
    """Bots of a table that cannot all get one of their least-used seats: the table's size
    minus a maximum matching of bots to seats (augmenting paths; a table has at most 8)."""
    owner: dict[int, int] = {}

    def place(i: int, seen: int) -> bool:
        free = masks[i] & ~seen
        while free:
            bit = free & -free
            free ^= bit
            seen |= bit
            if bit not in owner or place(owner[bit], seen):
                owner[bit] = i
                return True
        return False

    return sum(1 for i in range(len(masks)) if not place(i, 0))


def _balance_seats(
    tables: list[list[int]],
    met: Sequence[set[int]],
    seat_counts: Sequence[Sequence[int]],
    scores: Mapping[int, int],
) -> None:
    """Swap bots between nearby tables so more of them can sit in a seat they used least.

    A swap is taken only if it adds no repeat meeting, widens neither table's range of
    scores, and lowers the number of bots the two tables must seat elsewhere than in one of
    their least-used seats; so it never undoes the heavier criteria. Each applied swap lowers
    that number, so this ends; a budget of candidate swaps bounds the time.
    """
    masks = {bot: _least_seats(seat_counts[bot]) for t in tables for bot in t}

    def misplaced(table: Sequence[int]) -> int:
        size = len(table)
        return _misplaced([masks[b] & ((1 << size) - 1) for b in table])

    def spread(table: Sequence[int]) -> tuple[int, int]:
        values = [scores[b] for b in table]
        return min(values), max(values)

    bad = [misplaced(t) for t in tables]
    if not any(bad):
        return
    clashes = [_clashes(t, met) for t in tables]
    ranges = [spread(t) for t in tables]
    budget = _SEAT_BUDGET
    improved = True
    while improved and budget > 0:
        improved = False
        for ti in range(len(tables)):
            while bad[ti] and budget > 0:
                swap, budget = _seat_swap(ti, tables, bad, clashes, ranges, met, misplaced,
                                          spread, budget)
                if swap is None:
                    break
                tj, i, j, new_bad = swap
                a, b = tables[ti][i], tables[tj][j]
                tables[ti][i], tables[tj][j] = b, a
                bad[ti], bad[tj] = new_bad
                clashes[ti] = _clashes(tables[ti], met)
                clashes[tj] = _clashes(tables[tj], met)
                ranges[ti], ranges[tj] = spread(tables[ti]), spread(tables[tj])
                improved = True


def _seat_swap(
    ti: int,
    tables: list[list[int]],
    bad: list[int],
    clashes: list[int],
    ranges: list[tuple[int, int]],
    met: Sequence[set[int]],
    misplaced: Callable[[Sequence[int]], int],
    spread: Callable[[Sequence[int]], tuple[int, int]],
    budget: int,
) -> tuple[tuple[int, int, int, tuple[int, int]] | None, int]:
    """The first swap of a bot of table ``ti`` with one of a nearby table that seats more
    bots in least-used seats (nearest tables first), and the budget left."""
    table = tables[ti]
    low, high = ranges[ti]
    order = sorted(
        (t for t in range(max(0, ti - _SEAT_WINDOW), min(len(tables), ti + _SEAT_WINDOW + 1))
         if t != ti),
        key=lambda t: (abs(t - ti), t),
    )
    for tj in order:
        other = tables[tj]
        o_low, o_high = ranges[tj]
        if o_high < low or o_low > high:
            continue  # no bot there fits this table's range of scores
        before = bad[ti] + bad[tj]
        for i, a in enumerate(table):
            for j, b in enumerate(other):
                budget -= 1
                if budget <= 0:
                    return None, 0
                new_t = [*table[:i], b, *table[i + 1 :]]
                new_o = [*other[:j], a, *other[j + 1 :]]
                t_low, t_high = spread(new_t)
                n_low, n_high = spread(new_o)
                if t_low < low or t_high > high or n_low < o_low or n_high > o_high:
                    continue
                if _clashes(new_t, met) + _clashes(new_o, met) > clashes[ti] + clashes[tj]:
                    continue
                after_t, after_o = misplaced(new_t), misplaced(new_o)
                if after_t + after_o < before:
                    return (tj, i, j, (after_t, after_o)), budget
    return None, budget
