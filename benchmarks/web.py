"""Benchmark: how many tables one server holds while it serves spectators, and page load time.

    .venv/bin/python benchmarks/web.py [--tables 1,8,32,128] [--seconds 2] [--loads 5]

One trio run holds the server (Starlette on Hypercorn's trio worker, 127.0.0.1) and N tables:
each table plays matches of four inline bots (greedy, lowest, highest, random) without end,
through the trio driver (each decision a checkpoint, as a table with awaited seats has), its
public events sent through the referee's ``watch`` argument to the hub, where spectator
sockets (one per table, up to 32, plus one on the standings) hear them; meanwhile a client
asks ``/api/matches`` in a loop. For each N it prints the decisions per second of all tables
and of one, the events the spectators received per second, and the median answer time of
the API, against the floor: the same N tables in the same run with no server and no
spectator. The page's load time is the median time to fetch every resource of the run's
page (``/``, its scripts and style, the API it asks, the report frame and its files) with
httpx, against fetching one small static file as often.

The spectators and the API client run in the same process (the machine may have no second
core to spare): their cost is counted against the server. The load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import trio
from httpx_ws import aconnect_ws

from arena.game import View
from arena.referee import Deadline, InlineHost, MatchSpec, play_match
from arena.tournament import run_tournament
from arena.web import Hub, create_app, serve_app

BOTS = ("greedy", "lowest", "highest", "random")
RUN = {"name": "benchweb", "seed": 99, "players": 4, "format": {"type": "round_robin"},
       "duplicate": True, "rules": {"rounds": 2}, "bots": [{"name": b} for b in BOTS]}


class Awaited(InlineHost):
    """An inline bot asked through the trio driver, with a checkpoint per decision."""

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        await trio.lowlevel.checkpoint()
        return await super().play(view, time_ms, deadline)


def spec(table: int, number: int) -> MatchSpec:
    return MatchSpec.from_dict({
        "match_id": f"b{table}-{number}", "seed": 1000 * table + number, "rules": {"rounds": 3},
        "seats": [{"label": b, "name": b, "host": "inline"} for b in BOTS]})


class Counts:
    def __init__(self) -> None:
        self.decisions = 0
        self.table0 = 0
        self.received = 0
        self.api: list[float] = []


async def table(number: int, counts: Counts, publish: Callable[[str, Any], None] | None
                ) -> None:
    played = 0
    while True:
        match = spec(number, played)
        topic = f"match:b{number}"

        def watch(event: Any, topic: str = topic) -> None:
            if event.get("type") == "move":
                counts.decisions += 1
                if number == 0:
                    counts.table0 += 1
            if publish is not None:
                publish(topic, event)

        await play_match(match, hosts=[Awaited(b, {}) for b in BOTS], watch=watch)
        played += 1


async def spectator(url: str, topic: str, counts: Counts) -> None:
    async with httpx.AsyncClient() as client, \
            aconnect_ws(url.replace("http", "ws") + "/ws", client) as ws:
        await ws.send_text(json.dumps({"subscribe": topic}))
        while True:
            await ws.receive_text()
            counts.received += 1


async def api_client(url: str, counts: Counts) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        while True:
            t0 = time.perf_counter()
            (await client.get("/api/matches")).raise_for_status()
            counts.api.append(time.perf_counter() - t0)
            await trio.sleep(0.05)


async def measure(n: int, seconds: float, url: str | None, hub: Hub | None) -> Counts:
    counts = Counts()
    async with trio.open_nursery() as nursery:
        if url is not None:
            for t in range(min(n, 32)):
                nursery.start_soon(spectator, url, f"match:b{t}", counts)
            nursery.start_soon(spectator, url, "standings", counts)
            nursery.start_soon(api_client, url, counts)
            await trio.sleep(0.5)  # the sockets connect
        for t in range(n):
            nursery.start_soon(table, t, counts, hub.publish if hub is not None else None)
        start = (counts.decisions, counts.table0, counts.received)
        await trio.sleep(seconds)
        nursery.cancel_scope.cancel()
    counts.decisions -= start[0]
    counts.table0 -= start[1]
    counts.received -= start[2]
    return counts


async def page_load(url: str, loads: int) -> tuple[float, float, int]:
    paths = ["/", "/static/common.js", "/static/live.js", "/static/live.css", "/api/standings",
             "/api/matches", "/report/", "/report/report.js", "/report/report.css",
             "/report/data/summary.js", "/report/data/matches.js"]
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        for _ in range(100):  # the report's first build
            if "report.js" in (await client.get("/report/")).text:
                break
            await trio.sleep(0.2)
        pages, floors = [], []
        size = 0
        for _ in range(loads):
            t0 = time.perf_counter()
            size = 0
            for path in paths:
                answer = await client.get(path)
                answer.raise_for_status()
                size += len(answer.content)
            pages.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for _ in paths:
                (await client.get("/static/live.css")).raise_for_status()
            floors.append(time.perf_counter() - t0)
    return statistics.median(pages), statistics.median(floors), size


async def main(args: argparse.Namespace, out: Path) -> None:
    hub = Hub()
    app = create_app(out, hub)
    sizes = [int(n) for n in args.tables.split(",")]
    async with trio.open_nursery() as nursery:
        url = await nursery.start(serve_app, app, "127.0.0.1", 0)
        page, floor, size = await page_load(url, args.loads)
        print(f"page load (every resource of /, {size / 1024:.0f} KiB): median "
              f"{page * 1000:.1f} ms; floor (as many fetches of live.css) {floor * 1000:.1f} ms")
        print(f"{'tables':>6} {'decisions/s':>12} {'floor':>10} {'one table':>10} "
              f"{'events/s heard':>15} {'api median ms':>14} {'load':>6}")
        for n in sizes:
            bare = await measure(n, args.seconds, None, None)
            served = await measure(n, args.seconds, url, hub)
            api = statistics.median(served.api) * 1000 if served.api else float("nan")
            print(f"{n:>6} {served.decisions / args.seconds:>12.0f} "
                  f"{bare.decisions / args.seconds:>10.0f} "
                  f"{served.table0 / args.seconds:>10.1f} "
                  f"{served.received / args.seconds:>15.0f} {api:>14.1f} "
                  f"{os.getloadavg()[0]:>6.2f}")
        nursery.cancel_scope.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="1,8,32,128")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--loads", type=int, default=5)
    arguments = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        run_tournament(RUN, out=folder, jobs=1)
        trio.run(main, arguments, Path(folder))
