"""Ctrl-C on ``arena run --serve``, in a terminal and without, and ``kill -INT`` on one a shell
started in the background (SIGINT ignored): the matches in flight are abandoned, the last line
says how to resume and nothing is drawn after it, and the standings saved count the matches
the records hold.

The run is a league of ``mc`` and ``expert`` whose matches last seconds, so that matches are
in flight when Ctrl-C comes (``benchmarks/interrupt.py`` measures how long the command takes
to come back).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(240)

CONFIG = """\
name: ctrl-c
seed: 11
players: 4
rules: {preset: standard, rounds: 1}
format: {type: league, min_sets: 1}
bots:
  - {name: mc, params: {playouts: 4}}
  - {name: expert, params: {move_ms: 400}}
  - {name: mc, label: mc-2, params: {playouts: 4}}
  - {name: expert, label: expert-2, params: {move_ms: 400}}
"""

_ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\r")


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def _ctrl_c(tmp_path: Path, terminal: bool, background: bool = False
            ) -> tuple[bytes, int, float, bool, Path]:
    """``arena run CONFIG --serve 0`` until its first record, then Ctrl-C to its whole process
    group (``background``: started with SIGINT ignored, as a shell starts ``... &``, and sent
    SIGINT alone, as ``kill -INT``): the output, the exit status, the seconds it took to exit,
    whether every process of the group is gone, the output folder."""
    config = tmp_path / "ctrl-c.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    out = tmp_path / "out"
    args = [sys.executable, "-c", "from arena.cli import main; main()", "run", str(config),
            "--out", str(out), "--serve", "0", "-j", "2"]
    env = {**os.environ, "COLUMNS": "100", "LINES": "40"}
    if terminal:
        reader, writer = os.openpty()
    else:
        reader, writer = os.pipe()
    # A terminal's process starts with SIGINT at its default (this test's may ignore it); a
    # background job of a shell, with SIGINT ignored.
    found = signal.SIG_IGN if background else signal.SIG_DFL
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=writer, stderr=writer,
                            env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, found))
    os.close(writer)
    os.set_blocking(reader, False)
    output = bytearray()

    def drain() -> None:
        try:
            while chunk := os.read(reader, 65536):
                output.extend(chunk)
        except (BlockingIOError, OSError):  # nothing now; a closed terminal reads EIO
            pass

    try:
        deadline = time.monotonic() + 180
        while _lines(out / "records.jsonl") < 1:
            drain()
            assert proc.poll() is None and time.monotonic() < deadline, bytes(output[-2000:])
            time.sleep(0.05)
        sent = time.perf_counter()
        if background:
            os.kill(proc.pid, signal.SIGINT)
        else:
            os.killpg(proc.pid, signal.SIGINT)
        while proc.poll() is None:
            drain()
            assert time.perf_counter() - sent < 60, "the run went on after Ctrl-C"
            time.sleep(0.01)
        seconds = time.perf_counter() - sent
        time.sleep(0.3)  # whatever a thread left behind would draw meanwhile
        drain()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(reader)
    return bytes(output), proc.returncode, seconds, _group_gone(proc.pid), out


def _group_gone(group: int) -> bool:
    deadline = time.monotonic() + 60  # a bound on a survivor: the workers' exit is slow at load
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    os.killpg(group, signal.SIGKILL)
    return False


@pytest.mark.parametrize(("terminal", "background"), [(False, False), (True, False),
                                                     (False, True)],
                         ids=["pipe", "terminal", "background"])
def test_ctrl_c_on_a_served_run_abandons_the_matches_in_flight(tmp_path: Path, terminal: bool,
                                                               background: bool) -> None:
    output, status, seconds, gone, out = _ctrl_c(tmp_path, terminal, background)
    kind = "background" if background else "terminal" if terminal else "pipe"
    print(f"Ctrl-C to exit ({kind}): {seconds:.2f} s")
    assert status == 130, output[-2000:]
    records = _lines(out / "records.jsonl")
    marker = f"interrupted: {records} matches recorded in {out / 'records.jsonl'}; ".encode()
    at = output.rfind(marker)
    assert at >= 0, output[-2000:]
    line = output[at:output.index(b"\n", at)]
    assert line.rstrip().endswith(b"run the same command again to resume"), line
    after = _ESCAPE.sub(b"", output[at + len(line):])
    assert not after.strip(), f"drawn after the last line: {after[:500]!r}"
    standings = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    assert standings["matches"] == records >= 1
    assert gone  # the workers too
    assert not list((out / "live").glob("*.jsonl"))  # no match left as if in play
    time.sleep(1)
    assert _lines(out / "records.jsonl") == records  # nothing played on behind the prompt


def test_sigint_is_a_keyboard_interrupt_while_a_command_runs_where_it_was_ignored() -> None:
    """Within the command, SIGINT raises KeyboardInterrupt (the command's Ctrl-C path); the
    ignoring it found is put back when it ends; a handler it found is left alone."""
    from arena.cli._interrupt import interruptible

    seen: list[object] = []

    @interruptible
    def command(then: int) -> int:
        seen.append(signal.getsignal(signal.SIGINT))
        signal.raise_signal(signal.SIGINT)
        return then

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(KeyboardInterrupt):
            command(1)
        assert seen == [signal.default_int_handler]
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        caught: list[int] = []
        signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
        assert command(2) == 2 and caught == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)


def test_kill_int_stops_arena_serve_started_in_the_background(tmp_path: Path) -> None:
    """``arena serve OUT &``: SIGINT ignored by the shell, and ``kill -INT`` stops it as
    Ctrl-C does."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "from arena.cli import main; main()", "serve", str(tmp_path),
         "--port", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert proc.stdout is not None
    try:
        first = proc.stdout.readline()
        assert "(Ctrl-C stops)" in first, first
        os.kill(proc.pid, signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and rest.strip().splitlines()[-1] == "stopped", rest
