"""arena match --verbose prints the answers as they come; --trace prints the protocol lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.records import read_records

BOT = Path(__file__).resolve().parents[1] / "referee" / "delta_command_bot.py"


def test_verbose_prints_every_move_and_each_deal_result(tmp_path: Path) -> None:
    records = tmp_path / "m.jsonl"
    out = CliRunner().invoke(main, ["match", "greedy", "random", "lowest", "--rounds", "2",
                                    "--seed", "3", "--verbose", "--records", str(records)])
    assert out.exit_code == 0, out.output
    (record,) = list(read_records(records))
    labels = [s["label"] for s in record["seats"]]
    for number, deal in enumerate(record["deals"], start=1):
        expected = [f"deal {number} move {k:>3} {labels[seat]}: {move}"
                    for k, (seat, move) in enumerate(zip(deal["movers"], deal["moves"],
                                                         strict=True), start=1)]
        shown = [line.strip().rsplit("  (", 1)[0] for line in out.output.splitlines()
                 if line.strip().startswith(f"deal {number} move")]
        assert shown == [e.strip() for e in expected]
        order = ", ".join(f"{place}. {labels[seat]} ({deal['points'][seat]})"
                          for place, seat in enumerate(deal["finish_order"], start=1))
        assert f"deal {number} over: {order}" in out.output
    assert "gives back" in out.output  # the second deal's exchange
    assert out.output.rstrip().endswith("(on_fault: forfeit)")  # then the usual summary


def test_trace_prints_each_protocol_line_of_a_command_bot(tmp_path: Path) -> None:
    records = tmp_path / "m.jsonl"
    bot = f"cmd:{sys.executable} {BOT}"
    out = CliRunner().invoke(main, ["match", bot, "random", "--rounds", "1", "--seed", "4",
                                    "--trace", "--records", str(records)])
    assert out.exit_code == 0, out.output
    (record,) = list(read_records(records))
    label = record["seats"][0]["label"]
    sent = [json.loads(line.split(" >> ", 1)[1]) for line in out.output.splitlines()
            if line.startswith(f"{label} >> ")]
    received = [json.loads(line.split(" << ", 1)[1]) for line in out.output.splitlines()
                if line.startswith(f"{label} << ")]
    assert sent[0]["type"] == "start" and received[0]["type"] == "ready"
    assert [m["id"] for m in sent if "id" in m] == [m["id"] for m in received]
    deal = record["deals"][0]
    mine = [move for seat, move in zip(deal["movers"], deal["moves"], strict=True) if seat == 0]
    assert [m["move"] for m in received if m["type"] == "move"] == mine
    assert sent[-1]["type"] in ("end_deal", "quit")


def test_a_watched_host_that_watches_every_turn_still_sees_them() -> None:
    import trio

    from arena.cli._watch import WatchedHost, _Board
    from arena.game import View
    from arena.referee import Deadline, play_match
    from arena.referee.testing import MemoryHost
    from tests.matchspecs import match_spec

    class Watcher(MemoryHost):  # a host that sees every turn, as the uecda host does
        observes = True

        def __init__(self) -> None:
            super().__init__(lambda r: r["view"].legal_moves()[0] if r["type"] == "play"
                             else r["view"].hand[:r["count"]] if r["type"] == "exchange"
                             else None, name="watcher")
            self.seen: list[tuple[str, int]] = []

        async def observe(self, view: View, kind: str, seat: int, deadline: Deadline) -> None:
            self.seen.append((kind, seat))

    inner = Watcher()
    others = [MemoryHost(inner._handler, name=f"m{i}") for i in range(2)]
    lines: list[str] = []
    board = _Board(["watcher", "m0", "m1"], lines.append)
    hosts = [WatchedHost(inner, 0, board), *others]
    spec = match_spec({"match_id": "w", "seed": 3, "rules": {"rounds": 1}}, hosts)
    record = trio.run(lambda: play_match(spec, hosts=hosts))
    others_turns = sum(1 for seat in record["deals"][0]["movers"] if seat != 0)
    assert others_turns > 5 and len(inner.seen) == others_turns
    assert all(seat != 0 for _, seat in inner.seen) and any("move" in line for line in lines)
