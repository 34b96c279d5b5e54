"""Hosts agree: the same seed gives the same record inline, in processes, via run_match."""

from __future__ import annotations

import io
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from arena import Bot
from arena.game import Move, View
from arena.records import deal_moves
from arena.referee import (
    CommandHost,
    InlineHost,
    Limits,
    MatchSpec,
    ProcessPool,
    Seat,
    make_host,
    play_match,
    run_match,
)
from arena.referee.sandbox._proctimes import group_members, process_alive
from tests.matchspecs import match_spec, table_spec
from tests.recordtools import record_faults, without_timings

ROOT = Path(__file__).resolve().parents[2]
PERL_BOT = ROOT / "examples" / "perl-bot" / "bot.pl"


def spec(host: str, bots: tuple[str, ...] = ("random", "greedy", "random", "lowest"),
         **extra: Any) -> MatchSpec:
    return table_spec([{"label": f"{b}-{i}", "name": b, "host": host} for i, b in enumerate(bots)],
                      match_id="same", seed=987654321, rounds=2, limits={"move_ms": 2000},
                      **extra)


def test_same_seed_same_record_inline_and_process() -> None:
    """Python bots in processes see delta views; they play exactly as they do inline."""
    inline = trio.run(play_match, spec("inline"))
    limits = spec("process").limits
    hosts = [make_host(seat, limits) for seat in spec("process").seats]
    process = trio.run(lambda: play_match(spec("process"), hosts=hosts))
    assert [s["host"] for s in process["seats"]] == ["process"] * 4
    assert [h.views for h in hosts] == ["delta"] * 4  # type: ignore[attr-defined]
    assert without_timings(inline, hosts=True) == without_timings(process, hosts=True)
    assert inline["decisions"] > 50


def test_a_different_seed_gives_a_different_match() -> None:
    one = trio.run(play_match, spec("inline"))
    other = trio.run(play_match, replace(spec("inline"), seed=1))
    assert one["deals"][0]["hands"] != other["deals"][0]["hands"]


def test_run_match_is_a_synchronous_wrapper_giving_the_same_record() -> None:
    record = run_match(spec("inline"), reuse_processes=False)
    assert without_timings(record, hosts=True) == without_timings(
        trio.run(play_match, spec("inline")), hosts=True)


def test_a_pool_reuses_healthy_processes_across_matches_and_kills_them_on_close() -> None:
    pool = ProcessPool()
    limits = Limits.from_dict({"move_ms": 2000})
    seats = spec("process", bots=("random", "lowest")).seats
    try:
        first = [make_host(s, limits, pool) for s in seats]
        trio.run(lambda: play_match(spec("process", bots=("random", "lowest")), hosts=first))
        second = [make_host(s, limits, pool) for s in seats]
        record = trio.run(
            lambda: play_match(spec("process", bots=("random", "lowest")), hosts=second)
        )
        assert [h.pids() for h in second] == [h.pids() for h in first]
        assert all(process_alive(pid) for pid in pool.pids())
        assert record["deals"] and not any(d["faults"] for d in record["deals"])
    finally:
        pids = pool.pids()
        pool.close()
    assert pids and not any(process_alive(pid) or group_members(pid) for pid in pids)


def test_the_perl_example_bot_plays_a_match_through_the_command_host() -> None:
    seats = [{"label": "perl", "command": f"perl {PERL_BOT}", "host": "command"}] + [
        {"label": f"random-{i}", "name": "random"} for i in range(3)
    ]
    limits = Limits.from_dict({"move_ms": 2000, "memory_mb": 256})
    perl = match_spec({"match_id": "perl", "seed": 5, "rules": {"rounds": 2}, "seats": seats,
                       "limits": limits.to_dict()})
    hosts = [make_host(s, limits) for s in perl.seats]
    record = trio.run(lambda: play_match(perl, hosts=hosts))
    assert record["seats"][0] == {"seat": 0, "label": "perl", "bot": "perl-lowest",
                                  "plugin": "command", "version": "1.0", "host": "command"}
    assert not any(d["faults"] for d in record["deals"])
    assert hosts[0].views == "full"  # type: ignore[attr-defined]  # the default encoding
    perl_moves = [m.move for d in record["deals"] for m in deal_moves(d) if m.seat == 0]
    assert "pass" in perl_moves and any(m != "pass" for m in perl_moves)
    pids = hosts[0].pids()
    assert pids and not any(process_alive(pid) for pid in pids)


