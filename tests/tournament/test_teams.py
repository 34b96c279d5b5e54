"""``team:`` on bots: team-mates never share a table, in every format that seats them, and a
config whose format cannot keep them apart is refused with one line saying why."""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournament import ConfigError, Schedule, run_tournament, validate_config
from arena.tournament._swiss import pair_round, table_sizes
from tests.tournament.helpers import fixed_tables

from .helpers import load_records, record_random_results

RULES = {"preset": "runs", "rounds": 1}
SIX = [{"name": "greedy", "team": "red"}, {"name": "random", "team": "red"}, "lowest",
       "highest", "passer", {"name": "random", "label": "r2", "team": "blue"}]


def _config(fmt: dict[str, Any], bots: list[Any], players: int = 4,
            **extra: Any) -> dict[str, Any]:
    return {"name": "teams", "seed": 4, "players": players, "rules": RULES, "format": fmt,
            "bots": bots, **extra}


def _refusal(mapping: dict[str, Any]) -> str:
    with pytest.raises(ConfigError) as caught:
        validate_config(mapping, source="t.yaml")
    lines = str(caught.value).splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def _mates_apart(tables: Iterable[Iterable[int]], teams: dict[int, str]) -> bool:
    for table in tables:
        named = [teams[b] for b in table if b in teams]
        if len(named) != len(set(named)):
            return False
    return True


def _seated_labels(records: list[dict[str, Any]]) -> list[set[str]]:
    return [{seat["label"] for seat in record["seats"]} for record in records]


def test_a_round_robin_leaves_out_the_tables_of_team_mates() -> None:
    schedule = Schedule(validate_config(_config({"type": "round_robin"}, SIX)))
    tables = [t.bots for t in fixed_tables(schedule)]
    # greedy (0) and random (1) are team-mates: the C(4, 2) tables holding both are left out
    assert len(tables) == schedule.total == comb(6, 4) - comb(4, 2)
    assert all(not {0, 1} <= set(t) for t in tables)
    assert len({tuple(sorted(t)) for t in tables}) == len(tables)
    for bot in range(6):  # seats balanced again over what is left
        seats = [sum(1 for t in tables if t[s] == bot) for s in range(4)]
        assert max(seats) - min(seats) <= 1, (bot, seats)


def test_a_capped_round_robin_keeps_team_mates_apart_too() -> None:
    bots = [*SIX, "lowest:l2", "highest:h2"]
    bots = [b if not (isinstance(b, str) and ":" in b) else
            {"name": b.split(":")[0], "label": b.split(":")[1], "team": "blue"} for b in bots]
    config = validate_config(_config({"type": "round_robin", "max_tables": 16}, bots))
    schedule = Schedule(config)
    tables = [t.bots for t in fixed_tables(schedule)]
    teams = {i: b.team for i, b in enumerate(config.bots) if b.team}
    assert tables and len(tables) == schedule.total <= 16
    assert _mates_apart(tables, teams)


def test_a_round_robin_of_team_mates_at_one_table_is_refused() -> None:
    bots = [{"name": "greedy", "team": "red"}, {"name": "random", "team": "red"}, "lowest",
            "highest"]
    line = _refusal(_config({"type": "round_robin"}, bots))
    assert "no table of 4 keeps team-mates apart" in line and "3 different teams" in line
    validate_config(_config({"type": "round_robin"}, bots, players=3))  # tables of 3 can


def test_a_gauntlet_never_seats_a_challenger_with_its_team_mate() -> None:
    config = validate_config(_config({"type": "gauntlet", "challengers": ["greedy"]}, SIX))
    schedule = Schedule(config)
    tables = [t.bots for t in fixed_tables(schedule)]
    assert tables and len(tables) == schedule.total
    assert all(0 in t and 1 not in t for t in tables)
    assert _mates_apart(tables, {0: "red", 1: "red", 5: "blue"})
    # with three of five opponents in its own team, greedy has no table of 4
    bots = [{"name": "greedy", "team": "red"}, {"name": "random", "team": "red"},
            {"name": "lowest", "team": "red"}, {"name": "highest", "team": "red"}, "passer",
            {"name": "random", "label": "r2"}]
    line = _refusal(_config({"type": "gauntlet", "challengers": ["greedy"]}, bots))
    assert "challenger 'greedy' has no table of 4 without a team-mate" in line


def test_an_sprt_with_team_mates_is_refused() -> None:
    bots = [{"name": "greedy", "team": "red"}, {"name": "random", "team": "red"}]
    line = _refusal(_config({"type": "sprt", "challenger": "greedy", "baseline": "random"},
                            bots, players=2))
    assert "format sprt seats every bot at every set" in line and "greedy and random" in line


