"""Benchmark: how many tables one server holds while it serves spectators, and page load time.

    .venv/bin/python benchmarks/web.py [--tables 1,32,200] [--spectators 200] [--seconds 3]
        [--loads 5]

One trio run holds the server (``arena.web.RunWeb`` on Hypercorn's trio worker, 127.0.0.1)
and N tables: each table plays matches of four inline bots (greedy, lowest, highest, random)
without end, through the trio driver (each decision a checkpoint, as a table with awaited
seats has), its public events handed through the referee's ``watch`` argument to the
server's follower (``Follower.feed``, as a people's table's are: straight to the hub), where
spectator sockets (one per table, up to ``--spectators``, plus one on the standings and one
on the match list) hear them; meanwhile a client asks ``/api/matches`` in a loop and another
loads the run's page (every resource of ``/``: its scripts and style, the API it asks, the
report frame and its files) again and again. For each N it prints the decisions per second
of all tables (and its ratio to the floor: the same N tables in the same run with no server
and no spectator) and of one, the messages the spectators received per second, the median
answer time of the API and the median time the page took to load. Before that, the page's
load time with no table, against fetching one small static file as often.

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
from pathlib import Path
from typing import Any

import httpx
import trio
from httpx_ws import aconnect_ws

from arena.game import View
from arena.referee import InlineHost, MatchSpec, play_match
from arena.tournament import run_tournament
from arena.web import RunWeb

BOTS = ("greedy", "lowest", "highest", "random")
RUN = {"name": "benchweb", "seed": 99, "players": 4, "format": {"type": "round_robin"},
       "duplicate": True, "rules": {"rounds": 2}, "bots": [{"name": b} for b in BOTS]}


class Awaited(InlineHost):
    """An inline bot asked through the trio driver, with a checkpoint per decision."""

    async def play(self, view: View, time_ms: int, deadline: float) -> object:
        await trio.lowlevel.checkpoint()
        return await super().play(view, time_ms, deadline)


def spec(table: int, number: int) -> MatchSpec:
    """A table's matches one after another under the table's one id (its spectator's)."""
    return MatchSpec.from_dict({
        "match_id": f"b{table}", "seed": 1000 * table + number, "rules": {"rounds": 3},
        "seats": [{"label": b, "name": b, "host": "inline"} for b in BOTS]})


class Counts:
    def __init__(self) -> None:
        self.decisions = 0
        self.table0 = 0
        self.received = 0
        self.api: list[float] = []
        self.pages: list[float] = []
        self.connected = 0


async def table(number: int, counts: Counts, web: RunWeb | None) -> None:
    played = 0
    while True:
        match = spec(number, played)
        feed = web.follower.feed(match) if web is not None else None

        def watch(event: Any, feed: Any = feed) -> None:
            if event.get("type") == "move":
                counts.decisions += 1
                if number == 0:
                    counts.table0 += 1
            if feed is not None:
                feed(event)

        try:
            await play_match(match, hosts=[Awaited(b, {}) for b in BOTS], watch=watch)
        finally:
            if feed is not None:
                feed.close()
        played += 1


def client(url: str) -> httpx.AsyncClient:
    """A client of the server (one per role: making one loads the machine's certificates,
    some 60 ms of the event loop the server shares)."""
    return httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(
        max_connections=None, max_keepalive_connections=None))


async def spectator(url: str, topic: str, counts: Counts, shared: httpx.AsyncClient) -> None:
    async with aconnect_ws(url.replace("http", "ws") + "/ws", shared) as ws:
        await ws.send_text(json.dumps({"subscribe": topic}))
        counts.connected += 1
        while True:
            await ws.receive_text()
            counts.received += 1


async def api_client(http: httpx.AsyncClient, counts: Counts) -> None:
    while True:
        t0 = time.perf_counter()
        (await http.get("/api/matches")).raise_for_status()
        counts.api.append(time.perf_counter() - t0)
        await trio.sleep(0.05)


