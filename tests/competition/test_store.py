"""The competition's store: tokens kept as hashes and checked in constant time, labels owned,
limits kept, names that are not names refused, and the file whole after ``kill -9``."""

from __future__ import annotations

import hashlib
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.competition import DB_NAME, CompetitionError, Store


def _submit(store: Store, token: str, label: str, per_day: int = 5) -> int:
    return store.submit(store.entrant(token), label, kind="python-file", sha256="0" * 64,
                        size=10, per_day=per_day).version


def test_a_token_is_kept_only_as_its_hash(tmp_path: Path) -> None:
    store = Store(tmp_path)
    entrant, token = store.register("alice")
    assert store.entrant(token) == entrant
    raw = (tmp_path / DB_NAME).read_bytes() + (tmp_path / f"{DB_NAME}-wal").read_bytes()
    secret = token.partition(".")[2]
    assert secret.encode() not in raw and token.encode() not in raw
    assert hashlib.sha256(token.encode()).digest() in raw


@pytest.mark.parametrize("given", ["", "1", "1.", "x.abc", "99.abc", "1.wrong", "1." + "a" * 300])
def test_any_other_token_is_refused_alike(tmp_path: Path, given: str) -> None:
    store = Store(tmp_path)
    store.register("alice")
    with pytest.raises(CompetitionError, match=r"^unknown token$") as caught:
        store.entrant(given)
    assert caught.value.status == 401


def test_a_label_belongs_to_the_entrant_that_first_submitted_it(tmp_path: Path) -> None:
    store = Store(tmp_path)
    _, alice = store.register("alice")
    _, bob = store.register("bob")
    assert _submit(store, alice, "shedder") == 1
    assert _submit(store, alice, "shedder") == 2  # alice's next version
    with pytest.raises(CompetitionError, match="belongs to another entrant") as caught:
        _submit(store, bob, "shedder")
    assert caught.value.status == 403
    assert [s.version for s in store.submissions()] == [1, 2]
    with pytest.raises(CompetitionError, match="belongs to another entrant"):
        store.submit(store.entrant(bob), "greedy", kind="python-file", sha256="0" * 64,
                     size=1, per_day=5, taken=frozenset({"greedy"}))


def test_a_flood_of_submissions_stops_at_the_days_limit(tmp_path: Path) -> None:
    store = Store(tmp_path)
    _, token = store.register("alice")
    for _ in range(3):
        _submit(store, token, "a", per_day=3)
    with pytest.raises(CompetitionError, match="3 submissions in the last 24 hours") as caught:
        _submit(store, token, "b", per_day=3)
    assert caught.value.status == 429 and len(store.submissions()) == 3


@pytest.mark.parametrize("name", ["<b>x</b>", "a b", "", "x" * 33, "bot@2", "-x", "é", "a\n"])
def test_a_name_that_is_no_name_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    store = Store(tmp_path)
    with pytest.raises(CompetitionError) as caught:
        store.register(name)
    assert "\n" not in str(caught.value) and "the name" in str(caught.value)
    assert store.names() == []


def test_a_name_is_registered_once(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.register("alice")
    with pytest.raises(CompetitionError, match="taken"):
        store.register("alice")
    with pytest.raises(CompetitionError, match="taken"):
        store.register("greedy", taken=frozenset({"greedy"}))


WRITER = """
import sys
from arena.competition import Store
store = Store(sys.argv[1])
entrant, token = store.register("first")
open(sys.argv[2], "w").write(token)
n = 0
while True:
    n += 1
    store.submit(entrant, f"l{n % 7}", kind="python-file", sha256="0" * 64, size=n,
                 per_day=10**9)
"""


def test_the_store_is_whole_after_kill_9(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    process = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), str(token_file)])
    deadline = time.monotonic() + 60
    while not (tmp_path / DB_NAME).exists() or not token_file.exists() or \
            token_file.stat().st_size == 0:
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    time.sleep(0.5)  # submitting, hundreds a second
    process.send_signal(signal.SIGKILL)
    process.wait()
    check = sqlite3.connect(tmp_path / DB_NAME)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert check.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    check.close()
    store = Store(tmp_path)
    entrant = store.entrant(token_file.read_text())
    made = store.submissions(entrant)
    assert made and [s.size for s in made] == list(range(1, len(made) + 1))
    next_version = _submit(store, token_file.read_text(), "l1", per_day=10**9)
    assert next_version == 1 + max(s.version for s in made if s.label == "l1")


def test_a_submissions_logs_are_its_own_and_bounded(tmp_path: Path) -> None:
    from arena.competition._store import MAX_LOG, write_log

    store = Store(tmp_path)
    alice, _ = store.register("alice")
    first = store.submit(alice, "a", kind="python-file", sha256="0" * 64, size=1, per_day=5)
    second = store.submit(alice, "a", kind="python-file", sha256="1" * 64, size=1, per_day=5)
    write_log(tmp_path, first.id, "trial", "x" * (MAX_LOG + 10) + "END")
    write_log(tmp_path, first.id, "trial-process", "warning\n")
    write_log(tmp_path, second.id, "trial", "second's")
    logs = store.logs(first.id)
    assert [log.name for log in logs] == ["trial", "trial-process"]
    assert len(logs[0].text) == MAX_LOG and logs[0].text.endswith("END")  # its last part
    assert [log.to_dict() for log in store.logs(second.id)] == [
        {"name": "trial", "text": "second's"}]
    assert store.logs(99) == []
    assert store.owner("alice") == store.owner("a") == "alice" and store.owner("b") is None
    store.close()
