"""A bot may say at start that it does nothing with deal results; then it is sent none."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.referee import Host, make_host, play_match
from tests.matchspecs import match_spec
from tests.recordtools import record_faults
from tests.referee.scripts import greeting_bot

sys.path.insert(0, str(Path(__file__).parent))  # child processes find contract_bot there too


def _requests(seats: list[dict[str, Any]]) -> tuple[dict[str, Any], list[list[str]]]:
    """The record of a two-deal match and, per seat, the request types its process read."""
    spec = match_spec({"match_id": "results", "seed": 5, "rules": {"rounds": 2},
                       "seats": seats, "limits": {"move_ms": 5000, "start_ms": 20000}})
    hosts: list[Host] = [make_host(s, spec.limits) for s in spec.seats]
    seen: list[list[str]] = [[] for _ in hosts]
    for seat, host in enumerate(hosts):
        def trace(way: str, line: bytes, seat: int = seat) -> None:
            if way == ">":
                seen[seat].append(line.split(b'"type":"', 1)[1].split(b'"', 1)[0].decode())
        host.trace = trace  # type: ignore[attr-defined]
    return trio.run(lambda: play_match(spec, hosts=hosts)), seen


def test_a_python_bot_without_end_deal_is_sent_no_results() -> None:
    seats = [{"label": f"r{i}", "name": "random", "host": "process"} for i in range(3)]
    record, seen = _requests(seats)
    assert len(record["deals"]) == 2 and not record_faults(record)
    for types in seen:
        assert "play" in types and "end_deal" not in types


def test_a_bot_that_learns_from_results_still_gets_every_one(tmp_path: Path) -> None:
    spy = {"label": "spy", "name": "contract_bot:Spy", "params": {"log": str(tmp_path / "log")},
           "host": "process"}  # its end_deal logs each result
    seats = [spy] + [
        {"label": f"r{i}", "name": "random", "host": "process"} for i in range(2)]
    _, seen = _requests(seats)
    assert seen[0].count("end_deal") == 2
    assert "end_deal" not in seen[1]


@pytest.mark.parametrize("value", ["no", 0])
def test_an_end_deal_flag_that_is_not_a_boolean_fails_the_start(tmp_path: Path,
                                                                  value: object) -> None:
    seats = [{"label": "odd", "command": greeting_bot(tmp_path, end_deal=value),
              "host": "command"}] + [
        {"label": f"g{i}", "name": "greedy"} for i in range(2)]
    record, _ = _requests(seats)
    faults = record_faults(record)
    assert faults and faults[0]["kind"] == "malformed"
    assert "'end_deal' must be true or false" in faults[0]["detail"]
