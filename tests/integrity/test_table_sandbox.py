"""A people's table's bots are sandboxed as a tournament's are: a bot process of a table
lives in a pid namespace of its own, where the server's process (and the seat tokens in
its memory) cannot be reached, and the server keeps no token to find."""

from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest
import trio

from arena.referee import sandbox_mechanism, sandbox_unavailable_reason
from arena.web import Hub, TableRequest, Tables

pytestmark = pytest.mark.skipif(sandbox_mechanism() is None,
                                reason=sandbox_unavailable_reason() or "")


def _bot_processes() -> list[psutil.Process]:
    """This process's descendants that play a bot (``arena.referee.child``)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if any("arena.referee.child" in part for part in child.cmdline()):
                found.append(child)
        except psutil.Error:
            continue
    return found


def test_a_tables_bot_cannot_reach_the_server(tmp_path: Path) -> None:
    seen: dict[str, object] = {}

    async def main() -> None:
        hub = Hub()
        tables = Tables(tmp_path, hub, base_url="http://127.0.0.1:1")
        assert tables.limits.sandbox  # the machine can: as a tournament's default
        async with trio.open_nursery() as nursery:
            await nursery.start(tables.run)
            links = await tables.open(TableRequest.of(preset="standard", bots=["greedy"],
                                                      people=1, rounds=1))
            seen["links"] = links
            with trio.fail_after(60):
                while not (bots := _bot_processes()):
                    await trio.sleep(0.1)
            bot = bots[-1]
            seen["ns"] = os.readlink(f"/proc/{bot.pid}/ns/pid")
            status = Path(f"/proc/{bot.pid}/status").read_text()
            seen["nspid"] = next(line for line in status.splitlines()
                                 if line.startswith("NSpid:")).split()[1:]
            seen["state"] = repr([vars(t) for t in tables.tables.values()]) + repr(
                [vars(p) for t in tables.tables.values() for p in t.people.values()])
            nursery.cancel_scope.cancel()

    trio.run(main)
    # Its own pid namespace: the server's pid is not there to read (/proc/PPID/mem).
    assert seen["ns"] != os.readlink("/proc/self/ns/pid")
    assert len(seen["nspid"]) >= 2  # type: ignore[arg-type]
    # And what the server keeps of a table holds no token.
    token = str(seen["links"]).partition("?token=")[2][:32]  # type: ignore[index]
    assert len(token) == 32 and token not in str(seen["state"])
