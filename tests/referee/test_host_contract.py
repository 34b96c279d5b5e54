"""Every host tells a bot the same things: start, views and deal results, for the same seed.

One match, four times: a bot that writes down all it is told sits in seat 0,
run inline, in a child process, as a program behind the command host, and as
a memory host's handler; the other seats are the same inline bots each time.
The four logs must be equal, and each ``end_deal`` must be
``match.result_for(seat)``: the seat's own hand and the scores, no other hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.referee import Host, MatchSpec, Seat, StartInfo, make_host, run_match
from arena.referee.testing import MemoryHost
from tests.matchspecs import table_spec

sys.path.insert(0, str(Path(__file__).parent))
from contract_bot import view_dict

CONTRACT = Path(__file__).with_name("contract_bot.py")
HOSTS = ("inline", "process", "command", "memory")


def spec(seat0: Seat) -> MatchSpec:
    others = [Seat(f"{name}-{i}", name=name)
              for i, name in enumerate(("greedy", "random", "lowest"), start=1)]
    return table_spec([seat0, *others], match_id="contract", seed=4242, rounds=4,
                      rules={"preset": "daifugo"}, limits={"move_ms": 5000, "start_ms": 20000})


def memory_spy(log: Path) -> MemoryHost:
    def write(kind: str, body: Any) -> None:
        with open(log, "a") as f:
            f.write(json.dumps([kind, body], sort_keys=True) + "\n")

    def handler(request: dict[str, Any]) -> object:
        if request["type"] == "start":
            info: StartInfo = request["info"]
            write("start", {"seat": info.seat, "players": info.players,
                            "match_id": info.match_id, "labels": list(info.labels),
                            "rules": info.rules.to_dict()})
        elif request["type"] == "play":
            write("play", view_dict(request["view"]))
            return request["view"].legal_moves()[0]
        elif request["type"] == "exchange":
            view = request["view"]
            write("exchange", {"count": request["count"], "view": view_dict(view)})
            return sorted(view.hand)[: request["count"]]
        elif request["type"] == "end_deal":
            write("end_deal", request["result"])
        return None

    return MemoryHost(handler, name="spy")


def play(kind: str, log: Path) -> tuple[dict[str, Any], list[list[Any]]]:
    if kind == "command":
        seat0 = Seat("spy", command=f"{sys.executable} {CONTRACT} {log}", host="command")
    else:
        seat0 = Seat("spy", name="contract_bot:Spy", params={"log": str(log)},
                     host="process" if kind == "process" else "inline")
    match = spec(seat0)
    hosts: list[Host] = [memory_spy(log) if kind == "memory" else make_host(seat0, match.limits)]
    hosts += [make_host(seat, match.limits) for seat in match.seats[1:]]
    record = run_match(match, hosts=hosts, reuse_processes=False)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return record, lines


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], list[Any]]]:
    folder = tmp_path_factory.mktemp("contract")
    return {kind: play(kind, folder / f"{kind}.jsonl") for kind in HOSTS}


@pytest.mark.parametrize("kind", HOSTS[1:])
def test_every_host_tells_the_bot_what_the_inline_host_tells_it(
    logs: dict[str, tuple[dict[str, Any], list[Any]]], kind: str
) -> None:
    inline_record, inline_log = logs["inline"]
    record, log = logs[kind]
    assert not any(d["faults"] for d in record["deals"])
    assert [d["moves"] for d in record["deals"]] == [d["moves"] for d in inline_record["deals"]]
    assert [kind_ for kind_, _ in log] == [kind_ for kind_, _ in inline_log]
    for (what, body), (_, expected) in zip(log, inline_log, strict=True):
        assert body == expected, what


def test_the_log_holds_every_kind_of_message_and_end_deal_is_the_seats_result(
    logs: dict[str, tuple[dict[str, Any], list[Any]]],
) -> None:
    record, log = logs["inline"]
    kinds = [kind for kind, _ in log]
    assert kinds[0] == "start" and kinds.count("start") == 1
    assert "play" in kinds and "exchange" in kinds
    ends = [body for kind, body in log if kind == "end_deal"]
    assert len(ends) == len(record["deals"]) == 4
    for end, deal in zip(ends, record["deals"], strict=True):
        assert end["hand"] == deal["hands"][0] and end["seat"] == 0
        assert "hands" not in end and "seed" not in end
    assert ends[-1]["scores"] == record["scores"]
