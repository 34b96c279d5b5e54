"""The uecda host (docs/uecda.md): arena as the server of UECda protocol 20070 for a seat.

The partner is the project's own minimal client (uecda_test_client.py, raw sockets and
struct, written from the protocol documents); no external program and no network beyond
loopback.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.records import configure_logging, deal_moves
from arena.referee import MatchSpec, play_match
from tests.matchspecs import table_spec
from tests.recordtools import record_faults

CLIENT = Path(__file__).with_name("uecda_test_client.py")


@pytest.fixture(autouse=True)
def _log_to_this_tests_stderr() -> None:
    """Warnings (a client that fails to start) go to this test's stderr, not to the stream
    of an earlier test that configured logging."""
    configure_logging()


def uecda_seat(report: Path, mode: str = "play") -> dict[str, Any]:
    command = f"{sys.executable} {CLIENT} {{host}} {{port}} {report} {mode}"
    return {"command": command, "protocol": "uecda"}


def spec(seats: list[dict[str, Any]], rounds: int = 3, move_ms: int = 3000,
         **rules: Any) -> MatchSpec:
    return table_spec(seats, match_id="u", seed=11, rounds=rounds,
                      rules={"preset": "uecda", **rules},
                      limits={"move_ms": move_ms, "start_ms": 10000})



def test_five_uecda_clients_play_a_whole_match_every_play_accepted(tmp_path: Path) -> None:
    """The handshake gives each client its seat; every turn reaches every client; its plays
    are answered 9 and its passes on a table with cards 8, as tndhms answers them; the dealt
    tables show the dealt counts; the exchange is asked of the two top players; the last flag
    is 2."""
    reports = [tmp_path / f"r{i}.json" for i in range(5)]
    record = trio.run(play_match, spec([uecda_seat(r) for r in reports], rounds=4))
    assert record_faults(record) == []
    assert [s["host"] for s in record["seats"]] == ["uecda"] * 5
    assert [s["bot"] for s in record["seats"]] == ["testcli"] * 5
    moves = sum(len(d["moves"]) for d in record["deals"])
    seen = [json.loads(r.read_text()) for r in reports]
    assert [s["player"] for s in seen] == [0, 1, 2, 3, 4]
    for seat, s in enumerate(seen):
        assert s["games"] == 4 and s["end"] == 2
        assert s["turns"] == moves  # every client sees every turn
        mine = sum(d["movers"].count(seat) for d in record["deals"])
        assert s["mine"] == s["accepted"] + s["passes"] == mine and s["rejected"] == 0
        assert s["passes"] == s["passes_answered_8"] > 0
        assert s["count_mismatch"] == 0 and s["dealt_mismatch"] == 0
    assert sum(s["exchanges"] for s in seen) == 2 * 3  # president and vice, deals 1-3


def test_uecda_clients_and_arena_bots_share_a_table(tmp_path: Path) -> None:
    """Mixed seats: two UECda clients beside three arena bots, whose turns the clients see."""
    reports = [tmp_path / "a.json", tmp_path / "b.json"]
    seats = [uecda_seat(reports[0]), {"name": "greedy"}, uecda_seat(reports[1]),
             {"name": "random"}, {"name": "lowest"}]
    record = trio.run(play_match, spec(seats))
    assert record_faults(record) == []
    moves = sum(len(d["moves"]) for d in record["deals"])
    for report in reports:
        seen = json.loads(report.read_text())
        assert seen["turns"] == moves and seen["rejected"] == 0 and seen["end"] == 2


def test_a_table_the_reference_server_rejects_is_an_illegal_fault_and_a_pass(
        tmp_path: Path) -> None:
    """Two jokers in one table: rejected (answer 8), recorded as an illegal fault, counted as
    a pass; the pass limit ends a deal of such plays."""
    seats = [uecda_seat(tmp_path / "bad.json", "twojokers")] + [
        uecda_seat(tmp_path / f"r{i}.json") for i in range(4)]
    record = trio.run(play_match, spec(seats, rounds=2))
    bad = record_faults(record, seat=0)
    assert bad and all(f["kind"] == "illegal" and "jokers" in f["detail"] for f in bad)
    seen = json.loads((tmp_path / "bad.json").read_text())
    assert seen["accepted"] == 0 and seen["rejected"] + seen["passes"] == seen["mine"] > 0
    assert seen["rejected"] > 0
    own = [m.move for d in record["deals"] for m in deal_moves(d) if m.seat == 0]
    assert set(own) == {"pass"}


def test_every_client_sees_the_cell_a_client_put_its_lone_joker_in(tmp_path: Path) -> None:
    """tndhms sends every client the table played: a lone joker led in the clubs row above
    the 2 ([3][14]) is shown there to all five, not where arena would put it ([0][14])."""
    reports = [tmp_path / f"r{i}.json" for i in range(5)]
    record = trio.run(play_match, spec([uecda_seat(r, "lonejoker") for r in reports]))
    assert record_faults(record) == []
    assert any(m.move == "JK" for d in record["deals"] for m in deal_moves(d))
    for report in reports:
        assert json.loads(report.read_text())["joker_cells"] == [[3, 14]]


@pytest.mark.parametrize("mode", ["garbage", "hang", "quit"])
def test_a_client_that_hangs_quits_or_sends_garbage_is_a_fault_never_a_hung_referee(
        tmp_path: Path, mode: str) -> None:
    """Limits and faults apply as for every host: the match ends, the seat's faults are
    recorded, the others play on."""
    seats = [uecda_seat(tmp_path / "bad.json", mode)] + [
        uecda_seat(tmp_path / f"r{i}.json") for i in range(4)]
    s = spec(seats, rounds=2, move_ms=500)

    async def bounded() -> dict[str, Any]:
        with trio.fail_after(60):
            return await play_match(s)

    record = trio.run(bounded)
    bad = record_faults(record, seat=0)
    assert bad and bad[0]["kind"] in ("timeout", "crash")
    for i in range(4):
        assert json.loads((tmp_path / f"r{i}.json").read_text())["end"] == 2


@pytest.mark.parametrize("on_fault", ["pass", "forfeit"])
def test_a_client_late_once_keeps_its_seat_its_late_table_dropped(
        tmp_path: Path, on_fault: str) -> None:
    """A client whose first table comes 1.5 s after a 1200 ms limit: that turn is a timeout
    judged by the rules' on_fault, the late table is read and dropped, and the client plays
    the rest of the match, in step (its later turns answered as usual, no other fault)."""
    seats = [uecda_seat(tmp_path / "late.json", "late")] + [
        uecda_seat(tmp_path / f"r{i}.json") for i in range(4)]
    # 1200 ms and its 100 ms of grace: the late answer is late whatever the load, and the
    # others' answers (Python processes, 600 ms allowed before) are in time at load
    record = trio.run(play_match, spec(seats, rounds=3, move_ms=1200, on_fault=on_fault))
    late = record_faults(record, seat=0)
    assert [f["kind"] for f in late] == ["timeout"], late
    assert record_faults(record) == late
    seen = json.loads((tmp_path / "late.json").read_text())
    assert seen["end"] == 2 and seen["games"] == 3
    assert seen["count_mismatch"] == 0
    forfeits = [f["seat"] for d in record["deals"] for f in d.get("forfeits", [])]
    assert forfeits == ([0] if on_fault == "forfeit" else [])  # the late turn: no move
    assert seen["mine"] == sum(d["movers"].count(0) for d in record["deals"]) + len(forfeits)
    assert seen["rejected"] <= 1  # the late turn's table, answered 8; the others accepted
    assert seen["accepted"] > 0


def test_a_client_silent_past_the_bound_is_stopped(tmp_path: Path) -> None:
    """A client that never sends the table it owes faults each turn until it has owed it
    for SILENT_MOVES times move_ms; then it is stopped and its later turns are crashes."""
    from arena.referee.uecda._link import SILENT_MOVES

    seats = [uecda_seat(tmp_path / "hang.json", "hang")] + [
        uecda_seat(tmp_path / f"r{i}.json") for i in range(4)]
    record = trio.run(play_match, spec(seats, rounds=3, move_ms=100))
    faults = record_faults(record, seat=0)
    kinds = [f["kind"] for f in faults]
    stop = kinds.index("crash")
    assert set(kinds[:stop]) == {"timeout"} and set(kinds[stop:]) == {"crash"}
    assert 1 < stop <= SILENT_MOVES + 1
    assert "without the table it owed" in faults[stop]["detail"]


def test_a_uecda_client_needs_a_table_of_five(tmp_path: Path) -> None:
    """The protocol's tables hold five players: at another table size the seat faults at
    start, with a message that says so."""
    seats = [uecda_seat(tmp_path / "r.json"), {"name": "greedy"}, {"name": "random"}]
    record = trio.run(play_match, spec(seats, rounds=1, points=None))
    bad = record_faults(record)
    assert bad and "table of 5" in bad[0]["detail"]


def test_arena_uecda_client_plays_arena_bots_through_the_uecda_host(tmp_path: Path) -> None:
    """`arena uecda-client BOT` is a 20070 client: arena bots behind it, at arena's own UECda
    server, play a whole match with no fault beside the project's test clients."""
    arena = Path(sys.executable).with_name("arena")
    seats = [{"command": f"{arena} uecda-client {bot} --host {{host}} --port {{port}}",
              "protocol": "uecda"} for bot in ("greedy", "random", "lowest")]
    seats += [uecda_seat(tmp_path / "a.json"), uecda_seat(tmp_path / "b.json")]
    record = trio.run(play_match, spec(seats, rounds=3))
    assert record_faults(record) == []
    assert [s["bot"] for s in record["seats"]][:3] == ["greedy", "random", "lowest"]
    moves = sum(len(d["moves"]) for d in record["deals"])
    assert json.loads((tmp_path / "a.json").read_text())["turns"] == moves


def test_arena_uecda_client_bad_input_is_one_line_and_status_2() -> None:
    """An unknown bot, or a server that is not there: one line naming it, exit status 2."""
    from click.testing import CliRunner

    from arena.cli import main

    unknown = CliRunner().invoke(main, ["uecda-client", "nosuchbot", "--port", "1"])
    assert unknown.exit_code == 2 and "nosuchbot" in unknown.output
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    refused = CliRunner().invoke(main, ["uecda-client", "greedy", "--port", str(port)])
    assert refused.exit_code == 2 and f"127.0.0.1:{port}" in refused.output
    assert "Traceback" not in refused.output