def test_a_swiss_tournament_never_pairs_team_mates(tmp_path: Path) -> None:
    bots = [*SIX, {"name": "lowest", "label": "l2", "team": "blue"},
            {"name": "highest", "label": "h2", "team": "green"}]
    mapping = _config({"type": "swiss", "rounds": 4}, bots)
    result = run_tournament(mapping, out=tmp_path / "swiss", jobs=1)
    records = load_records(tmp_path / "swiss" / "records.jsonl")
    assert result.played == len(records) == 8
    red, blue = {"greedy", "random"}, {"r2", "l2"}
    for seated in _seated_labels(records):
        assert len(seated & red) <= 1 and len(seated & blue) <= 1, seated


def test_a_swiss_team_larger_than_the_tables_of_a_round_is_refused() -> None:
    bots = [{"name": "greedy", "team": "red"}, {"name": "random", "team": "red"},
            {"name": "lowest", "team": "red"}, "highest", "passer",
            {"name": "random", "label": "r2"}, {"name": "lowest", "label": "l2"},
            {"name": "highest", "label": "h2"}]
    line = _refusal(_config({"type": "swiss", "rounds": 2}, bots))
    assert "team 'red' has 3 members but a Swiss round of 8 bots has 2 tables" in line


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(6, 14), st.booleans())
def test_swiss_pairing_keeps_teams_apart_whatever_the_history(
    seed: int, k: int, n: int, give_up: bool
) -> None:
    """Random teams of at most as many members as tables, random results round after round
    (repeats soon unavoidable), and a search that gives up at once or not: team-mates never
    share a table, and everyone is seated once."""
    rng = random.Random(seed)
    sizes, byes = table_sizes(n, k, "short_tables")
    if byes:
        return
    teams: dict[int, str] = {}
    for bot in range(n):
        if rng.random() < 0.6:
            teams[bot] = f"t{rng.randrange(3)}"
    for team in set(teams.values()):  # no team larger than a round's tables
        members = [b for b, t in teams.items() if t == team]
        for extra in members[len(sizes):]:
            del teams[extra]
    mates = [{b for b, t in teams.items() if t == teams.get(a) and b != a} for a in range(n)]
    met: list[set[int]] = [set() for _ in range(n)]
    seats = [[0] * k for _ in range(n)]
    score = [0] * n
    for _ in range(6):
        order = sorted(range(n), key=lambda b: -score[b])
        tables = pair_round(order, sizes, met, seats, mates=mates,
                            budget=0 if give_up else 200_000)
        assert sorted(b for t in tables for b in t) == list(range(n))
        assert _mates_apart(tables, teams), (tables, teams)
        record_random_results(tables, rng, score, seats, met)


def test_a_league_seats_team_mates_apart_and_refuses_a_field_that_cannot(
        tmp_path: Path) -> None:
    fmt = {"type": "league", "min_sets": 2, "resamples": 20, "stop": {"deals": 48}}
    bots = [{"name": "greedy", "team": "red"}, {"name": "random", "team": "red"}, "lowest",
            {"name": "highest", "team": "blue"}, {"name": "passer", "team": "blue"}]
    result = run_tournament(_config(fmt, bots, players=3), out=tmp_path / "lg", jobs=1)
    records = load_records(tmp_path / "lg" / "records.jsonl")
    assert result.league is not None and records
    for seated in _seated_labels(records):
        assert not {"greedy", "random"} <= seated and not {"highest", "passer"} <= seated
    every = {label for seated in _seated_labels(records) for label in seated}
    assert every == {"greedy", "random", "lowest", "highest", "passer"}
    line = _refusal(_config(fmt, bots, players=4))
    assert "no table of 4 keeps team-mates apart: the 5 active entrants make only 3" in line


def test_a_team_changed_in_a_league_is_no_new_version(tmp_path: Path) -> None:
    from arena.tournament._league_plan import apply_field

    before = validate_config(_config({"type": "league"}, ["greedy", "random", "lowest"],
                                     players=2))
    after = validate_config(_config({"type": "league"}, [{"name": "greedy", "team": "x"},
                                                         "random", "lowest"], players=2))
    field, _ = apply_field([], before)
    field, changes = apply_field(field, after)
    assert changes == [] and [e.label for e in field] == ["greedy", "random", "lowest"]
    assert field[0].bot.get("team") == "x"


def test_every_table_of_a_full_round_robin_with_teams_is_one_of_the_apart_subsets() -> None:
    config = validate_config(_config({"type": "round_robin"}, SIX, players=3))
    tables = {tuple(sorted(t.bots)) for t in fixed_tables(Schedule(config))}
    teams = {0: "red", 1: "red", 5: "blue"}
    expected = {c for c in combinations(range(6), 3) if _mates_apart([c], teams)}
    assert tables == expected