def test_a_command_that_does_not_exist_is_a_crash_fault_not_an_error(tmp_path: Path) -> None:
    seats = [{"label": "ghost", "command": str(tmp_path / "no-such-program"), "host": "command"},
             {"label": "random", "name": "random"}]
    record = trio.run(play_match, match_spec({"match_id": "ghost", "seed": 1,
                                              "rules": {"rounds": 1}, "seats": seats}))
    faults = record_faults(record)
    assert [(f["seat"], f["kind"]) for f in faults] == [(0, "crash")]
    assert "cannot start" in faults[0]["detail"]


def test_a_command_speaking_garbage_is_malformed() -> None:
    host = CommandHost("sh -c 'read line; echo hello; sleep 30'",
                       limits=Limits.from_dict({"move_ms": 200}))
    hosts = [host, make_host(Seat("random", "random"), Limits())]
    record = trio.run(lambda: play_match(match_spec(
        {"match_id": "g", "seed": 1, "rules": {"rounds": 1},
         "seats": [{"label": "sh"}, {"label": "random", "name": "random"}],
         "limits": {"move_ms": 200}}, hosts), hosts=hosts))
    faults = record_faults(record)
    assert [(f["seat"], f["kind"]) for f in faults] == [(0, "malformed")]
    assert "not JSON" in faults[0]["detail"]
    assert not any(process_alive(pid) or group_members(pid) for pid in host.pids())


class Exiter(Bot):
    """Calls sys.exit() from its code, which must not end the referee."""

    def play(self, view: View) -> Move | str:
        print("goodbye")
        sys.exit(4)


class Printer(Bot):
    def play(self, view: View) -> Move | str:
        print('{"type": "move", "move": "pass"}')
        print("to stderr", file=sys.stderr)
        return view.legal_moves()[0]


def inline_match(bot: Bot) -> dict[str, Any]:
    hosts = [InlineHost.from_bot(bot)] + [InlineHost("random") for _ in range(2)]
    return trio.run(lambda: play_match(
        match_spec({"match_id": "inline", "seed": 3, "rules": {"rounds": 1}}, hosts),
        hosts=hosts))


def test_an_inline_bot_calling_sys_exit_is_a_crash_with_its_output() -> None:
    record = inline_match(Exiter())
    faults = record_faults(record)
    assert [(f["seat"], f["kind"]) for f in faults] == [(0, "crash")]
    assert "SystemExit: 4" in faults[0]["detail"] and "goodbye" in faults[0]["detail"]


def test_an_inline_bots_prints_never_reach_the_referees_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = inline_match(Printer())
    captured = capsys.readouterr()
    assert captured.out == "" and "to stderr" not in captured.err
    assert not any(d["faults"] for d in record["deals"])


