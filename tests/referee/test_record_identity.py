"""The same seed gives the same match whatever host a bot runs in.

Inline, process, command and memory hosts are pinned by test_hosts.py and
test_host_contract.py; here the ``uecda`` host: arena's own bots behind
``arena uecda-client`` (a UECda 20070 client, docs/uecda.md), arena being their server,
play exactly the moves they play inline, so the record differs only in its seats' hosts
and its timings, and in one spelling: a set's joker that the bot left undeclared travels as
a table cell, the suit arena's lock rule gives it (docs/uecda.md), and comes back declared
(``AH JK`` as ``AH JK=AC``), the same play under the rules.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import trio

from arena.referee import play_match
from tests.matchspecs import table_spec
from tests.recordtools import record_faults, without_timings

BOTS = ("greedy", "lowest", "greedy", "highest", "lowest")


def uecda(bot: str) -> dict[str, Any]:
    arena = Path(sys.executable).with_name("arena")
    return {"label": bot, "command": f"{arena} uecda-client {bot} --host {{host}} --port {{port}}",
            "protocol": "uecda"}


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    out = without_timings(record, hosts=True)
    out["seats"] = [s["label"] for s in record["seats"]]
    for deal in out["deals"]:
        deal["moves"] = [re.sub(r"JK=\w\w", "JK", move) if _is_set(move) else move
                         for move in deal["moves"]]
    return out


def _is_set(move: str) -> bool:
    """Whether ``move`` is a set (its cards of one rank, the joker aside)."""
    ranks = {card[0] for card in move.split() if not card.startswith("JK")}
    return move != "pass" and len(ranks) <= 1


def test_arena_bots_behind_the_uecda_client_play_as_they_do_inline() -> None:
    seats = [{"label": f"{bot}-{i}", "name": bot} for i, bot in enumerate(BOTS)]
    behind = [{**uecda(bot), "label": f"{bot}-{i}"} if i in (0, 3) else seat
              for i, (bot, seat) in enumerate(zip(BOTS, seats, strict=True))]

    def spec(table: list[dict[str, Any]]) -> Any:
        return table_spec(table, match_id="same", seed=4242, rounds=3,
                          rules={"preset": "uecda"},
                          limits={"move_ms": 5000, "start_ms": 20000})
    inline = trio.run(play_match, spec(seats))
    client = trio.run(play_match, spec(behind))
    assert record_faults(client) == []
    assert [s["host"] for s in client["seats"]] == ["uecda", "inline", "inline", "uecda",
                                                    "inline"]
    assert sum(len(d["moves"]) for d in inline["deals"]) > 30
    assert comparable(client) == comparable(inline)
