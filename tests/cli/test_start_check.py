"""A bot that cannot start stops every command that runs bots before any match, in one line
naming it; and command bots run sandboxed by default wherever the machine can."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.game import Rules
from arena.records import read_records
from arena.referee import Limits, MatchSpecError, Seat, sandbox_mechanism, try_starts

BOTS = Path(__file__).with_name("start_bots.py")


def cmd(mode: str, *args: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(BOTS), mode, *args])


def arena(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("mode", "reason"), [
    ("missing", "No such file"),
    ("nonjson", "not JSON: 'hello, I am a bot'"),
    ("exit3", "exit code 3"),
])
def test_match_with_a_bot_that_cannot_start_fails_up_front_naming_it(
        tmp_path: Path, mode: str, reason: str) -> None:
    bot = f"{mode}=cmd:{tmp_path / 'missing'}" if mode == "missing" else f"{mode}={cmd(mode)}"
    records = tmp_path / "r.jsonl"
    code, out, err = arena("match", bot, "greedy", "--rounds", "5", "--seed", "1",
                           "--records", str(records), "--no-sandbox")
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith(f"error: bot '{mode}' cannot start (")
    assert reason in line
    assert "greedy" not in err and out == ""  # nobody else blamed, no match played
    assert not records.exists() or records.read_text() == ""


def test_a_bot_that_never_flushes_fails_at_its_start_limit() -> None:
    faults = try_starts([Seat(label="quiet", command=cmd("noflush")[4:], host="command"),
                         Seat(label="greedy", name="greedy")],
                        rules=Rules(), limits=Limits(start_ms=700))
    quiet, greedy = faults
    assert greedy is None
    assert quiet is not None and quiet.kind == "timeout"
    assert "700 ms" in quiet.detail


def test_every_seat_that_starts_passes_the_check() -> None:
    seats = [Seat(label="a", name="greedy"), Seat(label="b", name="random", host="process"),
             Seat(label="c", command=cmd("probe", "/nonexistent")[4:], host="command")]
    # a start limit no load reaches: this checks what starts, not how fast
    assert try_starts(seats, rules=Rules(), limits=Limits(start_ms=60_000)) == [None] * 3


def test_an_unknown_bot_is_bad_input_before_anything_starts() -> None:
    with pytest.raises(MatchSpecError, match="unknown bot 'no-such-bot'"):
        try_starts([Seat(label="x", name="no-such-bot")], rules=Rules(), limits=Limits(),
                   players=4)
    code, _, err = arena("match", "no-such-bot", "greedy")
    assert code == 2 and err.startswith("arena match: error: unknown bot 'no-such-bot'")


def config(tmp_path: Path, bot: str) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(
        "name: startcheck\nplayers: 2\nformat: {type: round_robin}\n"
        "rules: {preset: standard, rounds: 1}\nlimits: {start_ms: 20000}\n"
        f"bots:\n  - {bot}\n  - {{name: greedy}}\n  - {{name: random}}\n", encoding="utf-8")
    return path


def test_run_refuses_to_start_with_an_entrant_that_cannot_start(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(BOTS), "exit3"])
    path = config(tmp_path, f"{{label: broken, command: {command!r}}}")
    out = tmp_path / "out"
    code, _, err = arena("run", str(path), "--out", str(out), "--quiet")
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith("error: bot 'broken' cannot start (crash)") and "exit code 3" in line
    assert not (out / "records.jsonl").exists()


def test_run_goes_on_when_every_entrant_starts(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(BOTS), "probe", "/nonexistent"])
    path = config(tmp_path, f"{{label: probe, command: {command!r}}}")
    out = tmp_path / "out"
    code, _, err = arena("run", str(path), "--out", str(out), "--quiet")
    assert code == 0, err
    assert len(list(read_records(out / "records.jsonl"))) == 3


def test_ab_refuses_a_challenger_that_cannot_start(tmp_path: Path) -> None:
    code, _, err = arena("ab", f"broken={cmd('exit3')}", "greedy", "--max-sets", "2",
                         "--quiet", "--no-sandbox")
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith("error: bot 'broken' cannot start (crash)")


def test_match_sandboxes_command_bots_by_default_wherever_the_machine_can(
        tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    records = tmp_path / "r.jsonl"
    code, _, err = arena("match", f"probe={cmd('probe', str(outside))}", "greedy",
                         "--rounds", "1", "--seed", "2", "--records", str(records))
    assert code == 0, err
    (record,) = read_records(records)
    can = sandbox_mechanism() is not None
    assert record["limits"]["sandbox"] is can
    # Sandboxed, the bot's private /tmp keeps its file out of the real folder.
    assert (outside / "probe-written").exists() is not can
    if not can:
        pytest.skip("this machine cannot sandbox bots (no bubblewrap, no unshare): "
                    "only the unsandboxed default was checked")


def test_match_no_sandbox_runs_command_bots_as_they_are(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    code, _, err = arena("match", f"probe={cmd('probe', str(outside))}", "greedy",
                         "--rounds", "1", "--seed", "2", "--no-sandbox")
    assert code == 0, err
    assert (outside / "probe-written").exists()


def test_match_help_says_what_the_default_is() -> None:
    code, out, _ = arena("match", "--help")
    assert code == 0
    assert "wherever the machine can" in " ".join(out.split())


def test_a_start_failure_names_the_error_line_not_the_runtimes_version_line() -> None:
    from arena.cli._start_checks import start_reason

    node = ("start failed: process closed its output (exit code 1); output tail: "
            "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\n"
            "Error: Cannot find module '/tmp/x/examples/node-bot/bot.js'\n"
            "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n"
            "    at node:internal/main/run_main_module:28:49 {\n"
            "  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}\n\nNode.js v20.20.2\n")
    reason = start_reason(node)
    assert "\n" not in reason
    assert reason.startswith("process closed its output (exit code 1)")
    assert reason.endswith("Error: Cannot find module '/tmp/x/examples/node-bot/bot.js'")
    python = ("start failed: crash; output tail: Traceback (most recent call last):\n"
              '  File "bot.py", line 1, in <module>\nModuleNotFoundError: No module named x\n')
    assert start_reason(python).endswith("ModuleNotFoundError: No module named x")
    assert start_reason("start failed: exit code 3\nbye\n") == "exit code 3 ... bye"
