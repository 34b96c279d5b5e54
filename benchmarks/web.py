"""Benchmark: how many tables one server holds while it serves spectators, and page load time.

    .venv/bin/python benchmarks/web.py [--tables 1,32,200] [--spectators 200] [--seconds 3]
        [--runs 3]
        [--loads 5]

One trio run holds the server (``arena.web.RunWeb`` on Hypercorn's trio worker, 127.0.0.1)
and N tables: each table plays matches of four inline bots (greedy, lowest, highest, random)
without end, through the trio driver (each decision a checkpoint after the server's work,
``arena.web._priority.after_server``, as a people's table's stand-in waits), its public
events handed through the referee's ``watch`` argument to the server's follower
(``Follower.feed``, as a people's table's are: straight to the hub), where spectator
sockets (``--spectators`` of them, one per table, table after table; then again from the
first table for more than N; plus one on the standings and one on the match list)
hear them; meanwhile a client asks ``/api/matches`` every 0.1 s and another loads the run's
page (every resource of ``/``: its scripts and style, the API it asks, the report frame and
its files) every 0.5 s (at once when the last took longer). For each N it prints the
decisions per second of all tables (and its ratio to the floor: the same N tables in the same
run with no server and no spectator; medians of ``--runs``, in turn; and the ratio of their
decisions per second of the process's CPU time, which the machine's load moves less) and of
one, the messages the spectators
received per second, the median answer time of the API and the median time the page took
to load (``/``, then its resources six at a time, as a browser fetches them). Before that,
the page's load time with no table, against fetching one small static file as often.

The spectators, the API's client and the page's loader run in a process of their own, as
browsers do (on a machine of 2 cores shared with other work it takes its share of the same
cores). The load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import trio
from httpx_ws import aconnect_ws

from arena.game import View
from arena.referee import Deadline, InlineHost, MatchSpec, play_match
from arena.tournament import run_tournament
from arena.web import RunWeb
from arena.web._priority import after_server

BOTS = ("greedy", "lowest", "highest", "random")
RUN = {"name": "benchweb", "seed": 99, "players": 4, "format": {"type": "round_robin"},
       "duplicate": True, "rules": {"rounds": 2}, "bots": [{"name": b} for b in BOTS]}


class Awaited(InlineHost):
    """An inline bot asked through the trio driver, with a checkpoint per decision: after
    the server's work, as a people's table's instant seats wait (``after_server``)."""

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        await after_server()
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
        self.cpu = 0.0


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


API_S = 0.1
"""How often the API's client asks ``/api/matches`` (start to start; at once when the last
answer took longer)."""
PAGE_S = 0.5
"""How often the page's loader loads the run's page, the same way: the browsers ask as often
however fast the server answers, so the served tables' share is measured under the same
work."""


async def api_client(http: httpx.AsyncClient, counts: Counts) -> None:
    while True:
        t0 = time.perf_counter()
        (await http.get("/api/matches")).raise_for_status()
        counts.api.append(time.perf_counter() - t0)
        await trio.sleep(max(0.0, API_S - (time.perf_counter() - t0)))


async def page_client(http: httpx.AsyncClient, counts: Counts) -> None:
    """Loads the run's page as a browser does: ``/``, then its resources six at a time."""

    async def fetch(paths: list[str]) -> None:
        for path in paths:
            (await http.get(path)).raise_for_status()

    while True:
        t0 = time.perf_counter()
        await fetch(PAGE[:1])
        async with trio.open_nursery() as nursery:
            for lane in range(6):
                nursery.start_soon(fetch, PAGE[1 + lane::6])
        counts.pages.append(time.perf_counter() - t0)
        await trio.sleep(max(0.0, PAGE_S - (time.perf_counter() - t0)))


async def clients(url: str, n: int, spectators: int, seconds: float) -> None:
    """The browsers' side, in a process of its own (``--client``): the spectators' sockets,
    the API's client and the page's loader; "ready" once the sockets are open, then on "go"
    ``seconds`` of them, then what they measured as one JSON line."""
    counts = Counts()
    async with client(url) as shared, trio.open_nursery() as nursery:
        topics = [f"match:b{t % n}" for t in range(spectators)]
        for topic in [*topics, "standings", "matches"]:
            nursery.start_soon(spectator, url, topic, counts, shared)
        with trio.move_on_after(60):
            while counts.connected < len(topics) + 2:
                await trio.sleep(0.05)
        print("ready", flush=True)
        await trio.to_thread.run_sync(sys.stdin.readline)
        counts.received = 0
        nursery.start_soon(api_client, shared, counts)
        nursery.start_soon(page_client, shared, counts)
        await trio.sleep(seconds)
        print(json.dumps({"received": counts.received, "api": counts.api,
                          "pages": counts.pages}), flush=True)
        nursery.cancel_scope.cancel()


