"""Hostile entrants under the sandbox: each attempt is contained or refused, nothing survives,
and the other seats' records are those of a match against a plain entrant."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from arena.records import read_records
from arena.referee import sandbox_mechanism, sandbox_unavailable_reason
from arena.tournament import run_tournament

HERE = Path(__file__).parent
MECHANISM = sandbox_mechanism()
NO_SANDBOX = sandbox_unavailable_reason() or ""
"""Why the sandbox tests are skipped here, if they are."""
pytestmark = pytest.mark.skipif(MECHANISM is None, reason=NO_SANDBOX)


def _folder() -> Iterator[Path]:
    """A folder of the test's in the working directory, or in /var/tmp where that lies
    under /tmp (a checkout there): the sandbox replaces /tmp with a private one."""
    where = Path(os.getcwd())
    if where == Path("/tmp") or Path("/tmp") in where.parents:
        where = Path("/var/tmp")
    folder = where / f".arena-hostile-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def home() -> Iterator[Path]:
    """A folder outside /tmp (which the sandbox replaces anyway) for the run's files."""
    yield from _folder()


def marked(marker: str) -> list[str]:
    """Command lines of live processes carrying ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    line = file.read().replace(b"\0", b" ").decode(errors="replace")
                with open(f"/proc/{entry}/stat", "rb") as file:
                    state = file.read().rpartition(b")")[2].split()[0]
            except OSError:
                continue
            if marker in line and state not in (b"Z", b"X"):
                found.append(line)
    return found


def entrant(marker: str, mode: str, *args: str) -> str:
    """The command line of a hostile entrant."""
    return " ".join([sys.executable, str(HERE / "hostile_entrant.py"), marker, mode, *args])


def tournament(home: Path, name: str, mode: str, *args: str,
               second: tuple[str, ...] | None = None, sandbox: bool = True,
               **limits: Any) -> tuple[dict[str, Any], str]:
    """One match of the entrant against two built-in bots, sandboxed, in folder ``name``;
    its record and what the entrant's attempt achieved. Every run is the same tournament,
    so the cards are the same. ``second``: the mode and arguments of a second entrant,
    in the place of ``greedy``."""
    marker = f"arena-mark-{uuid.uuid4().hex}"
    config = home / f"{name}.yaml"
    other = ({"label": "second", "command": entrant(marker, *second)} if second
             else {"name": "greedy"})
    config.write_text(yaml.safe_dump({
        "name": "hostile", "seed": 77, "players": 3, "rules": {"rounds": 2},
        # jobs 2: the workers end with the run, and with them the bot processes they keep
        "format": {"type": "round_robin"}, "jobs": 2,
        "bots": [{"label": "entrant", "command": entrant(marker, mode, *args)}, other,
                 {"name": "random"}],
        "limits": {"move_ms": 3000, "start_ms": 20000, "sandbox": sandbox, **limits},
    }))
    result = run_tournament(config, out=home / name)
    assert result.complete and not result.errors
    [record] = list(read_records(Path(result.records)))
    assert record["limits"]["sandbox"] is sandbox
    assert gone(marker), "a process of the entrant survived its match"
    return record, record["seats"][0]["version"]


def gone(marker: str, within: float = 30.0) -> bool:
    """Whether every process carrying ``marker`` has died, waiting up to ``within`` seconds:
    the kernel kills what is left in a pid namespace as its first process ends, which on a
    loaded machine can outlast the match by a moment."""
    until = time.monotonic() + within
    while marked(marker):
        if time.monotonic() > until:
            return False
        time.sleep(0.05)
    return True


def same_play(record: dict[str, Any], reference: dict[str, Any]) -> None:
    keys = ("hands", "exchanges", "movers", "moves", "faults", "finish_order", "points")
    strip = [{k: d[k] for k in keys} for d in record["deals"]]
    want = [{k: d[k] for k in keys} for d in reference["deals"]]
    assert strip == want and record["ranking"] == reference["ranking"]


@pytest.fixture(scope="module")
def reference() -> Iterator[dict[str, Any]]:
    """The match against the plain entrant, played once for the module."""
    for folder in _folder():
        record, version = tournament(folder, "plain", "plain")
        assert version == "plain"
        yield record


def test_a_bot_cannot_read_the_config_or_the_records(home: Path,
                                                    reference: dict[str, Any]) -> None:
    out = home / "reader"
    files = [home / "reader.yaml", out / "records.jsonl", out / "config.yaml"]
    record, version = tournament(home, "reader", "read", *map(str, files))
    # Outside the sandbox all three exist (the records file is open, still empty); inside,
    # none of them is there.
    assert all(path.exists() for path in files)
    assert version == "read:FileNotFoundError,FileNotFoundError,FileNotFoundError"
    same_play(record, reference)


def test_a_bot_cannot_open_a_tcp_connection(home: Path, reference: dict[str, Any]) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        record, version = tournament(home, "caller", "connect", str(server.getsockname()[1]))
    assert version.startswith("connect:") and version != "connect:ok"
    same_play(record, reference)


def test_a_bot_cannot_write_into_the_output_folder(home: Path, reference: dict[str, Any]) -> None:
    out = home / "writer"
    record, version = tournament(home, "writer", "write", str(out))
    assert version.startswith("write:") and version != "write:ok"
    assert not (out / "planted.txt").exists()
    same_play(record, reference)


def test_a_fork_bomb_dies_with_the_bot(home: Path, reference: dict[str, Any]) -> None:
    record, version = tournament(home, "bomber", "forkbomb")
    assert version == "forkbomb:started"
    same_play(record, reference)


def test_a_setsid_escaper_dies_with_the_bot(home: Path, reference: dict[str, Any]) -> None:
    record, version = tournament(home, "escaper", "setsid")
    assert version == "setsid:started"
    same_play(record, reference)


def test_a_bot_sees_only_its_own_processes(home: Path, reference: dict[str, Any]) -> None:
    record, version = tournament(home, "prober", "proc")
    counts = dict(item.split("=") for item in version.removeprefix("proc:").split(","))
    seen, own, keeper = int(counts["n"]), int(counts["own"]), int(counts["keeper"])
    # the entrant and the keeper (the namespace's first process), whose command lines list
    # what the sandbox shows: nothing of the test's or the referee's
    assert 1 <= seen <= 3 and own + keeper == seen and counts["pytest"] == "0", version
    same_play(record, reference)
