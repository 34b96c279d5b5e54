"""Swiss pairing for tables of k seats.

A round is formed from the standings (best first). In order of weight:

0. **Team-mates apart** (``team:``, arena/tournament/_teams.py): never broken. The search
   treats team-mates as bots that must not meet; when repeats cannot be avoided, it searches
   again with team-mates alone kept apart (or deals each team over the tables, a member per
   table, when the search gives up), and the swaps below never seat two together
   (:mod:`._swiss_swaps`).
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

from collections.abc import Iterator, Sequence
from fractions import Fraction

from arena.tournament._assign import seat_least_used
from arena.tournament._swiss_swaps import MATE, Meetings, balance, repair, table_cost

_BUDGET = 200_000


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
    mates: Sequence[set[int]] | None = None,
) -> list[tuple[int, ...]]:
    """Seat ``order`` (bots best first) at tables of ``sizes``; each table in seat order.

    ``met[b]`` holds the bots b has shared a table with; ``seat_counts[b][s]``
    how often b sat in seat s; ``scores[b]`` b's standing score (default: its
    position in ``order``), which seat-balancing swaps between tables must not
    spread further at either table. ``balance_seats=False`` skips those swaps
    (each table's seats are still assigned by least use). ``mates[b]``: b's team-mates,
    never seated with it (before every other criterion; a ``ValueError`` when no pairing
    can, i.e. a team has more members than there are tables).
    """
    if sum(sizes) != len(order):
        raise ValueError(f"{len(order)} bots do not fill tables of sizes {list(sizes)}")
    meetings = Meetings(met, mates)
    groups = _first_search(order, sizes, meetings, [budget])
    if groups is None and meetings.teams:  # repeats cannot be avoided: team-mates still are
        groups = _first_search(order, sizes, meetings.teams_only(), [budget])
        if groups is None:
            groups = _deal_apart(order, sizes, meetings)
        groups = repair(groups, meetings)
    if groups is None:
        groups = repair(_greedy(order, sizes, meetings), meetings)
    if balance_seats:
        # Scores matter only by their order: rank them once, compare small integers after.
        values = [-i for i in range(len(order))] if scores is None else [scores[b] for b in order]
        ranks = {value: r for r, value in enumerate(sorted(set(values)))}
        key = {bot: ranks[value] for bot, value in zip(order, values, strict=True)}
        balance(groups, meetings, seat_counts, key)
    return [seat_least_used(group, seat_counts) for group in groups]


def _first_search(order: Sequence[int], sizes: Sequence[int], met: Meetings,
                  nodes: list[int]) -> list[list[int]] | None:
    """The first pairing the search finds over the orders of the table sizes, or None."""
    try:
        # Short tables go to the bottom first; when that order cannot avoid repeats,
        # every other order of the table sizes is tried before giving in.
        for sizes_order in _size_orders(sizes):
            groups = _search(order, sizes_order, met, nodes)
            if groups is not None:
                return groups
    except _Exhausted:
        pass
    return None


def _deal_apart(order: Sequence[int], sizes: Sequence[int], met: Meetings) -> list[list[int]]:
    """Team-mates at different tables, whatever the standings: each team's members (largest
    team first) dealt to consecutive seats of a column-by-column walk over the tables (the
    biggest tables first), which never gives one table two of them while a team has at most
    as many members as there are tables."""
    tables = sorted(range(len(sizes)), key=lambda t: -sizes[t])
    walk = [t for row in range(max(sizes, default=0)) for t in tables if row < sizes[t]]
    team_of: dict[int, int] = {}
    for bot in order:
        if bot not in team_of:
            team_of[bot] = len(team_of)
            for mate in met.mates[bot]:
                team_of[mate] = team_of[bot]
    blocks: dict[int, list[int]] = {}
    for bot in order:
        blocks.setdefault(team_of[bot], []).append(bot)
    dealt = [bot for block in sorted(blocks.values(), key=lambda b: -len(b)) for bot in block]
    groups: list[list[int]] = [[] for _ in sizes]
    for t, bot in zip(walk, dealt, strict=True):
        groups[t].append(bot)
    if any(table_cost(group, met) >= MATE for group in groups):
        raise ValueError("a team has more members than a round has tables: its members "
                         "cannot be seated apart")
    return groups


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
    order: Sequence[int], sizes: Sequence[int], met: Meetings, budget: list[int]
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
            if not used[i] and not any(met.avoid(m, order[i]) for m in members):
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
    order: Sequence[int], sizes: Sequence[int], met: Meetings
) -> list[list[int]]:
    """Anchor plus, one at a time, the nearest bot with the fewest meetings at the table."""
    remaining = list(order)
    tables: list[list[int]] = []
    for size in sizes:
        members = [remaining.pop(0)]
        while len(members) < size:
            best_i = min(
                range(len(remaining)),
                key=lambda i: (sum(met.cost(m, remaining[i]) for m in members), i),
            )
            members.append(remaining.pop(best_i))
        tables.append(members)
    return tables