async def measure(n: int, seconds: float, url: str | None, web: RunWeb | None,
                  spectators: int) -> Counts:
    """The tables' decisions in ``seconds``; served, with the browsers' side measuring in
    a process of its own meanwhile."""
    counts = Counts()
    async with trio.open_nursery() as nursery:
        process = None
        if url is not None:
            process = await trio.lowlevel.open_process(
                [sys.executable, __file__, "--client", url, "--tables", str(n),
                 "--spectators", str(spectators), "--seconds", str(seconds)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert process.stdout is not None and process.stdin is not None
            lines = _lines(process.stdout)
            assert await lines.__anext__() == "ready"
        for t in range(n):
            nursery.start_soon(table, t, counts, web)
        await trio.sleep(0.2)  # the tables start
        if process is not None:
            assert process.stdin is not None
            await process.stdin.send_all(b"go\n")
        start = (counts.decisions, counts.table0)
        cpu = time.process_time()
        await trio.sleep(seconds)
        counts.cpu = time.process_time() - cpu
        counts.decisions -= start[0]
        counts.table0 -= start[1]
        if process is not None:
            heard = json.loads(await lines.__anext__())
            counts.received, counts.api, counts.pages = (heard["received"], heard["api"],
                                                         heard["pages"])
            await process.wait()
        nursery.cancel_scope.cancel()
    return counts


def _median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000 if times else float("nan")


async def _lines(stream: trio.abc.ReceiveStream) -> AsyncIterator[str]:
    buffer = b""
    async for chunk in stream:
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line.decode().strip()


PAGE = ["/", "/static/live.css", "/static/i18n.css", "/static/i18n.js", "/static/common.js",
        "/static/live.js", "/api/messages?lang=en", "/api/standings", "/api/matches?last=400",
        "/report/", "/report/report.css", "/report/i18n.css", "/report/data/summary.js",
        "/report/data/matches.js", "/report/data/messages.js", "/report/i18n.js",
        "/report/report.js"]
"""Every resource of the run's page (live.html, its scripts' requests, the report's frame)."""


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
              f"{'cpu ratio':>9} "
              f"{'one table':>10} {'msgs/s heard':>13} {'api median ms':>14} "
              f"{'page median ms':>15} {'load':>6}")
        for n in sizes:
            bares, serveds = [], []
            for _ in range(args.runs):  # in turn, so the machine's load falls on both alike
                bares.append(await measure(n, args.seconds, None, None, 0))
                serveds.append(await measure(n, args.seconds, url, web, args.spectators))
            bare = statistics.median(c.decisions for c in bares) / args.seconds
            served = statistics.median(c.decisions for c in serveds) / args.seconds
            one = statistics.median(c.table0 for c in serveds) / args.seconds
            per_cpu = (statistics.median(c.decisions / max(c.cpu, 1e-9) for c in serveds)
                       / max(statistics.median(c.decisions / max(c.cpu, 1e-9) for c in bares),
                             1))
            heard = statistics.median(c.received for c in serveds) / args.seconds
            api = _median_ms([t for c in serveds for t in c.api])
            pages = _median_ms([t for c in serveds for t in c.pages])
            print(f"{n:>6} {args.spectators:>6} {served:>12.0f} {bare:>8.0f} "
                  f"{served / max(bare, 1):>6.2f} {per_cpu:>9.2f} {one:>10.1f} {heard:>13.0f} "
                  f"{api:>14.1f} {pages:>15.0f} {os.getloadavg()[0]:>6.2f}")
        nursery.cancel_scope.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="1,32,200")
    parser.add_argument("--spectators", type=int, default=200,
                        help="spectator sockets, one per table in turn")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3,
                        help="measurements of each, bare and served in turn (medians)")
    parser.add_argument("--client", help=argparse.SUPPRESS)  # the browsers' side
    arguments = parser.parse_args()
    if arguments.client:
        trio.run(clients, arguments.client, int(arguments.tables), arguments.spectators,
                 arguments.seconds)
        raise SystemExit
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        run_tournament(RUN, out=folder, jobs=1)
        trio.run(main, arguments, Path(folder))
