"""Fair clocks under load: spurious timeouts per 10,000 moves with twice as many jobs as cores.

Runs a tournament through the normal runner (records written, then read
back) of process bots that think half their move time, beside bots that
answer at once, with ``jobs`` = twice the number of cores: a ``Computer``
(thinks by computing: CPU time), a ``Waiter`` (thinks by waiting: sleeps)
and two ``random`` bots. None of them is ever late on a free machine, so
every timeout is spurious: the machine's delay charged to a bot. The same
tournament is run with fair clocks (``lag_ms``, the default) and without
(``lag_ms: 0``, the baseline), interleaved, and the figures are printed
with the machine's load average. Target: at most 1 timeout per 10,000
moves with fair clocks.

    python benchmarks/clock_fairness.py [--repeat 12] [--rounds 3] [--move-ms 50]
                                        [--grace-ms 100] [--jobs 4] [--runs 1] [--details 3]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shlex
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from arena.records import read_records
from arena.tournament import run_tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the bots' module, here and in children


def _command(bot: str, think_ms: float) -> str:
    """A command bot: the process host's own child program, over stdin and stdout."""
    params = json.dumps({"think_ms": think_ms})
    return shlex.join([sys.executable, "-m", "arena.referee.child", "--bot",
                       f"_clock_bots:{bot}", "--params", params, "--in", "0", "--out", "1"])


def config(args: argparse.Namespace, lag_ms: float | None) -> dict[str, Any]:
    think = args.move_ms / 2
    limits: dict[str, Any] = {"move_ms": args.move_ms, "grace_ms": args.grace_ms,
                              "start_ms": 20000}
    if lag_ms is not None:
        limits["lag_ms"] = lag_ms
    return {
        "name": "clock-fairness",
        "seed": 11,
        "players": 4,
        "rules": {"rounds": args.rounds},
        "format": {"type": "round_robin"},
        "duplicate": True,
        "repeat": args.repeat,
        "jobs": args.jobs,
        "bots": [
            {"command": _command("Computer", think), "label": "computer"},
            {"command": _command("Waiter", think), "label": "waiter"},
            {"name": "random", "label": "at-once", "host": "process"},
            {"name": "random", "label": "at-once-2", "host": "process"},
        ],
        "limits": limits,
    }


def run(args: argparse.Namespace, lag_ms: float | None) -> dict[str, Any]:
    """Play the tournament; moves, timeouts (per bot) and the load average after it."""
    with tempfile.TemporaryDirectory() as out:
        result = run_tournament(config(args, lag_ms), out=out, jobs=args.jobs)
        load = os.getloadavg()[0]
        moves = 0
        timeouts: collections.Counter[str] = collections.Counter()
        details: list[str] = []
        for record in read_records(result.records):
            moves += record["decisions"]
            for deal in record["deals"]:
                for fault in deal["faults"]:
                    if fault["kind"] == "timeout":
                        timeouts[fault["bot"]] += 1
                        details.append(f"{fault['bot']}: {fault['detail'][:160]}")
    return {"moves": moves, "timeouts": timeouts, "load": load, "wall": result.elapsed_s,
            "details": details}


def line(name: str, figures: dict[str, Any]) -> str:
    total = sum(figures["timeouts"].values())
    per = 10000 * total / max(1, figures["moves"])
    detail = ", ".join(f"{bot} {n}" for bot, n in sorted(figures["timeouts"].items())) or "none"
    return (f"   {name:<31} moves {figures['moves']:>6}  timeouts {total:>4} ({detail})  "
            f"per 10,000 moves {per:7.2f}  load {figures['load']:.2f}  "
            f"wall {figures['wall']:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=12, help="duplicate sets per variant")
    parser.add_argument("--rounds", type=int, default=3, help="deals per match")
    parser.add_argument("--move-ms", type=int, default=50)
    parser.add_argument("--grace-ms", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--runs", type=int, default=1, help="runs of each variant, interleaved")
    parser.add_argument("--details", type=int, default=3,
                        help="timeout details shown per run (the bot's wall and own time)")
    args = parser.parse_args()
    print(f"clock fairness: {os.cpu_count()} cores, jobs={args.jobs}, move_ms={args.move_ms:g}, "
          f"grace_ms={args.grace_ms:g}, bots think {args.move_ms / 2:g} ms (computing or "
          f"sleeping) or answer at once; load before: {os.getloadavg()[0]:.2f}")
    fair: list[float] = []
    base: list[float] = []
    for i in range(args.runs):
        for name, lag, rates in (("fair clocks (default)", None, fair),
                                 ("baseline (lag_ms: 0)", 0, base)):
            figures = run(args, lag)
            rates.append(10000 * sum(figures["timeouts"].values()) / max(1, figures["moves"]))
            print(line(f"run {i + 1}, {name}", figures))
            for detail in figures["details"][: args.details]:
                print(f"      {detail}")
    print(f"median timeouts per 10,000 moves: fair clocks {statistics.median(fair):.2f}, "
          f"baseline {statistics.median(base):.2f} (target: fair clocks <= 1)")


if __name__ == "__main__":
    main()
