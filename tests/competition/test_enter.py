"""Entrants of a league served with submissions open: ``arena register`` and ``arena
submit`` against ``arena run league.yaml --serve``, and every refusal in one line."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.competition import COMPETITION_DIR, Store

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from tests.web.conftest import start_server, stop

CONFIG = """\
name: open
seed: 3
players: 3
rules: {preset: runs, rounds: 2}
format: {type: league, min_sets: 1, stop: {deals: 12}}
submissions: {open: true, max_bytes: 2000, per_day: 3}
bots: [greedy, random, lowest]
"""

BOT = b"""\
from arena import Bot
from arena.game import Move, View


class Shedder(Bot):
    def play(self, view: View) -> Move:
        plays = [m for m in view.legal_moves() if m.kind != "pass"]
        return max(plays, key=len) if plays else Move.PASS
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("open")
    config = folder / "open.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    out = folder / "out"
    process, url = start_server("run", str(config), "--out", str(out), "--serve", "0", "-j",
                                "1", "-q")
    try:
        yield url, out
    finally:
        stop(process)


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def one_line_error(result: Result) -> str:
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def test_entrants_register_and_submit(served: tuple[str, Path], tmp_path: Path) -> None:
    url, out = served
    alice = arena("register", url, "alice")
    assert alice.exit_code == 0, alice.output
    token = alice.stdout.strip().splitlines()[-1]
    bot = tmp_path / "shedder.py"
    bot.write_bytes(BOT)
    first = arena("submit", url, str(bot), "--token", token, "--label", "shedder")
    assert first.exit_code == 0, first.output
    assert "shedder version 1" in first.output and "received" in first.output
    again = arena("submit", url, str(bot), "--token", token, "--label", "shedder")
    assert "shedder version 2" in again.output
    # kept once by content, in the run folder
    stored = list((out / COMPETITION_DIR / "files").glob("bot_*.py"))
    assert [p.read_bytes() for p in stored] == [BOT]
    own = urllib.request.Request(f"{url}/api/submissions",
                                 headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(own, timeout=30) as answer:
        listed = json.loads(answer.read())
    assert listed["entrant"] == "alice"
    assert [(s["label"], s["version"]) for s in listed["submissions"]] == [
        ("shedder", 1), ("shedder", 2)]
    # nobody else submits a version of alice's label
    bob = arena("register", url, "bob").stdout.strip().splitlines()[-1]
    taken = arena("submit", url, str(bot), "--token", bob, "--label", "shedder")
    assert "belongs to another entrant" in one_line_error(taken)
    store = Store(out / COMPETITION_DIR)
    assert [s.entrant for s in store.submissions()] == ["alice", "alice"]


@pytest.mark.parametrize(("content", "expected"), [
    (b"x" * 3000, "over 2000 bytes"),
    (b"def f(:\n", "not Python: line 1"),
    (b"\xff\xfe bot", "not UTF-8"),
    (b"class Shedder:\n    pass\n", "defines no bot"),
])
def test_a_bad_file_is_refused_in_one_line(served: tuple[str, Path], tmp_path: Path,
                                           content: bytes, expected: str) -> None:
    url, _ = served
    token = arena("register", url, f"e{len(content)}").stdout.strip().splitlines()[-1]
    path = tmp_path / "bad.py"
    path.write_bytes(content)
    assert expected in one_line_error(arena("submit", url, str(path), "--token", token))


def test_refusals_name_what_is_wrong(served: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = served
    assert "the name" in one_line_error(arena("register", url, "<script>x</script>"))
    assert "taken" in one_line_error(arena("register", url, "greedy"))  # the organiser's
    bot = tmp_path / "b.py"
    bot.write_bytes(BOT)
    assert "unknown token" in one_line_error(arena("submit", url, str(bot), "--token", "1.x"))
    assert "not the address" in one_line_error(arena("register", "ftp://x", "carol"))
    assert "cannot reach" in one_line_error(arena("register", "http://127.0.0.1:9", "carol"))


def test_only_a_league_takes_submissions(tmp_path: Path) -> None:
    path = tmp_path / "rr.yaml"
    path.write_text(CONFIG.replace("{type: league, min_sets: 1, stop: {deals: 12}}",
                                   "{type: round_robin}"), encoding="utf-8")
    result = arena("validate", str(path))
    assert result.exit_code == 2
    assert "submissions: only a league" in result.output
    path.write_text(CONFIG.replace("per_day: 3", "per_day: 0"), encoding="utf-8")
    assert "submissions.per_day" in arena("validate", str(path)).output
    path.write_text(CONFIG, encoding="utf-8")
    ok = arena("validate", str(path))
    assert ok.exit_code == 0
    assert "submissions open (python-file, at most 2000 bytes, 3 a day per entrant)" in ok.output
