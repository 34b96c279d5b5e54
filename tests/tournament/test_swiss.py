"""Swiss pairing: everyone seated once, no repeat table-mates while avoidable, byes, seats."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournament import Schedule, SwissHistory, dry_run_match, validate_config
from arena.tournament._formats._swiss import swiss_tables
from arena.tournament._swiss import choose_byes, pair_round, table_sizes

from .helpers import record_random_results


def _repeat_free_partition_exists(
    bots: list[int], sizes: list[int], met: list[set[int]]
) -> bool:
    """Exhaustive: can ``bots`` be split into groups of ``sizes`` with no two that met?"""
    if not bots:
        return not sizes
    first, rest = bots[0], bots[1:]
    for size in set(sizes):
        remaining_sizes = list(sizes)
        remaining_sizes.remove(size)
        for partners in combinations(rest, size - 1):
            group = (first, *partners)
            if any(b in met[a] for a, b in combinations(group, 2)):
                continue
            left = [b for b in rest if b not in partners]
            if _repeat_free_partition_exists(left, remaining_sizes, met):
                return True
    return False


def test_table_sizes_rule() -> None:
    assert table_sizes(8, 4, "short_tables") == ([4, 4], 0)
    assert table_sizes(10, 4, "short_tables") == ([4, 3, 3], 0)
    assert table_sizes(6, 4, "short_tables") == ([3, 3], 0)
    assert table_sizes(5, 4, "short_tables") == ([4], 1)  # 3 tables of 3 need 9 bots
    assert table_sizes(7, 2, "short_tables") == ([2, 2, 2], 1)  # a table of 1 is no table
    assert table_sizes(10, 4, "byes") == ([4, 4], 2)
    assert table_sizes(11, 8, "short_tables") == ([8, 3], 0)


def test_byes_go_to_the_lowest_placed_with_fewest_byes() -> None:
    order = [0, 1, 2, 3, 4]
    assert choose_byes(order, [0, 0, 0, 0, 0], 2) == [3, 4]
    assert choose_byes(order, [0, 0, 0, 1, 1], 2) == [1, 2]
    assert choose_byes(order, [0, 0, 0, 0, 0], 0) == []


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda k: st.tuples(st.integers(k * 2, 10), st.just(k), st.integers(0, 2**32))
    ),
    st.integers(1, 6),
)
def test_no_repeat_table_mates_while_avoidable(nks: tuple[int, int, int], rounds: int) -> None:
    n, k, seed = nks
    rng = random.Random(seed)
    met: list[set[int]] = [set() for _ in range(n)]
    seats = [[0] * k for _ in range(n)]
    score = [0] * n
    for _ in range(rounds):
        order = sorted(range(n), key=lambda b: (-score[b], b))
        sizes, byes = table_sizes(n, k, "short_tables")
        playing = [b for b in order if b not in choose_byes(order, [0] * n, byes)]
        tables = pair_round(playing, sizes, met, seats)
        assert sorted(b for t in tables for b in t) == sorted(playing)
        assert sorted(map(len, tables), reverse=True) == sorted(sizes, reverse=True)
        repeats = sum(b in met[a] for t in tables for a, b in combinations(t, 2))
        if _repeat_free_partition_exists(playing, sizes, met):
            assert repeats == 0
        record_random_results(tables, rng, score, seats, met)


def test_pairing_keeps_score_neighbours_together_in_the_first_rounds() -> None:
    order = list(range(12))
    tables = pair_round(order, [4, 4, 4], [set() for _ in range(12)], [[0] * 4] * 12)
    assert [sorted(t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_seats_go_where_a_bot_sat_least() -> None:
    seats = [[3, 0], [0, 3]]  # bot 0 always sat in seat 0, bot 1 in seat 1
    (table,) = pair_round([0, 1], [2], [set(), set()], seats)
    assert table == (1, 0)


def test_large_field_falls_back_without_failing_when_repeats_are_forced() -> None:
    n = 8
    met = [set(range(n)) - {b} for b in range(n)]  # everyone has met everyone
    tables = pair_round(list(range(n)), [4, 4], met, [[0] * 4 for _ in range(n)])
    assert sorted(b for t in tables for b in t) == list(range(n))


def _swiss(n: int, k: int, rounds: int, odd: str) -> Schedule:
    names = ["greedy", "random", "lowest", "highest", "passer"]
    config = validate_config(
        {
            "name": "s",
            "seed": 3,
            "players": k,
            "format": {"type": "swiss", "rounds": rounds, "odd": odd},
            "bots": [{"name": names[i % 5], "label": f"b{i}"} for i in range(n)],
        },
        check_bots=False,
    )
    return Schedule(config)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: st.tuples(st.integers(k + 1, 11), st.just(k))),
       st.sampled_from(["short_tables", "byes"]))
def test_swiss_rounds_seat_every_bot_once_and_rotate_byes(
    nk: tuple[int, int], odd: str
) -> None:
    n, k = nk
    schedule = _swiss(n, k, 4, odd)
    history = SwissHistory(schedule.labels, k)
    total = 0
    bye_counts: Counter[int] = Counter()
    for r in range(4):
        tables, byes = swiss_tables(schedule, r, history)
        seated = [b for t in tables for b in t.bots]
        assert sorted(seated + byes) == list(range(n))
        for bye in byes:
            history.byes[bye] += 1
            bye_counts[bye] += 1
        # nobody gets a second bye while another bot has none
        if bye_counts:
            assert max(bye_counts.values()) - min(bye_counts[b] for b in range(n)) <= 1
        for table in tables:
            for spec in schedule.specs(table):
                total += 1
                history.add(dry_run_match(spec))
    assert total == schedule.total


def test_pairing_1000_bots_is_correct() -> None:
    n, k = 1000, 4
    rng = random.Random(1)
    met: list[set[int]] = [set() for _ in range(n)]
    seats = [[0] * k for _ in range(n)]
    order = list(range(n))
    for _ in range(3):
        rng.shuffle(order)
        tables = pair_round(order, [4] * 250, met, seats)
        assert sorted(b for t in tables for b in t) == list(range(n))
        assert not any(b in met[a] for t in tables for a, b in combinations(t, 2))
        for t in tables:
            for a in t:
                met[a].update(b for b in t if b != a)




@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(8, 16))
def test_when_the_search_gives_up_swaps_still_seat_everyone_once(
    seed: int, k: int, n: int
) -> None:
    from arena.tournament._swiss import _greedy
    from arena.tournament._swiss_swaps import Meetings

    rng = random.Random(seed)
    met: list[set[int]] = [set() for _ in range(n)]
    for _ in range(n * 2):  # a random history of meetings
        a, b = rng.sample(range(n), 2)
        met[a].add(b)
        met[b].add(a)
    sizes, _ = table_sizes(n - n % k, k, "short_tables")
    order = list(range(n - n % k))
    tables = pair_round(order, sizes, met, [[0] * k for _ in range(n)], budget=0)
    assert sorted(b for t in tables for b in t) == order
    greedy = _greedy(order, sizes, Meetings(met, None))

    def repeats(ts: list[Any]) -> int:
        return sum(b in met[a] for t in ts for a, b in combinations(t, 2))

    assert repeats(tables) <= repeats(greedy)
