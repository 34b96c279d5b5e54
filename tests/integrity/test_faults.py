"""Faults are visible: standings, the closing section, the exit status, a quiet terminal."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from arena.records import FaultLog, short_detail
from arena.referee.lowlevel import WRITABLE_ENV

NEVER_STARTS = "sh -c 'echo \"# Fatal process OOM in Heap setup\" >&2; exit 1'"
NEVER_MOVES = ("sh -c 'read line; echo \"{\\\"type\\\": \\\"ready\\\"}\"; "
               "echo \"# Fatal process OOM in Heap setup\" >&2; exit 1'")


def config(tmp_path: Path, command: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({
        "name": "faulty", "seed": 3, "players": 3, "rules": {"rounds": 2},
        "format": {"type": "round_robin"}, "jobs": 1,
        "bots": [{"label": "node", "command": command}, {"name": "greedy"}, {"name": "random"},
                 {"name": "lowest"}],
        "limits": {"move_ms": 2000, "start_ms": 10000},
    }))
    return path


def arena_run(path: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from arena.cli import main; main()", "run", str(path),
               "--out", str(out), *extra]
    env = {**os.environ, WRITABLE_ENV: str(path.parent)}  # the spy's log, under bubblewrap
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)


def test_a_bot_that_never_starts_stops_the_run_before_any_match_with_one_line(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = arena_run(config(tmp_path, NEVER_STARTS), out, "--quiet")
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    # Which end it closed first is a race: without the sandbox's slower start, its stdin is
    # often gone before the referee writes the start message.
    assert re.match(r"error: bot 'node' cannot start \(crash\): process closed its "
                    r"(output|input) \(exit code 1\)", line), line
    assert line.endswith("# Fatal process OOM in Heap setup")
    assert not (out / "records.jsonl").exists()


def test_a_bot_that_never_moves_fails_a_quiet_run_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = arena_run(config(tmp_path, NEVER_MOVES), out, "--quiet")
    assert done.returncode == 1
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("error: node never played a move: crash in 3/3 matches: "
                           "# Fatal process OOM in Heap setup (process ")
    log = [json.loads(line) for line in (out / "arena.log").read_text().splitlines()]
    assert log


def test_the_closing_section_and_standings_name_the_faults(tmp_path: Path) -> None:
    done = arena_run(config(tmp_path, NEVER_MOVES), tmp_path / "out")
    assert done.returncode == 1
    assert "faults" in done.stdout  # the standings' column
    lines = done.stdout.splitlines()
    section = lines[lines.index("faults:") + 1:]
    assert section[0].startswith("  node: crash in 3/3 matches: # Fatal process OOM")
    assert "{" not in done.stderr  # no JSON log lines on the terminal


def test_a_clean_run_exits_zero_without_a_faults_section(tmp_path: Path) -> None:
    tmp_path.chmod(0o777)  # writable by the bot's uid, 65534 outside too (pytest: 0700)
    done = arena_run(config(tmp_path, f"{sys.executable} {Path(__file__).parent / 'spy_bot.py'} "
                                      f"{tmp_path / 'spy.log'}"), tmp_path / "out", "--quiet")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_python_bots_crash_is_summed_up_by_its_own_frame() -> None:
    detail = ('bot error: ZeroDivisionError: division by zero; traceback tail: Traceback (most '
              'recent call last):\n  File "/x/arena/referee/child/__main__.py", line 90, in '
              'handle\n'
              '    move = self.bot.play(view)\n  File "/home/me/mybot.py", line 12, in play\n'
              '    return 1 / 0\nZeroDivisionError: division by zero')
    assert short_detail(detail) == ("bot error: ZeroDivisionError: division by zero "
                                    "(at mybot.py:12 in play)")
    assert short_detail("start failed: process exited (exit code 1); output tail: a\nlast words\n"
                        ) == "last words (process exited (exit code 1))"


@pytest.mark.parametrize("schema", [1, 2])
def test_the_fault_log_counts_matches_kinds_and_moves(schema: int) -> None:
    def record(seat_faults: list[tuple[int, str, str]], moves: list[int]) -> dict[str, object]:
        deal: dict[str, object] = (
            {"moves": [{"seat": s, "move": "3C"} for s in moves]} if schema == 1 else
            {"movers": moves, "moves": ["3C"] * len(moves), "think_us": [5] * len(moves)})
        deal["faults"] = [{"seat": s, "kind": k, "detail": d, "stage": "play"}
                          for s, k, d in seat_faults]
        return {"schema": schema, "type": "match", "rules": {"on_fault": "forfeit"},
                "seats": [{"label": "a"}, {"label": "b"}], "deals": [deal]}

    log = FaultLog(["a", "b"])
    log.add(record([(1, "timeout", "no answer within the 5 ms allowed")], [0, 1]))
    log.add(record([(1, "timeout", "late"), (1, "illegal", "3C: no")], [0]))
    log.add({"type": "error", "match_id": "x"})
    assert log.lines() == ["b: timeout in 2/2 matches: no answer within the 5 ms allowed"]
    assert log.silent() == [] and log.counts() == {"a": 0, "b": 3}
    log.add(record([(0, "crash", "start failed: boom")], [1]))
    assert log.bots["a"].line() == "a: crash at start in 1/3 matches: boom"


@pytest.mark.parametrize("stray", [1.0, True, 300, -1])
def test_moves_are_counted_alike_whatever_the_movers_hold(stray: object) -> None:
    def record(movers: list[object]) -> dict[str, object]:
        return {"type": "match", "seats": [{"label": "a"}, {"label": "b"}],
                "rules": {"on_fault": "forfeit"}, "deals": [{"movers": movers, "faults": []}]}

    plain, odd = FaultLog(), FaultLog()
    plain.add(record([0, 1, 0, 1, 1]))
    odd.add(record([0, 1, 0, stray, 1]))
    counted = 1 if stray == 1 else 0  # what equals seat 1 counts for it, as before
    assert (odd.bots["a"].moves, odd.bots["b"].moves) == (2, 2 + counted)
    assert (plain.bots["a"].moves, plain.bots["b"].moves) == (2, 3)


@pytest.mark.parametrize("on_fault", ["forfeit", "pass"])
def test_a_records_moves_are_counted_over_its_deals_less_those_played_for_a_faulted_seat(
        on_fault: str) -> None:
    def deal(movers: list[object], faulted: list[int]) -> dict[str, object]:
        return {"movers": movers, "faults": [{"seat": s, "kind": "illegal", "detail": "no",
                                              "stage": "play"} for s in faulted]}

    log = FaultLog()
    log.add({"type": "match", "seats": [{"label": "a"}, {"label": "b"}],
             "rules": {"on_fault": on_fault},
             "deals": [deal([0, 1, 0], []), deal([1, 1, 0, 1], [1]), deal([0, 1.0, 1], []),
                       deal([0, 0], [0, 0, 1])]})
    # the referee's move for a faulted seat is not its own unless the fault forfeits the deal
    forced = on_fault != "forfeit"
    assert log.bots["a"].moves == (4 if forced else 6)
    assert log.bots["b"].moves == (5 if forced else 6)  # 1.0 counts as seat 1, as before
    assert log.bots["b"].faults == 2 and log.bots["a"].faulted == 1
