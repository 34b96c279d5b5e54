"""Benchmark: a run served while it plays (``--serve``) or writing its live folder
(``--live``) against the same run plain, watched or not, with bots of different speeds.

    nice .venv/bin/python benchmarks/served.py [--config configs/league.yaml] [--runs 5]
        [--jobs 2] [--fields instant,mc] [--deals 9000] [--mc-deals 360]
        [--modes plain,live,served,watched] [--base DIR]

Each field is the config's league with ``stop: {deals: N}``: ``instant``, its own bots (that
answer at once: ``random``, ``greedy``, ...), ``mc``, the same league where half the seats are
``mc`` (milliseconds a move). Each mode runs ``arena run CONFIG --json`` into a fresh folder:
plain (the floor), ``--live``, ``--serve 0`` with nobody watching, and
``watched``: served, with a spectator's socket that follows what the run's page follows (the
standings, the match list, the report's builds) and, on a second socket, one match in play
after another (as a page does: a match ends, it follows the next the list shows in play). The
modes are interleaved (plain, live, served, watched, then again, the order turned round every
other run) ``--runs`` times, so that the machine's load falls on each alike; the load average
is printed beside each run, and its range over the field's runs. The default lengths make a
run of either field last some 15 s or more on a quiet machine of 2 cores (about 4,500
matches of instant bots; a run of 1,500 lasted 5 to 8 s, where plain runs of one code
differed by 0.7x to 1.5x under load). Per mode: the median matches per second of the run
(its ``played`` over its ``elapsed_s``: from its first match to its last, the server working
meanwhile) and of the whole command (start-up included), and the CPU seconds per match of the
command and its workers, each with its ratio to plain's median in the same field; and the
median of each run's own ratio to the plain run beside it (``paired``: the runs of one round
share the machine's load of the moment). With
``--base DIR`` (a checkout of another commit, its compiled modules built), each mode runs with
that checkout's ``arena`` too (``PYTHONPATH=DIR``), in turn with this one's: before and after
in the same run, each against plain of this checkout.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import yaml
from httpx_ws import WebSocketDisconnect, WebSocketNetworkError, WebSocketSession, connect_ws

ROOT = Path(__file__).resolve().parents[1]
MODES = ("plain", "live", "served", "watched")
PAGE = ("standings", "matches", "report", "progress", "league")
"""The topics the run's page follows (``static/live.js``): a new report build is one."""
MESSAGE_BYTES = 1 << 24
"""The largest message the spectator takes (a browser has no bound; httpx-ws's is 64 KiB,
which the standings or the match list of a long run pass: the socket would break)."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def field_config(config: Path, field: str, deals: int, folder: Path) -> Path:
    """The league of ``config`` stopped after ``deals``, its bots as given (``instant``) or
    every other entry an ``mc`` (``mc``)."""
    data: dict[str, Any] = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["format"]["stop"] = {"deals": deals}
    if field == "mc":
        bots = data["bots"]
        for number in range(1, len(bots), 2):
            bots[number] = {"name": "mc", "label": f"mc-{number}",
                            "params": {"playouts": 8}}
    path = folder / f"{field}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def run(config: Path, out: Path, mode: str, jobs: int,
        base: Path | None = None) -> tuple[float, float, float, int, int]:
    """One ``arena run`` (of the checkout ``base`` when given): matches/s of the run,
    matches/s of the command, the CPU seconds per match of the command and its workers
    (start-up included), the matches the spectator followed and its sockets' breaks."""
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
    stop = threading.Event()
    followed = [0, 0]
    if mode == "watched":
        url = _url(proc)
        watcher = threading.Thread(target=_watch, args=(url, stop, followed), daemon=True)
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
    stop.set()
    if watcher is not None:
        watcher.join()
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:  # its figures are in: the rest is Ctrl-C's business
        print(f"  {mode}: not stopped 5 s after Ctrl-C, killed", flush=True)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
    result = json.loads(text)
    played = result["played"]
    return (played / result["elapsed_s"], played / wall, (_children_cpu() - cpu) / played,
            followed[0], followed[1])


def _url(proc: subprocess.Popen[str]) -> str:
    assert proc.stderr is not None
    while line := proc.stderr.readline():
        if " on http://" in line:
            return line.split(" on ", 1)[1].split()[0].rstrip("/")
    raise SystemExit("the served run printed no URL")


def _messages(socket: WebSocketSession) -> list[dict[str, Any]]:
    """What came on ``socket`` within a tenth of a second (a batch unfolded)."""
    found: list[dict[str, Any]] = []
    with contextlib.suppress(queue.Empty):
        while True:
            message = json.loads(socket.receive_text(timeout=0.1 if not found else 0.0))
            found += message["events"] if message.get("type") == "batch" else [message]
    return found


