"""Swiss pairing's costs and swaps: who may meet whom, and swaps between tables.

A pairing's cost counts the repeat meetings at its tables (1 each) and seats team-mates
together at a cost no swap that lowers the cost can pay (:data:`MATE`). The swaps here only
ever lower that cost (repairs) or keep it (seat balancing), so neither undoes the search's
heavier criteria: team-mates apart first, no repeat meeting next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

_REPAIR_BUDGET = 300_000
_SEAT_BUDGET = 400_000  # candidate swaps tried to balance seats, per round
_SEAT_WINDOW = 12  # tables on either side a seat-balancing swap looks at


MATE = 1 << 30
"""What seating two team-mates together costs, against 1 for a repeat meeting: no swap
that lowers the cost can seat them together."""


class Meetings:
    """Who met whom (a repeat costs 1) and who must never meet (team-mates)."""

    def __init__(self, met: Sequence[set[int]], mates: Sequence[set[int]] | None,
                 repeats: bool = True) -> None:
        self.met = met
        self.mates = mates if mates is not None else [set() for _ in met]
        self.teams = any(self.mates)
        self.repeats = repeats

    def cost(self, a: int, b: int) -> int:
        """What seating ``a`` with ``b`` costs."""
        if b in self.mates[a]:
            return MATE
        return 1 if self.repeats and b in self.met[a] else 0

    def avoid(self, a: int, b: int) -> bool:
        """Whether the search seats ``a`` and ``b`` apart."""
        return self.cost(a, b) > 0

    def teams_only(self) -> Meetings:
        """The same team-mates, repeat meetings allowed."""
        return Meetings(self.met, self.mates, repeats=False)


def table_cost(table: Sequence[int], met: Meetings) -> int:
    return sum(met.cost(a, b) for i, a in enumerate(table) for b in table[i + 1 :])


def repair(tables: list[list[int]], met: Meetings) -> list[list[int]]:
    """Swap bots between tables, nearest tables first, while a swap removes repeat meetings.

    Every applied swap lowers the total number of repeat meetings, so this ends; a
    budget of candidate swaps bounds the time when repeats are unavoidable anyway.
    """
    clashes = [table_cost(t, met) for t in tables]
    budget = [_REPAIR_BUDGET]
    while True:
        swap = _find_swap(tables, clashes, met, budget)
        if swap is None:
            return tables
        ti, i, tj, j = swap
        tables[ti][i], tables[tj][j] = tables[tj][j], tables[ti][i]
        clashes[ti] = table_cost(tables[ti], met)
        clashes[tj] = table_cost(tables[tj], met)


def _find_swap(
    tables: list[list[int]], clashes: list[int], met: Meetings, budget: list[int]
) -> tuple[int, int, int, int] | None:
    """The first swap (table, seat, other table, seat) that lowers the repeat meetings."""
    for ti, table in enumerate(tables):
        if not clashes[ti]:
            continue
        for i, a in enumerate(table):
            if not any(met.cost(a, b) for b in table if b != a):
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
                    if table_cost(new_t, met) + table_cost(new_o, met) < before:
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


def balance(
    tables: list[list[int]],
    met: Meetings,
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
    clashes = [table_cost(t, met) for t in tables]
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
                clashes[ti] = table_cost(tables[ti], met)
                clashes[tj] = table_cost(tables[tj], met)
                ranges[ti], ranges[tj] = spread(tables[ti]), spread(tables[tj])
                improved = True


def _seat_swap(
    ti: int,
    tables: list[list[int]],
    bad: list[int],
    clashes: list[int],
    ranges: list[tuple[int, int]],
    met: Meetings,
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
                if table_cost(new_t, met) + table_cost(new_o, met) > clashes[ti] + clashes[tj]:
                    continue
                after_t, after_o = misplaced(new_t), misplaced(new_o)
                if after_t + after_o < before:
                    return (tj, i, j, (after_t, after_o)), budget
    return None, budget
