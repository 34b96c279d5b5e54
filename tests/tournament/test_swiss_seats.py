"""Swiss seat balance: what the pairing guarantees about seat counts, and that it holds."""

from __future__ import annotations

import random
from itertools import combinations, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournament._swiss import choose_byes, pair_round, table_sizes

from .helpers import record_random_results


def _least(counts: list[int]) -> set[int]:
    return {s for s, c in enumerate(counts) if c == min(counts)}


def _best_at_least_seats(table: tuple[int, ...], seats: list[list[int]]) -> int:
    """Brute force: the most bots of a table any seating puts in a seat they used least."""
    return max(
        sum(perm[i] in _least(seats[bot]) for i, bot in enumerate(table))
        for perm in permutations(range(len(table)))
    )


def _repeats(tables: list[tuple[int, ...]], met: list[set[int]]) -> int:
    return sum(b in met[a] for t in tables for a, b in combinations(t, 2))


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda k: st.tuples(st.integers(k * 2, 18), st.just(k), st.integers(0, 2**32))
    ),
    st.integers(1, 8),
    st.sampled_from(["short_tables", "byes"]),
)
def test_seat_counts_stay_within_one_wherever_a_table_allows_it(
    nks: tuple[int, int, int], rounds: int, odd: str
) -> None:
    """Each round, at every table: the seating puts as many bots in a least-used seat as
    any seating of that table could (so when some seating keeps all of them within one,
    the chosen one does), and the swaps between tables that balance seats add no repeat
    meeting, widen no table's range of scores, and never leave more bots out of a
    least-used seat than the pairing without them."""
    n, k, seed = nks
    rng = random.Random(seed)
    met: list[set[int]] = [set() for _ in range(n)]
    seats = [[0] * k for _ in range(n)]
    score = [0] * n
    byes = [0] * n
    for _ in range(rounds):
        order = sorted(range(n), key=lambda b: (-score[b], b))
        sizes, bye_count = table_sizes(n, k, odd)
        sitting_out = choose_byes(order, byes, bye_count)
        for bot in sitting_out:
            byes[bot] += 1
        playing = [b for b in order if b not in sitting_out]
        plain = pair_round(playing, sizes, met, seats, scores=score, balance_seats=False)
        tables = pair_round(playing, sizes, met, seats, scores=score)
        assert sorted(b for t in tables for b in t) == sorted(playing)
        assert _repeats(tables, met) <= _repeats(plain, met)
        for balanced, unbalanced in zip(tables, plain, strict=True):
            assert min(score[b] for b in balanced) >= min(score[b] for b in unbalanced)
            assert max(score[b] for b in balanced) <= max(score[b] for b in unbalanced)

        def placed(ts: list[tuple[int, ...]]) -> int:
            return sum(s in _least(seats[bot]) for t in ts for s, bot in enumerate(t))

        assert placed(tables) >= placed(plain)
        for table in tables:
            best = _best_at_least_seats(table, seats)
            achieved = sum(s in _least(seats[bot]) for s, bot in enumerate(table))
            assert achieved == best
            was_balanced = [max(seats[b]) - min(seats[b]) <= 1 for b in table]
            if best == len(table):
                for s, bot in enumerate(table):
                    after = list(seats[bot])
                    after[s] += 1
                    if was_balanced[s]:
                        assert max(after) - min(after) <= 1
        record_random_results(tables, rng, score, seats, met)


def test_a_swap_between_tables_of_equal_scores_balances_every_seat() -> None:
    # Every bot has used each seat once but one; the standings put the two bots lacking
    # seat 0 and the two lacking seat 1 at the first table, and 2, 2, 3, 3 at the second.
    # No table alone can seat its bots within one; one swap of equal scores can.
    lacking = [0, 0, 1, 1, 2, 2, 3, 3]
    seats = [[0 if s == miss else 1 for s in range(4)] for miss in lacking]
    met: list[set[int]] = [set() for _ in range(8)]
    order = list(range(8))
    plain = pair_round(order, [4, 4], met, seats, scores=[3] * 8, balance_seats=False)
    assert [sorted(t) for t in plain] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    tables = pair_round(order, [4, 4], met, seats, scores=[3] * 8)
    for table in tables:
        assert [lacking[bot] for bot in table] == [0, 1, 2, 3]  # each in the seat it lacked
    # With different scores the swap would widen a table's range: it is not made.
    kept = pair_round(order, [4, 4], met, seats, scores=[9, 9, 9, 9, 1, 1, 1, 1])
    assert [sorted(t) for t in kept] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_a_swap_never_brings_back_a_table_mate() -> None:
    lacking = [0, 0, 1, 1, 2, 2, 3, 3]
    seats = [[0 if s == miss else 1 for s in range(4)] for miss in lacking]
    met: list[set[int]] = [set() for _ in range(8)]
    # Every bot of the second table has met bots 0 and 2 of the first: no swap of those.
    for a in (4, 5, 6, 7):
        for b in (0, 1, 2, 3):
            met[a].add(b)
            met[b].add(a)
    tables = pair_round(list(range(8)), [4, 4], met, seats, scores=[3] * 8)
    assert [sorted(t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6, 7]]