class Hijacker(Bot):
    """Points sys.stdout and sys.stderr at a buffer of its own, then prints."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.StringIO()

    def play(self, view: View) -> Move | str:
        sys.stdout = sys.stderr = self.buffer
        print("hijacked")
        return view.legal_moves()[0]


def test_an_inline_bot_that_replaces_sys_stdout_cannot_keep_it_or_catch_others_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = (sys.stdout, sys.stderr)
    hijacker = Hijacker()
    hosts = [InlineHost.from_bot(hijacker), InlineHost.from_bot(Printer())]
    record = trio.run(lambda: play_match(
        match_spec({"match_id": "hijack", "seed": 3, "rules": {"rounds": 1}}, hosts),
        hosts=hosts))
    assert (sys.stdout, sys.stderr) == before
    assert not any(d["faults"] for d in record["deals"])
    assert "to stderr" not in hijacker.buffer.getvalue()  # the printer's output is its own
    assert "hijacked" in hijacker.buffer.getvalue()
    assert hosts[1].output().count("to stderr") >= 1
    captured = capsys.readouterr()
    assert "hijacked" not in captured.out and "to stderr" not in captured.err


@pytest.mark.parametrize(
    "mode, kind, text",
    [("wrong-id", "malformed", "does not match"),
     ("huge-line", "malformed", "longer than"),
     ("error", "crash", "out of ideas"),
     ("wrong-type", "malformed", "expected a 'move'"),
     ("close-stdout", "crash", "closed its output"),
     ("not-a-string", "malformed", "expected a move as text"),
     ("bad-views", "malformed", "'views' must be one of")],
)
def test_protocol_misbehaviour_of_a_command_bot(mode: str, kind: str, text: str) -> None:
    script = Path(__file__).parent / "protocol_misfit.py"
    limits = Limits.from_dict({"move_ms": 1000, "memory_mb": 512})
    host = CommandHost(f"{sys.executable} {script} {mode}", limits=limits)
    hosts = [host, make_host(Seat("random", "random"), limits)]
    record = trio.run(lambda: play_match(match_spec(
        {"match_id": mode, "seed": 9, "rules": {"rounds": 1},
         "seats": [{"label": mode}, {"label": "random"}], "limits": limits.to_dict()}, hosts),
        hosts=hosts))
    faults = record_faults(record)
    assert [(f["seat"], f["kind"]) for f in faults] == [(0, kind)]
    assert text in faults[0]["detail"]
    assert not any(process_alive(pid) or group_members(pid) for pid in host.pids())


@pytest.mark.parametrize("mode, processes", [("error", 1), ("wrong-type", 3)])
def test_a_bot_that_reports_its_error_keeps_its_process_one_out_of_step_does_not(
        mode: str, processes: int) -> None:
    """An ``error`` answer is the bot's own report (BotFault.reported): its process is still
    in step and answers the next decision; a malformed answer costs the process."""
    script = Path(__file__).parent / "protocol_misfit.py"
    limits = Limits.from_dict({"move_ms": 1000, "memory_mb": 512})
    host = CommandHost(f"{sys.executable} {script} {mode}", limits=limits)
    hosts = [host, make_host(Seat("random", "random"), limits)]
    record = trio.run(lambda: play_match(match_spec(
        {"match_id": mode, "seed": 9, "rules": {"rounds": 1, "on_fault": "pass"},
         "seats": [{"label": mode}, {"label": "random"}], "limits": limits.to_dict()}, hosts),
        hosts=hosts))
    faults = record_faults(record)
    assert len(faults) >= processes and {f["seat"] for f in faults} == {0}
    assert len(host.pids()) == (1 if mode == "error" else len(faults))
    assert len(host.pids()) >= processes


class BadStarter(Bot):
    def start_match(self, info: Any) -> None:
        raise RuntimeError("no table for me")

    def play(self, view: View) -> Move | str:
        return view.legal_moves()[0]


def test_an_inline_bot_that_cannot_start_faults_once_per_deal() -> None:
    """The inline path without an event loop charges a failed start as the trio path does:
    to the seat's decisions (forfeiting each deal), without another attempt in the match."""
    hosts = [InlineHost.from_bot(BadStarter())] + [InlineHost("random") for _ in range(2)]
    spec = match_spec({"match_id": "start", "seed": 2, "rules": {"rounds": 2}}, hosts)
    record = run_match(spec, hosts=hosts)
    faults = [(f["seat"], f["kind"], f["deal"]) for f in record_faults(record)]
    assert faults == [(0, "crash", 0), (0, "crash", 1)]
    assert all("no table for me" in f["detail"] for f in record_faults(record))
