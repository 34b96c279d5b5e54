"""The server's door (``arena.web._guard.Guard``): what it adds to each request.

Calls a trivial ASGI app (it answers 200 with a short body) directly, N requests at a
time, bare and behind the guard, in turns so both see the same load: a GET as a browser
sends it (Host, Origin, Sec-Fetch-Site and a few more headers), and a same-origin POST with
a 1 KiB body (which the guard reads whole before the app, as it bounds it). The floor is the
bare app's time for the same request; the guard's cost is the difference of the medians.

    python benchmarks/web_guard.py [--requests 20000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import trio

from arena.web._guard import Guard, host_names

HOST = b"127.0.0.1:8000"
HEADERS = [(b"host", HOST), (b"origin", b"http://" + HOST), (b"sec-fetch-site", b"same-origin"),
           (b"user-agent", b"Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0"),
           (b"accept", b"application/json"), (b"accept-language", b"nl, en;q=0.5"),
           (b"cookie", b"lang=nl")]


async def app(scope: Any, receive: Any, send: Any) -> None:
    if scope["method"] == "POST":
        await receive()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


async def requests(target: Any, method: str, count: int) -> float:
    """Seconds per request of ``count`` requests to ``target``."""
    body = {"type": "http.request", "body": b"x" * 1024, "more_body": False}
    scope = {"type": "http", "method": method, "path": "/api/tables", "headers": HEADERS}

    async def receive() -> dict[str, Any]:
        return body

    async def send(message: dict[str, Any]) -> None:
        pass

    start = time.perf_counter()
    for _ in range(count):
        await target(scope, receive, send)
    return (time.perf_counter() - start) / count


async def main(count: int, rounds: int) -> None:
    guarded = Guard(app, hosts=host_names("127.0.0.1"))
    print(f"load average {os.getloadavg()[0]:.2f}; {count} requests a round, {rounds} rounds")
    for method in ("GET", "POST"):
        bare, behind = [], []
        for _ in range(rounds):
            bare.append(await requests(app, method, count))
            behind.append(await requests(guarded, method, count))
        floor, cost = statistics.median(bare), statistics.median(behind)
        print(f"{method:4}  bare app {floor * 1e6:6.2f} µs  behind the guard {cost * 1e6:6.2f} µs"
              f"  the guard: {(cost - floor) * 1e6:+.2f} µs a request")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    trio.run(main, options.requests, options.rounds)
