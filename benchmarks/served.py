"""Benchmark: a run served while it plays (``--serve``) or writing its live folder
(``--live``) against the same run plain.

    nice .venv/bin/python benchmarks/served.py [--config configs/league.yaml] [--runs 3]
        [--jobs 2] [--watch] [--base DIR]

Each mode runs ``arena run CONFIG --json`` into a fresh folder, the modes in turn ``--runs``
times (so the machine's load falls on each alike): plain (the floor), ``--live``, and
``--serve 0`` (nobody watching; with ``--watch`` also served with a client that asks
``/api/standings`` and ``/api/matches`` every half second and follows the match list's first
match in play on the socket). Per mode: the median matches per second of the run (its
``played`` over its ``elapsed_s``: from its first match to its last, the server working
meanwhile) and of the whole command until the result is printed (start-up included), and the
CPU seconds per match of the command and its workers (start-up included: on a loaded machine
the steadier figure), each with its ratio to plain. The load average is printed before and
after. With ``--base DIR`` (a checkout of another commit, its compiled modules built), each
mode runs with that checkout's ``arena`` too (``PYTHONPATH=DIR``), in turn with this one's:
before and after in the same run, each against plain of this checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(config: Path, out: Path, mode: str, jobs: int,
        base: Path | None = None) -> tuple[float, float, float]:
    """One ``arena run`` (of the checkout ``base`` when given): matches/s of the run,
    matches/s of the command, and the CPU seconds per match of the command and its workers
    (start-up included)."""
    cpu = _children_cpu()
    args = [sys.executable, "-c", "from arena.cli import main; main()", "run", str(config),
            "--out", str(out), "-j", str(jobs), "--json"]
    args += {"plain": [], "live": ["--live"]}.get(mode, ["--serve", "0"])
    started = time.perf_counter()
    env = None if base is None else {**os.environ, "PYTHONPATH": str(base)}
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    watcher = None
    if mode == "watched":
        url = _url(proc)
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(url, stop), daemon=True)
        watcher.start()
    text = ""
    while True:  # the result, then (served) the server goes on until Ctrl-C
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"arena run ended without a result: {proc.stderr.read()[-2000:]}")
        text += line
        if line.rstrip() == "}":
            break
    wall = time.perf_counter() - started
    if watcher is not None:
        stop.set()
        watcher.join()
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:  # its figures are in: the rest is Ctrl-C's business
        print(f"  {mode}: not stopped 20 s after Ctrl-C, killed", flush=True)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
    result = json.loads(text)
    played = result["played"]
    return played / result["elapsed_s"], played / wall, (_children_cpu() - cpu) / played


def _url(proc: subprocess.Popen[str]) -> str:
    assert proc.stderr is not None
    while line := proc.stderr.readline():
        if " on http://" in line:
            return line.split(" on ", 1)[1].split()[0].rstrip("/")
    raise SystemExit("the served run printed no URL")


def _watch(url: str, stop: threading.Event) -> None:
    """A spectator: the standings and the match list every half second."""
    with httpx.Client(base_url=url, timeout=30) as client:
        while not stop.is_set():
            try:
                client.get("/api/standings")
                client.get("/api/matches")
            except httpx.HTTPError:
                pass
            stop.wait(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "configs" / "league.yaml")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--watch", action="store_true")
    parser.add_argument("--base", type=Path, default=None)
    options = parser.parse_args()
    modes = ["plain", "live", "served"] + (["watched"] if options.watch else [])
    if options.base is not None:
        modes += [f"{mode}@base" for mode in modes]
    rates: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in modes}
    print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(options.runs):
            for mode in modes:
                out = Path(tmp) / f"{mode}-{number}"
                name, _, at = mode.partition("@")
                rates[mode].append(run(options.config, out, name, options.jobs,
                                       options.base.resolve() if at else None))
    floor = statistics.median(r[0] for r in rates["plain"])
    floor_wall = statistics.median(r[1] for r in rates["plain"])
    floor_cpu = statistics.median(r[2] for r in rates["plain"])
    for mode in modes:
        rate = statistics.median(r[0] for r in rates[mode])
        wall = statistics.median(r[1] for r in rates[mode])
        cpu = statistics.median(r[2] for r in rates[mode])
        print(f"{mode:13} {rate:6.1f} matches/s in the run ({rate / floor:4.2f}x plain), "
              f"{wall:6.1f} with start-up ({wall / floor_wall:4.2f}x); CPU {cpu * 1e3:5.1f} "
              f"ms/match ({floor_cpu / cpu:4.2f}x plain's matches per CPU second); runs: "
              f"{', '.join(f'{r[0]:.1f}' for r in rates[mode])}")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