def _watch(url: str, stop: threading.Event, followed: list[int]) -> None:
    """A spectator: the run's page's topics on one socket (the standings, the match list, the
    report's builds: :data:`PAGE`), one match in play after another on a second
    (``followed[0]`` counts them). A socket that breaks is opened again, as the page does
    (``followed[1]`` counts the breaks)."""
    while not stop.is_set():
        try:
            _spectate(url, stop, followed)
        except (WebSocketNetworkError, WebSocketDisconnect, httpx.HTTPError):
            followed[1] += 1
            time.sleep(0.5)


def _spectate(url: str, stop: threading.Event, followed: list[int]) -> None:
    playing: set[str] = set()
    with (httpx.Client(base_url=url, timeout=30) as client,
          connect_ws(url.replace("http", "ws") + "/ws", client,
                     max_message_size_bytes=MESSAGE_BYTES) as page):
        for topic in PAGE:
            page.send_text(json.dumps({"subscribe": topic}))
        match: WebSocketSession | None = None
        with contextlib.ExitStack() as stack:
            while not stop.is_set():
                for message in _messages(page):
                    for entry in message.get("matches") or ():
                        (playing.add if entry["state"] == "playing" else playing.discard)(
                            entry["id"])
                    playing -= set(message.get("gone") or ())
                if match is not None and any(m.get("type") in ("recorded", "match_end",
                                                               "unknown")
                                             for m in _messages(match)):
                    stack.close()
                    match = None
                if match is None and playing:
                    match = stack.enter_context(connect_ws(
                        url.replace("http", "ws") + "/ws", client,
                        max_message_size_bytes=MESSAGE_BYTES))
                    match.send_text(json.dumps({"subscribe": f"match:{playing.pop()}"}))
                    followed[0] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "configs" / "league.yaml")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--fields", default="instant,mc")
    parser.add_argument("--deals", type=int, default=9000)
    parser.add_argument("--mc-deals", type=int, default=360)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--base", type=Path, default=None)
    options = parser.parse_args()
    modes = options.modes.split(",")
    if "plain" not in modes or not set(modes) <= set(MODES):
        raise SystemExit(f"--modes: plain and any of {', '.join(MODES[1:])}")
    if options.base is not None:
        modes += [f"{mode}@base" for mode in modes]
    print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for field in options.fields.split(","):
            deals = options.mc_deals if field == "mc" else options.deals
            config = field_config(options.config, field, deals, Path(tmp))
            print(f"{field} (stop after {deals} deals, {options.jobs} jobs):", flush=True)
            _field(config, modes, options, Path(tmp) / field)
    print(f"load after: {os.getloadavg()[0]:.2f}")


def _field(config: Path, modes: list[str], options: argparse.Namespace, tmp: Path) -> None:
    rates: dict[str, list[tuple[float, float, float, int, int]]] = {mode: [] for mode in modes}
    loads: list[float] = []
    for number in range(options.runs):
        turn = modes if number % 2 == 0 else modes[::-1]
        for mode in turn:
            name, _, at = mode.partition("@")
            rates[mode].append(run(config, tmp / f"{mode}-{number}", name, options.jobs,
                                   options.base.resolve() if at else None))
        loads.append(os.getloadavg()[0])
        print(f"  run {number + 1}: " + ", ".join(f"{mode} {rates[mode][-1][0]:.1f}"
                                                 for mode in modes)
              + f" matches/s; load {loads[-1]:.2f}", flush=True)
    print(f"  load {min(loads):.2f} to {max(loads):.2f} over {options.runs} runs", flush=True)
    floor = statistics.median(r[0] for r in rates["plain"])
    floor_wall = statistics.median(r[1] for r in rates["plain"])
    floor_cpu = statistics.median(r[2] for r in rates["plain"])
    for mode in modes:
        rate = statistics.median(r[0] for r in rates[mode])
        wall = statistics.median(r[1] for r in rates[mode])
        cpu = statistics.median(r[2] for r in rates[mode])
        paired = statistics.median(r[0] / p[0] for r, p in zip(rates[mode], rates["plain"],
                                                                 strict=True))
        seen = (f"; matches followed {statistics.median(r[3] for r in rates[mode]):.0f}, "
                f"sockets broken {sum(r[4] for r in rates[mode])}"
                if mode.startswith("watched") else "")
        print(f"  {mode:13} {rate:6.1f} matches/s in the run ({rate / floor:4.2f}x plain, "
              f"paired {paired:4.2f}x), "
              f"{wall:6.1f} with start-up ({wall / floor_wall:4.2f}x); CPU {cpu * 1e3:5.1f} "
              f"ms/match ({floor_cpu / cpu:4.2f}x plain's matches per CPU second){seen}",
              flush=True)


if __name__ == "__main__":
    main()
