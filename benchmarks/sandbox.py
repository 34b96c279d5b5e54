"""Sandbox cost: the time to start a bot, with and without the sandbox, per bot start.

Starts the same bot the way the ``command`` and ``process`` hosts do
(``ChildProcess``, under the same limits) and times until its ``ready``
answer arrives, alternating plain and sandboxed starts so both see the same
load. The floor is the plain start of the same program in the same run;
the cost of the sandbox is the difference of the medians. Two programs: a
shell one-liner (the floor of any start) and the Python child runner of the
``process`` host with the ``random`` bot (a typical bot start).

    python benchmarks/sandbox.py [--starts 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import trio

from arena.referee import sandbox_mechanism
from arena.referee.lowlevel import PROTOCOL_VERSION, ChildProcess, sandbox_argv

SHELL = ["/bin/sh", "-c", 'read line; echo \'{"type":"ready","id":1}\'; read line']
PYTHON = [sys.executable, "-m", "arena.referee._child", "--bot", "random", "--params", "{}"]


def start_ms(argv: list[str], stdio: bool, sandbox: list[str] | None) -> float:
    """Milliseconds from spawning the process to its ``ready`` answer."""

    async def go() -> float:
        t0 = time.perf_counter()
        proc = ChildProcess(argv, stdio=stdio, memory_mb=1024, cpu_s=60, sandbox=sandbox)
        try:
            with trio.fail_after(20):
                await proc.send({"type": "start", "id": 1, "protocol": PROTOCOL_VERSION,
                                 "seat": 0, "players": 3, "match_id": "bench",
                                 "labels": ["a", "b", "c"], "rules": {}, "limits": {},
                                 "seed": 1})
                answer = await proc.receive()
            assert answer.get("type") == "ready", answer
            return (time.perf_counter() - t0) * 1000
        finally:
            proc.kill()

    return trio.run(go)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=30, help="starts of each kind")
    args = parser.parse_args()
    kind = sandbox_mechanism()
    print(f"sandbox: {kind}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    if kind is None:
        print("no sandbox on this machine: nothing to measure")
        return
    prefix = sandbox_argv()
    for name, argv, stdio in (("shell", SHELL, True), ("python bot", PYTHON, False)):
        plain: list[float] = []
        boxed: list[float] = []
        for _ in range(args.starts):
            plain.append(start_ms(argv, stdio, None))
            boxed.append(start_ms(argv, stdio, prefix))
        p, b = statistics.median(plain), statistics.median(boxed)
        print(f"{name:>10}: start {p:7.1f} ms plain, {b:7.1f} ms sandboxed (medians of "
              f"{args.starts}): the sandbox costs {b - p:+.1f} ms per bot start")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
