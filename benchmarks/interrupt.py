"""Benchmark: Ctrl-C on a league of ``mc`` and ``expert``, served and plain, in a terminal and
without: how long until the command is back, and what it left.

    nice .venv/bin/python benchmarks/interrupt.py [--runs 3] [--after 4] [--jobs 2]

Each case starts ``arena run`` on a league with no budget (it runs until Ctrl-C) in a new
process group, waits for ``--after`` records, sends SIGINT to the whole group (as a
terminal's Ctrl-C does) and measures the time until the command exits. A terminal is a
pseudo-terminal of 120 columns, read as the command writes. Per case: the median seconds, the
exit status, whether the last line of the output says how to resume, whether anything was
drawn after it (the live table, in a terminal), and whether ``standings.json`` counts the
matches ``records.jsonl`` holds. The machine's load average is printed before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

CONFIG = """\
name: crowd
seed: 7
players: 4
rules: {preset: standard, rounds: 2}
format: {type: league, min_sets: 1}
bots:
  - mc
  - expert
  - {name: mc, label: mc-2}
  - {name: expert, label: expert-2}
"""

STUCK_S = 120.0
"""A command not back this long after Ctrl-C is killed (its time is then this)."""

_ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\r")


@dataclass
class Outcome:
    seconds: float
    status: int
    last_line: str
    drawn_after: bool
    """Whether the output went on after the line that says how to resume."""
    records: int
    standings: int | None


def command(config: Path, out: Path, serve: bool, jobs: int) -> list[str]:
    """``arena run`` of ``config`` into ``out``, served on a free port when asked."""
    args = [sys.executable, "-c", "from arena.cli import main; main()", "run", str(config),
            "--out", str(out), "-j", str(jobs)]
    return args + (["--serve", "0"] if serve else [])


def _records(out: Path) -> int:
    try:
        return (out / "records.jsonl").read_bytes().count(b"\n")
    except OSError:
        return 0


def _standings(out: Path) -> int | None:
    try:
        return int(json.loads((out / "standings.json").read_text(encoding="utf-8"))["matches"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def interrupt(args: list[str], out: Path, after: int, terminal: bool) -> Outcome:
    """Run ``args``, Ctrl-C it once ``out`` holds ``after`` records, and say what came of it."""
    env = {**os.environ, "COLUMNS": "120", "LINES": "40"}
    if terminal:
        import pty

        master, slave = pty.openpty()
        proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(slave)
    else:
        master = -1
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    output = bytearray()
    reader = master if terminal else proc.stdout.fileno()  # type: ignore[union-attr]
    os.set_blocking(reader, False)

    def drain() -> None:
        while True:
            try:
                chunk = os.read(reader, 65536)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                return
            output.extend(chunk)

    try:
        deadline = time.monotonic() + 600
        while _records(out) < after:
            drain()
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the run ended before {after} records: {output[-2000:]!r}")
            time.sleep(0.05)
        sent = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        while proc.poll() is None and time.perf_counter() - sent < STUCK_S:
            drain()
            time.sleep(0.005)
        seconds = time.perf_counter() - sent
        time.sleep(0.2)
        drain()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        with contextlib.suppress(ProcessLookupError):  # its workers, if it left them
            os.killpg(proc.pid, signal.SIGKILL)
        if terminal:
            os.close(master)
    return _outcome(bytes(output), seconds, proc.returncode, out)


def _outcome(output: bytes, seconds: float, status: int, out: Path) -> Outcome:
    marker = output.rfind(b"interrupted: ")
    lines = [line for line in _ESCAPE.sub(b"", output).decode(errors="replace").splitlines()
             if line.strip()]
    after = output[output.find(b"\n", marker) + 1:] if marker >= 0 else b""
    drawn_after = marker < 0 or bool(_ESCAPE.sub(b"", after).strip())
    return Outcome(seconds, status, lines[-1] if lines else "", drawn_after, _records(out),
                   _standings(out))


def summary(name: str, outcomes: list[Outcome]) -> str:
    """One line of a case's runs: the median seconds, then what they left."""
    runs = len(outcomes)
    seconds = statistics.median(o.seconds for o in outcomes)
    resume = sum("run the same command again" in o.last_line for o in outcomes)
    drawn = sum(o.drawn_after for o in outcomes)
    agree = sum(o.standings == o.records for o in outcomes)
    counts = ", ".join(f"{o.standings}/{o.records}" for o in outcomes)
    return (f"{name:17} Ctrl-C to exit: median {seconds:5.2f} s (runs "
            f"{', '.join(f'{o.seconds:.2f}' for o in outcomes)}); exit "
            f"{sorted({o.status for o in outcomes})}; last line says how to resume: "
            f"{resume}/{runs}; drawn after it: {drawn}/{runs}; standings = records: "
            f"{agree}/{runs} ({counts})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--after", type=int, default=4, help="records before Ctrl-C")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "crowd.yaml"
        config.write_text(CONFIG, encoding="utf-8")
        for serve in (False, True):
            for terminal in (False, True):
                outcomes = []
                for run in range(options.runs):
                    out = Path(tmp) / f"run-{serve}-{terminal}-{run}"
                    outcomes.append(interrupt(command(config, out, serve, options.jobs), out,
                                              options.after, terminal))
                name = f"{'served' if serve else 'plain'}, {'terminal' if terminal else 'pipe'}"
                print(summary(name, outcomes), flush=True)
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
