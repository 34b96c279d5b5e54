"""A page of the match list (``MatchIndex.page``) is the whole list's slice, found without
building the list: every query of ``/api/matches`` over a run with matches in each state."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from arena.web._in_play import InPlay
from arena.web._match_list import STATES, MatchIndex


@dataclass
class FakeRun:
    """What the list reads of a run folder: records (errors, sets waiting), people's tables'
    matches and matches in play, each changeable."""

    generation: int = 0
    added: list[str] = field(default_factory=list)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    people_added: list[str] = field(default_factory=list)
    people: dict[str, dict[str, Any]] = field(default_factory=dict)
    live: dict[str, InPlay] = field(default_factory=dict)
    config: None = None
    open_sets: set[str] = field(default_factory=set)

    def waiting_for_set(self, match_id: str) -> bool:
        return str(self.records[match_id].get("set")) in self.open_sets

    def held(self, match_id: str) -> bool:
        return match_id.endswith("h")

    def recorded(self, match_id: str) -> bool:
        return match_id in self.records

    def add(self, match_id: str, set_id: str | None, error: bool = False) -> None:
        self.added.append(match_id)
        self.records[match_id] = {"match_id": match_id, "set": set_id, "round": 1,
                                  "type": "error" if error else "match",
                                  "seats": [{"label": "a"}, {"label": "b"}],
                                  "scores": [1, 0], "ranking": [0, 1]}


def _run() -> FakeRun:
    run = FakeRun()
    for n in range(40):
        run.add(f"m{n}", f"s{n // 4}", error=n % 7 == 3)
    run.open_sets = {"s2", "s9"}
    for n in range(3):
        run.people_added.append(f"p{n}")
        run.people[f"p{n}"] = {"seats": [{"name": "ann"}, {"label": "b"}],
                               "scores": [0, 1], "ranking": [1, 0]}
    for name in ("x1", "x2h", "x3"):
        run.live[name] = InPlay(name, "s9", ["a", "b"], 1)
    return run


def _sliced(index: MatchIndex, states: list[str] | None, offset: int, limit: int | None,
            last: int | None) -> tuple[list[dict[str, Any]], int]:
    """The page as the whole list cut (what ``/api/matches`` answered before pages)."""
    entries = index.entries(states)
    if last is not None:
        entries = entries[len(entries) - min(last, len(entries)):]
    return entries[offset:None if limit is None else offset + limit], len(entries)


def _every_query(index: MatchIndex) -> int:
    """Compare every query; how many were compared."""
    states_list: list[list[str] | None] = [None, ["finished"], ["waiting"], ["error"],
                                          ["playing", "held"], ["finished", "held"],
                                          list(STATES)]
    asked = 0
    for states, offset, limit, last in itertools.product(
            states_list, (0, 1, 5, 30, 45, 60), (None, 0, 1, 7, 100), (None, 0, 1, 3, 20, 50)):
        assert index.page(states, offset, limit, last) == _sliced(
            index, states, offset, limit, last), (states, offset, limit, last)
        asked += 1
    return asked


def test_a_page_is_the_whole_list_cut() -> None:
    run = _run()
    index = MatchIndex(run)
    assert _every_query(index) > 1000
    page, total = index.page(last=2)
    assert [e["id"] for e in page] == ["p1", "p2"] and total == 2
    page, total = index.page(["waiting"], offset=1, limit=2)
    assert [e["id"] for e in page] == ["m9", "m11"] and total == 6  # m10 an error


def test_a_page_follows_the_list_as_it_changes() -> None:
    run = _run()
    index = MatchIndex(run)
    _every_query(index)
    run.open_sets.discard("s2")  # its set complete: waiting -> finished, once a record comes
    run.add("m40", "s2")
    run.add("m41", "s10", error=True)
    del run.live["x1"]
    _every_query(index)
    assert index.page(["waiting"])[1] == 3  # set s9 (m38 an error)
    run.generation += 1  # the file replaced: read again from its start
    run.added, run.records = run.added[:5], {k: run.records[k] for k in run.added[:5]}
    _every_query(index)
    assert index.page()[1] == 5 + 2 + 3
