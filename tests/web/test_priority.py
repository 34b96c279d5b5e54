"""A table's decision that needs no waiting goes after the server's work (after_server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from arena.web._priority import after_server


def _order(wait: Callable[[], Awaitable[None]]) -> list[str]:
    """Two tables deciding three times each, beside a server task busy for five turns."""
    order: list[str] = []

    async def server() -> None:
        for _ in range(5):
            order.append("server")
            await trio.lowlevel.checkpoint()

    async def table(name: str) -> None:
        for _ in range(3):
            await wait()
            order.append(name)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server)
            nursery.start_soon(table, "a")
            nursery.start_soon(table, "b")

    trio.run(main)
    return order


def test_tables_decide_once_the_server_has_nothing_to_do() -> None:
    order = _order(after_server)
    assert order[:5] == ["server"] * 5
    assert sorted(order[5:]) == ["a"] * 3 + ["b"] * 3
    # a plain checkpoint shares every turn with the tables: the server's answer waits
    assert _order(trio.lowlevel.checkpoint)[:5] != ["server"] * 5


def test_a_table_decides_at_once_in_an_idle_run() -> None:
    async def main() -> None:
        with trio.fail_after(1):
            for _ in range(100):
                await after_server()

    trio.run(main)