async def page_client(http: httpx.AsyncClient, counts: Counts) -> None:
    while True:
        t0 = time.perf_counter()
        for path in PAGE:
            (await http.get(path)).raise_for_status()
        counts.pages.append(time.perf_counter() - t0)
        await trio.sleep(0.2)


async def measure(n: int, seconds: float, url: str | None, web: RunWeb | None,
                  spectators: int) -> Counts:
    counts = Counts()
    async with trio.open_nursery() as nursery:
        if url is not None:
            shared = client(url)
            topics = [f"match:b{t}" for t in range(min(n, spectators))]
            for topic in [*topics, "standings", "matches"]:
                nursery.start_soon(spectator, url, topic, counts, shared)
            with trio.move_on_after(30):
                while counts.connected < len(topics) + 2:  # the sockets connect
                    await trio.sleep(0.05)
            nursery.start_soon(api_client, shared, counts)
            nursery.start_soon(page_client, shared, counts)
        for t in range(n):
            nursery.start_soon(table, t, counts, web)
        start = (counts.decisions, counts.table0, counts.received)
        await trio.sleep(seconds)
        nursery.cancel_scope.cancel()
    counts.decisions -= start[0]
    counts.table0 -= start[1]
    counts.received -= start[2]
    return counts


PAGE = ["/", "/static/common.js", "/static/live.js", "/static/live.css", "/api/standings",
        "/api/matches", "/report/", "/report/report.js", "/report/report.css",
        "/report/data/summary.js", "/report/data/matches.js"]
"""Every resource of the run's page."""


async def page_load(url: str, loads: int) -> tuple[float, float, int]:
    paths = PAGE
    async with client(url) as http:
        for _ in range(100):  # the report's first build
            if "report.js" in (await http.get("/report/")).text:
                break
            await trio.sleep(0.2)
        pages, floors = [], []
        size = 0
        for _ in range(loads):
            t0 = time.perf_counter()
            size = 0
            for path in paths:
                answer = await http.get(path)
                answer.raise_for_status()
                size += len(answer.content)
            pages.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for _ in paths:
                (await http.get("/static/live.css")).raise_for_status()
            floors.append(time.perf_counter() - t0)
    return statistics.median(pages), statistics.median(floors), size


async def main(args: argparse.Namespace, out: Path) -> None:
    web = RunWeb(out)
    sizes = [int(n) for n in args.tables.split(",")]
    async with trio.open_nursery() as nursery:
        url = await nursery.start(web.serve, "127.0.0.1", 0)
        page, floor, size = await page_load(url, args.loads)
        print(f"page load (every resource of /, {size / 1024:.0f} KiB): median "
              f"{page * 1000:.1f} ms; floor (as many fetches of live.css) {floor * 1000:.1f} ms")
        print(f"{'tables':>6} {'spect.':>6} {'decisions/s':>12} {'floor':>8} {'ratio':>6} "
              f"{'one table':>10} {'msgs/s heard':>13} {'api median ms':>14} "
              f"{'page median ms':>15} {'load':>6}")
        for n in sizes:
            bare = await measure(n, args.seconds, None, None, 0)
            served = await measure(n, args.seconds, url, web, args.spectators)
            api = statistics.median(served.api) * 1000 if served.api else float("nan")
            pages = statistics.median(served.pages) * 1000 if served.pages else float("nan")
            print(f"{n:>6} {min(n, args.spectators):>6} "
                  f"{served.decisions / args.seconds:>12.0f} "
                  f"{bare.decisions / args.seconds:>8.0f} "
                  f"{served.decisions / max(bare.decisions, 1):>6.2f} "
                  f"{served.table0 / args.seconds:>10.1f} "
                  f"{served.received / args.seconds:>13.0f} {api:>14.1f} {pages:>15.0f} "
                  f"{os.getloadavg()[0]:>6.2f}")
        nursery.cancel_scope.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="1,32,200")
    parser.add_argument("--spectators", type=int, default=200,
                        help="spectator sockets, one per table up to this many")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--loads", type=int, default=5)
    arguments = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        run_tournament(RUN, out=folder, jobs=1)
        trio.run(main, arguments, Path(folder))
