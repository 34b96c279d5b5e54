"""Hostile bots under the process host: each costs its own seat a fault, never the match.

Every hostile bot plays a match against three ``random`` bots, each seat in
its own child process, with short limits. The test checks the fault kind,
that the match ends within what its limits allow, that the record is whole
(written and read back), and that no process of any seat survives it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.game import Match, Rules
from arena.records import RecordWriter, deal_moves, read_records
from arena.referee import Limits, make_host, play_match
from arena.referee.sandbox._proctimes import group_members, process_alive

sys.path.insert(0, str(Path(__file__).parent))  # child processes find the hostile bots there too
from arena_hostile_bots import HOSTILE, ref

from tests.matchspecs import match_spec
from tests.recordtools import record_faults

LIMITS = {"move_ms": 250, "start_ms": 20000, "memory_mb": 256, "grace_ms": 350}
HOG_LIMITS = {**LIMITS, "move_ms": 2000, "memory_mb": 160}


def play(name: str, tmp_path: Path, rounds: int = 2) -> tuple[dict[str, Any], list[int]]:
    cls, _kind = HOSTILE[name]
    params = {"pidfile": str(tmp_path / "forked.pids")} if name == "forker" else {}
    seats: list[dict[str, Any]] = [
        {"label": f"random-{i}", "name": "random", "host": "process"} for i in range(3)
    ]
    seats.insert(1, {"label": name, "name": ref(cls), "params": params, "host": "process"})
    limits = HOG_LIMITS if name == "hog" else LIMITS
    spec = {"match_id": f"hostile-{name}", "seed": 20240, "rules": {"rounds": rounds},
            "seats": seats, "limits": limits}
    typed = match_spec(spec)
    hosts = [make_host(seat, typed.limits) for seat in typed.seats]
    record = trio.run(lambda: play_match(typed, hosts=hosts))
    pids = [pid for host in hosts for pid in host.pids()]
    pidfile = tmp_path / "forked.pids"
    if pidfile.exists():
        pids += [int(p) for p in pidfile.read_text().split()]
    return record, pids


def check_whole(record: dict[str, Any], tmp_path: Path) -> None:
    """The record survives the file round trip and holds a complete, consistent match."""
    path = tmp_path / "records.jsonl"
    with RecordWriter(path) as writer:
        writer.write(record)
    assert list(read_records(path, strict=True)) == [record]
    rules = Rules.from_dict(record["rules"])
    players = len(record["seats"])
    assert len(record["deals"]) == rules.rounds
    for deal in record["deals"]:
        assert sorted(deal["finish_order"]) == list(range(players))
        assert sum(len(hand) for hand in deal["hands"]) == 52 + rules.jokers
        assert all(m.ms is not None for m in deal_moves(deal))
    assert sorted(record["ranking"]) == list(range(players))
    first = Match(rules, players, record["seed"]).deal
    assert record["deals"][0]["hands"] == [[str(c) for c in first.hand(s)] for s in range(players)]


def check_nothing_left(pids: list[int]) -> None:
    assert pids, "the hosts started no process at all"
    alive = [pid for pid in pids if process_alive(pid)]
    groups = {pid: group_members(pid) for pid in pids}
    assert alive == [] and all(not members for members in groups.values()), (alive, groups)


def within_limits(record: dict[str, Any], limits: dict[str, Any]) -> float:
    """The longest a match may take when every wait ends at its deadline."""
    ceiling = limits["move_ms"] + limits["grace_ms"] + Limits.from_dict(limits).lag_ms
    per_decision = ceiling / 1000 + 0.5  # + kill and reap
    starts = (len(record["seats"]) + 2 * len(record["deals"])) * limits["start_ms"] / 1000
    return record["decisions"] * per_decision + starts


@pytest.mark.parametrize("name", [n for n, (_, kind) in HOSTILE.items() if kind is not None])
def test_each_hostile_bot_gets_exactly_its_fault_kind(name: str, tmp_path: Path) -> None:
    record, pids = play(name, tmp_path)
    expected = HOSTILE[name][1]
    faults = record_faults(record)
    # once per deal: under on_fault forfeit the seat then leaves the deal
    assert [(f["seat"], f["kind"], f["deal"]) for f in faults] == [
        (1, expected, 0), (1, expected, 1)
    ], faults
    assert all(f["bot"] == name and f["detail"] for f in faults)
    assert all(deal["finish_order"][-1] == 1 for deal in record["deals"])
    limits = HOG_LIMITS if name == "hog" else LIMITS
    assert record["wall_s"] < within_limits(record, limits)
    check_whole(record, tmp_path)
    check_nothing_left(pids)


def test_fault_details_say_what_happened(tmp_path: Path) -> None:
    details = {}
    for name in ("quitter", "raiser", "cheater", "garbler"):
        record, _ = play(name, tmp_path / name, rounds=1)
        details[name] = record["deals"][0]["faults"][0]["detail"]
    assert "exit code 3" in details["quitter"]
    assert "RuntimeError: this bot is broken" in details["raiser"]
    assert "does not hold" in details["cheater"]
    assert "seven of cups" in details["garbler"]


def test_a_killed_bot_gets_a_fresh_process_for_the_next_deal(tmp_path: Path) -> None:
    record, pids = play("sleeper", tmp_path)
    # three random seats keep one process each; the sleeper's seat needed one per deal
    assert len(pids) == 3 + 2
    faults = record_faults(record)
    assert [f["kind"] for f in faults] == ["timeout"] * 2
    # the host quotes what its Deadline allowed (budget plus grace), not how long it waited
    allowed = f"no answer within the {LIMITS['move_ms'] + LIMITS['grace_ms']} ms allowed"
    assert all(f["detail"].startswith(allowed) for f in faults), faults


def test_a_chatty_bot_that_plays_legally_has_no_fault(tmp_path: Path) -> None:
    record, pids = play("chatty", tmp_path)
    assert record_faults(record) == []
    chatty_moves = [m for deal in record["deals"] for m in deal_moves(deal) if m.seat == 1]
    assert len(chatty_moves) > 5
    check_whole(record, tmp_path)
    check_nothing_left(pids)


@pytest.mark.parametrize(
    "cls_name, kind, text",
    [("SlowStarter", "timeout", "did not start within 3000 ms"),
     ("BadStarter", "crash", "no table for me")],
)
def test_a_bot_that_cannot_start_faults_once_per_deal_and_is_started_once(
    cls_name: str, kind: str, text: str
) -> None:
    import arena_hostile_bots

    limits = {**LIMITS, "start_ms": 3000}
    bad = ref(getattr(arena_hostile_bots, cls_name))
    seats: list[dict[str, Any]] = [{"label": "bad", "name": bad, "host": "process"}]
    seats += [{"label": f"random-{i}", "name": "random", "host": "process"} for i in range(2)]
    spec = match_spec({"match_id": "start", "seed": 2, "rules": {"rounds": 2}, "seats": seats,
                       "limits": limits})
    hosts = [make_host(seat, spec.limits) for seat in spec.seats]
    record = trio.run(lambda: play_match(spec, hosts=hosts))
    faults = record_faults(record)
    assert [(f["seat"], f["kind"], f["deal"]) for f in faults] == [(0, kind, 0), (0, kind, 1)]
    assert all(text in f["detail"] for f in faults)
    buffered = "output may be buffered: a bot must flush each line it writes"
    assert all((buffered in f["detail"]) == (kind == "timeout") for f in faults)
    assert len(hosts[0].pids()) == 1  # not started again in the second deal
    check_nothing_left([pid for host in hosts for pid in host.pids()])


def test_cancelling_the_referee_mid_match_leaves_no_process_behind() -> None:
    """A tournament that gives up on a match (or Ctrl-C) still kills every bot process."""
    seats = [{"label": "sleeper", "name": ref(HOSTILE["sleeper"][0]), "host": "process"}]
    seats += [{"label": f"random-{i}", "name": "random", "host": "process"} for i in range(3)]
    limits = {**LIMITS, "move_ms": 60000}
    spec = match_spec({"match_id": "cancel", "seed": 20240, "rules": {"rounds": 1},
                       "seats": seats, "limits": limits})
    hosts = [make_host(seat, spec.limits) for seat in spec.seats]

    async def main() -> bool:
        with trio.move_on_after(3) as scope:
            await play_match(spec, hosts=hosts)
        return scope.cancelled_caught

    assert trio.run(main)
    check_nothing_left([pid for host in hosts for pid in host.pids()])
