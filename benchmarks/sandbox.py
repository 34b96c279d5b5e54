"""Sandbox cost: the time to start a bot, with and without the sandbox, per bot start.

Starts the same bot the way the ``command`` and ``process`` hosts do
(``ChildProcess``, under the same limits) and times until its ``ready``
answer arrives, taking turns between plain and sandboxed starts (under
each mechanism this machine has: bubblewrap and the ``unshare`` fallback)
so all see the same load. The sandbox hides a private folder beside the
current one, as a tournament hides its output folder. The floor is the
plain start of the same program in the same run; the cost of the sandbox is
the difference of the medians. Two programs: a shell one-liner (the floor
of any start) and the Python child runner of the ``process`` host with the
``random`` bot (a typical bot start).

Then the cost of a fresh process per match (what the sandbox now does for a
``process`` bot) against a pooled one: a pooled process answers the next
match's ``start`` without starting again; that answer is the floor.

Then the cost of the bot's memory cgroup (where this machine gives one): the
same starts with and without it, in turns, plain and under the first
mechanism (the sandbox figures above are without it), and what asking it
after each call whether its limit killed a process costs.

Then the third pass's protections, each against the same sandbox without it, in
turns, per mechanism: the bot's uid unprivileged outside (arena's user namespace,
as root; without it, bubblewrap's or ``unshare``'s own, mapping the bot to root),
and the cgroup tree absent (``_layout.ABSENT``); the keeper's memory (the sandbox's
first process, which stays beside the bot); and a decision's round trip to a
sandboxed bot against the same to a plain one (the filter and the namespaces
together; the keeper is idle meanwhile).

    python benchmarks/sandbox.py [--starts 30] [--cgroup-only | --third-only]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

import trio

import arena.referee.sandbox._layout as drawn
import arena.referee.sandbox._sandbox as sandbox
from arena.referee.lowlevel import PROTOCOL_VERSION, ChildProcess
from arena.referee.sandbox._cgroup import MemoryCgroup, controller, unavailable_reason
from arena.referee.sandbox._sandbox import _argv as mechanism_argv
from arena.referee.sandbox._sandbox import _probe, layout, needed, needed_under_tmp

SHELL = ["/bin/sh", "-c", 'read line; echo \'{"type":"ready","id":1}\'; read line']
PYTHON = [sys.executable, "-m", "arena.referee.child", "--bot", "random", "--params", "{}"]


START = {"type": "start", "id": 1, "protocol": PROTOCOL_VERSION, "seat": 0, "players": 3,
         "match_id": "bench", "labels": ["a", "b", "c"], "rules": {}, "limits": {}, "seed": 1}


def start_ms(argv: list[str], stdio: bool, sandbox: list[str] | None,
             cgroup: bool = False, end: bool = False) -> float:
    """Milliseconds from spawning the process to its ``ready`` answer (``end``: and to its
    end, killed, with its memory cgroup, when ``cgroup``, removed)."""

    async def go() -> float:
        t0 = time.perf_counter()
        proc = ChildProcess(argv, stdio=stdio, memory_mb=1024, cpu_s=60, sandbox=sandbox,
                            memory_cgroup=cgroup)
        try:
            with trio.fail_after(20):
                await proc.send(START)
                answer = await proc.receive()
            assert answer.get("type") == "ready", (answer, proc.tail())
            assert (proc.cgroup is not None) == cgroup
            ready = time.perf_counter()
        finally:
            proc.kill()
        return ((time.perf_counter() if end else ready) - t0) * 1000

    return trio.run(go)


def cgroup_costs(starts: int, kind: str | None, private: str) -> None:
    """Bot starts (to ``ready``, then killed) with and without the memory cgroup, in turns;
    then the per-call check of its kills."""
    found = controller()
    if found is None:
        print(f"memory cgroup: none here ({unavailable_reason()}): nothing to measure")
        return
    print(f"memory cgroup: v{found.version} in {found.base}")
    for name, argv, stdio in (("shell", SHELL, True), ("python bot", PYTHON, False)):
        for where, prefix in (("plain", None), *(
                ((f"under {kind}", mechanism_argv(kind, layout(
                    [private], [], needed_under_tmp(argv), 1 << 30))),) if kind else ())):
            without, within = [], []
            for _ in range(starts):
                without.append(start_ms(argv, stdio, prefix, cgroup=False, end=True))
                within.append(start_ms(argv, stdio, prefix, cgroup=True, end=True))
            a, b = statistics.median(without), statistics.median(within)
            print(f"{name:>10}: start and end {a:7.1f} ms {where} without, {b:7.1f} ms with "
                  f"the cgroup: {b - a:+.2f} ms per bot start (median of {starts})")
    cgroup = MemoryCgroup(found, 1024)
    try:
        calls = 20000
        t0 = time.perf_counter()
        for _ in range(calls):
            cgroup.fault()
        per_call = (time.perf_counter() - t0) / calls * 1e6
    finally:
        cgroup.close()
    print(f"asking the cgroup after a call: {per_call:.1f} us per call")


def pooled_ms(proc: ChildProcess) -> float:
    """Milliseconds for a running (pooled) process to answer a new match's ``start``."""

    async def go() -> float:
        t0 = time.perf_counter()
        with trio.fail_after(20):
            await proc.send(START)
            answer = await proc.receive()
        assert answer.get("type") == "ready", answer
        return (time.perf_counter() - t0) * 1000

    return trio.run(go)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=30, help="starts of each kind")
    parser.add_argument("--cgroup-only", action="store_true",
                        help="only the memory cgroup's cost")
    parser.add_argument("--third-only", action="store_true",
                        help="only the third pass's protections")
    args = parser.parse_args()
    kinds = [kind for kind in ("bwrap", "unshare") if _probe(kind)[0] == kind]
    print(f"mechanisms: {', '.join(kinds) or 'none'}; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    private = tempfile.mkdtemp(prefix=".bench-private-", dir=os.getcwd())
    try:
        if not (args.cgroup_only or args.third_only):
            sandbox_costs(args.starts, kinds, private)
        if not args.third_only:
            cgroup_costs(args.starts, kinds[0] if kinds else None, private)
        if not args.cgroup_only:
            third_pass(args.starts, kinds, private)
    finally:
        shutil.rmtree(private, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def sandbox_costs(starts: int, kinds: list[str], private: str) -> None:
    """What each sandbox mechanism adds to a bot's start, and a fresh process per match."""
    if not kinds:
        print("no sandbox on this machine: nothing to measure")
        return
    for name, argv, stdio in (("shell", SHELL, True), ("python bot", PYTHON, False)):
        prefixes = {kind: mechanism_argv(kind, layout([private], [], needed_under_tmp(argv),
                                                      1 << 30)) for kind in kinds}
        times: dict[str, list[float]] = {"plain": [], **{kind: [] for kind in kinds}}
        for _ in range(starts):
            times["plain"].append(start_ms(argv, stdio, None))
            for kind in kinds:
                times[kind].append(start_ms(argv, stdio, prefixes[kind]))
        plain = statistics.median(times["plain"])
        print(f"{name:>10}: start {plain:7.1f} ms plain (median of {starts})")
        for kind in kinds:
            boxed = statistics.median(times[kind])
            print(f"{'':>10}  {boxed:7.1f} ms under {kind}: the sandbox costs "
                  f"{boxed - plain:+.1f} ms per bot start")
    # a fresh sandboxed process per match against a pooled one
    proc = ChildProcess(PYTHON, stdio=False, memory_mb=1024, cpu_s=60, memory_cgroup=False)
    try:
        pooled = statistics.median(pooled_ms(proc) for _ in range(starts))
    finally:
        proc.kill()
    kind = kinds[0]
    prefix = mechanism_argv(kind, layout([private], [], needed_under_tmp(PYTHON), 1 << 30))
    fresh = statistics.median(start_ms(PYTHON, False, prefix) for _ in range(starts))
    print(f"python bot per match: {pooled:7.1f} ms pooled (the floor), {fresh:7.1f} ms "
          f"fresh under {kind}: a fresh process costs {fresh - pooled:+.1f} ms per match")



def prefix(kind: str, private: str, argv: list[str], absent: bool = True,
           userns: bool = True) -> list[str]:
    """The sandbox's command prefix for ``argv`` under ``kind``, with or without the cgroup
    tree absent and arena's user namespace (as the sandbox was before them)."""
    saved_absent, saved_userns = drawn.ABSENT, sandbox._userns
    try:
        if not absent:
            drawn.ABSENT = ()
        if not userns:
            sandbox._userns = lambda: None  # type: ignore[assignment]
        reach = needed(argv) if sandbox._userns() is not None else ()
        return mechanism_argv(kind, layout([private], [], needed_under_tmp(argv), 1 << 30,
                                           reach))
    finally:
        drawn.ABSENT, sandbox._userns = saved_absent, saved_userns


def keeper_rss_kb(argv: list[str], boxed: list[str]) -> int:
    """The resident memory of the sandbox's first process (the keeper), in KiB."""
    proc = ChildProcess(argv, stdio=False, memory_mb=1024, cpu_s=60, sandbox=boxed,
                        memory_cgroup=False)
    try:
        pooled_ms(proc)  # started and answering
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/comm") as file:
                    comm = file.read().strip()
                with open(f"/proc/{pid}/stat") as file:
                    pgid = int(file.read().rpartition(")")[2].split()[2])
                if comm == "arena-jail" and pgid == proc.pid:
                    with open(f"/proc/{pid}/status") as file:
                        status = dict(line.split(":", 1) for line in file if ":" in line)
                    return int(status["VmRSS"].split()[0])
            except (OSError, ValueError, KeyError):
                continue
        return -1
    finally:
        proc.kill()


def protections(name: str, argv: list[str], stdio: bool, kind: str, private: str,
                starts: int, root: bool) -> None:
    """Starts of ``argv`` under ``kind`` with every protection and without each, in turns."""
    variants = {"all": prefix(kind, private, argv),
                "cgroup tree shown": prefix(kind, private, argv, absent=False)}
    if root:
        variants["bot root outside"] = prefix(kind, private, argv, userns=False)
    times: dict[str, list[float]] = {variant: [] for variant in variants}
    for _ in range(starts):
        for variant, boxed in variants.items():
            times[variant].append(start_ms(argv, stdio, boxed, end=True))
    full = statistics.median(times["all"])
    print(f"{name:>10} under {kind}: start and end {full:7.1f} ms with every protection "
          f"(median of {starts})")
    for variant in variants:
        if variant != "all":
            other = statistics.median(times[variant])
            what = ("the cgroup tree absent" if variant == "cgroup tree shown"
                    else "the uid unprivileged outside")
            print(f"{'':>10}  {other:7.1f} ms with {variant}: {what} costs "
                  f"{full - other:+.2f} ms per bot start")


def third_pass(starts: int, kinds: list[str], private: str) -> None:
    """What each protection of the third pass adds to a bot's start, and to a decision."""
    if not kinds:
        print("no sandbox on this machine: nothing to measure")
        return
    root = sandbox._userns() is not None
    for kind in kinds:
        for name, argv, stdio in (("shell", SHELL, True), ("python bot", PYTHON, False)):
            protections(name, argv, stdio, kind, private, starts, root)
        print(f"{'':>10}  the keeper holds "
              f"{keeper_rss_kb(PYTHON, prefix(kind, private, PYTHON))} KiB resident beside "
              f"the bot under {kind}")
    plain = ChildProcess(PYTHON, stdio=False, memory_mb=1024, cpu_s=60, memory_cgroup=False)
    boxed = ChildProcess(PYTHON, stdio=False, memory_mb=1024, cpu_s=60, memory_cgroup=False,
                         sandbox=prefix(kinds[0], private, PYTHON))
    try:
        a, b = [], []
        for _ in range(starts * 20):
            a.append(pooled_ms(plain))
            b.append(pooled_ms(boxed))
    finally:
        plain.kill()
        boxed.kill()
    pa, pb = statistics.median(a) * 1000, statistics.median(b) * 1000
    print(f"a decision's round trip: {pa:7.1f} us plain (the floor), {pb:7.1f} us under "
          f"{kinds[0]}: {pb - pa:+.1f} us per decision (median of {starts * 20})")


if __name__ == "__main__":
    main()
