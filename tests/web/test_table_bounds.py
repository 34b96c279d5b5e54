"""What a browser may open at a server's tables: only the bots the organiser offers, at most
100 deals, 4 tables playing per client; a table nobody is at for the absence limit ends, and
so does one past its time."""

from __future__ import annotations

import functools
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
import trio.testing

from arena.web import Hub, TableBounds, TableError, TableRequest, Tables
from arena.web._table_bounds import DEFAULT_BOTS, forget_finished, watch_presence
from tests.web.conftest import start_server, stop


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``arena serve --table`` offering greedy and random, a seat left 1 s ends a table (no
    stand-in: with one, the stand-in plays an empty table out, within the deals' bound)."""
    out = tmp_path_factory.mktemp("bounded")
    process, url = start_server("serve", str(out), "--port", "0", "--table",
                                "--table-bots", "random,greedy", "--absence-s", "1",
                                "--stand-in", "none")
    try:
        yield url
    finally:
        stop(process)


def _post(url: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{url}/api/tables", json={"preset": "standard", **body}, timeout=60)


def test_only_the_offered_bots_are_listed_and_seated(server: str) -> None:
    assert httpx.get(f"{server}/api/tables/options", timeout=60).json()["bots"] == [
        "random", "greedy"]
    answer = _post(server, seats=["person", "mc"], rounds=1)
    assert answer.status_code == 400 and "'mc' is not offered" in answer.json()["error"]
    assert "random, greedy" in answer.json()["error"]


def test_the_built_ins_are_offered_by_default_the_slowest_last() -> None:
    assert DEFAULT_BOTS[0] == "greedy" and DEFAULT_BOTS[-1] == "expert"
    from arena.plugins import registry

    assert set(DEFAULT_BOTS) == {e.name for e in registry() if e.plugin == "builtin"}


def test_an_unknown_offered_bot_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run([str(Path(sys.executable).parent / "arena"), "serve", str(tmp_path),
                           "--table", "--table-bots", "greedy,nosuchbot"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--table-bots" in done.stderr
    assert "nosuchbot" in done.stderr and "Traceback" not in done.stderr


def test_rounds_are_bounded(server: str) -> None:
    answer = _post(server, seats=["person", "greedy"], rounds=101)
    assert answer.status_code == 400 and "at most 100 deals" in answer.json()["error"]


def test_tables_nobody_is_at_end(server: str) -> None:
    opened = [_post(server, seats=["person", "greedy"], rounds=100) for _ in range(2)]
    assert all(answer.status_code == 200 for answer in opened)
    # Nobody opened a link: after the absence limit (1 s) every table ends, unrecorded, once
    # its bot's start (seconds in a sandbox under load) and close are done; the deadline
    # bounds a hang. (httpx waits 5 s for an answer by default: a loaded server may take
    # longer.)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        tables = httpx.get(f"{server}/api/tables", timeout=60).json()
        if {t["status"] for t in tables} == {"ended"}:
            break
        time.sleep(0.25)
    assert {t["status"] for t in tables} == {"ended"}, tables


def test_a_client_has_at_most_four_tables_playing(tmp_path: Path) -> None:
    async def main() -> None:
        tables = Tables(tmp_path, Hub(), base_url="", absence_s=600)
        two = TableRequest.of(preset="standard", bots=[], people=2)
        async with trio.open_nursery() as nursery:
            await nursery.start(tables.run)
            for _ in range(4):
                await tables.open(two, client="192.0.2.1")
            with pytest.raises(TableError, match="you have 4 tables playing"):
                await tables.open(two, client="192.0.2.1")
            await tables.open(two, client="192.0.2.2")  # another client may
            await tables.open(two)  # and so may the organiser
            nursery.cancel_scope.cancel()

    trio.run(main)


def test_a_table_ends_past_its_time(tmp_path: Path) -> None:
    async def main() -> str:
        tables = Tables(tmp_path, Hub(), base_url="", absence_s=600,
                        bounds=TableBounds(seconds=0.5))
        async with trio.open_nursery() as nursery:
            await nursery.start(tables.run)
            # Two people who never answer: only the table's time ends it.
            await tables.open(TableRequest.of(preset="standard", bots=[], people=2))
            table = next(iter(tables.tables.values()))
            with trio.fail_after(10):
                while table.status == "playing":
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
        return table.status

    assert trio.run(main) == "ended"
    assert not (tmp_path / "tables" / "records.jsonl").exists()


def test_the_organisers_table_waits_for_its_people_then_ends_without_them() -> None:
    """The table of ``arena serve --people`` counts nobody's absence until a person came
    (its links may take a while to reach them); a browser's counts from its start."""
    async def ends_at(from_start: bool) -> float:
        """When the watch ends a table whose one person comes at 60 s and leaves at 63 s."""
        here = [False]
        ended: list[str] = []
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(functools.partial(
                    watch_presence, lambda: here[0], 5.0, scope, ended, from_start=from_start))
                await trio.sleep(60)
                here[0] = True
                await trio.sleep(3)
                here[0] = False
                await trio.sleep_forever()
        assert scope.cancelled_caught and "5 s" in ended[0]
        return trio.current_time()

    async def main() -> None:
        start = trio.current_time()
        assert await ends_at(True) - start <= 6  # nobody came: 5 s
        start = trio.current_time()
        assert 67 <= await ends_at(False) - start <= 69  # 5 s after the person left (63 s)

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_a_server_remembers_a_bounded_number_of_finished_tables() -> None:
    tables = {f"t{i}": ("over" if i % 2 else "playing") for i in range(10)}
    forget_finished(tables, lambda status: status != "playing", keep=2)
    # every table in play stays; of the five finished, the two opened last
    assert list(tables) == ["t0", "t2", "t4", "t6", "t7", "t8", "t9"]
