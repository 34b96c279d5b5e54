"""Entrants of a league served with submissions open: ``arena register`` and ``arena
submit`` against ``arena run league.yaml --serve``, and every refusal in one line."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.competition import COMPETITION_DIR, CompetitionError, Store, entry_folder

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from tests.web.conftest import start_server, stop

CONFIG = """\
name: open
seed: 3
players: 3
rules: {preset: runs, rounds: 2}
format: {type: league, min_sets: 1, stop: {deals: 12}}
submissions: {open: true, max_bytes: 2000, per_day: 3, kinds: [python-file]}
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


def serve_league(tmp_path_factory: pytest.TempPathFactory, name: str, config: str
                 ) -> Iterator[tuple[str, Path]]:
    """``arena run NAME.yaml --serve`` of the league ``config`` in a folder of its own: its
    URL and its output folder, until the fixture ends."""
    folder = tmp_path_factory.mktemp(name)
    path = folder / f"{name}.yaml"
    path.write_text(config, encoding="utf-8")
    out = folder / "out"
    process, url = start_server("run", str(path), "--out", str(out), "--serve", "0", "-j",
                                "1", "-q")
    try:
        yield url, out
    finally:
        stop(process)
        forget_entries(out)


def forget_entries(out: Path) -> None:
    """Remove the entries' folders of the run in ``out`` (under /tmp, outside the test's
    own folder: a run's entries outlive it by design, a test's need not)."""
    shutil.rmtree(entry_folder(out, "-").parent, ignore_errors=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from serve_league(tmp_path_factory, "open", CONFIG)


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
    assert [p.read_bytes() for p in stored].count(BOT) == 1
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
    assert "organiser's entry" in one_line_error(arena("register", url, "greedy"))
    bot = tmp_path / "b.py"
    bot.write_bytes(BOT)
    assert "unknown token" in one_line_error(arena("submit", url, str(bot), "--token", "1.x"))
    assert "not the address" in one_line_error(arena("register", "ftp://x", "carol"))
    assert "cannot reach" in one_line_error(arena("register", "http://127.0.0.1:9", "carol"))


@pytest.mark.parametrize(("name", "reason"), [
    ("lowest", "the name 'lowest' is an organiser's entry of this league: choose another"),
    ("mc", "the name 'mc' is a built-in bot's (arena bots): choose another"),
    ("expert", "the name 'expert' is a built-in bot's (arena bots): choose another"),
    ("person", "the name 'person' is a person's seat at the tables: choose another")])
def test_no_entrant_takes_a_bots_or_a_persons_name(served: tuple[str, Path], tmp_path: Path,
                                                   name: str, reason: str) -> None:
    url, _ = served
    refused = one_line_error(arena("register", url, name))
    assert refused == f"Error: the server refused (409): {reason}"
    answer = arena("register", url, f"x{name}")
    assert answer.exit_code == 0, answer.output
    token = answer.stdout.strip().splitlines()[-1]
    bot = tmp_path / "b.py"
    bot.write_bytes(BOT)
    refused = one_line_error(arena("submit", url, str(bot), "--token", token, "--label", name))
    assert refused == f"Error: the server refused (403): {reason.replace('name', 'label', 1)}"
    listed = urllib.request.Request(f"{url}/api/submissions",
                                    headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(listed, timeout=30) as got:
        assert json.loads(got.read())["submissions"] == []


def test_refused_bodies_count_toward_a_bound_of_their_own(served: tuple[str, Path],
                                                         tmp_path: Path) -> None:
    import httpx

    url, out = served
    token = arena("register", url, "flood").stdout.strip().splitlines()[-1]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(4 * 3):  # per_day: 3, so 12 bodies a day, kept or refused
        answer = httpx.post(f"{url}/api/submissions?label=flood", content=b"def f(:\n",
                            headers=auth, timeout=30)
        assert answer.status_code == 400, answer.text
    bot = tmp_path / "b.py"
    bot.write_bytes(BOT)
    refused = one_line_error(arena("submit", url, str(bot), "--token", token))
    assert refused == ("Error: the server refused (429): flood has sent 12 submissions, kept or "
                       "refused, in the last 24 hours, the most this competition reads")
    assert [s for s in Store(out / COMPETITION_DIR).submissions() if s.entrant == "flood"] == []


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
    path.write_text(CONFIG.replace("per_day: 3", "per_day: 3, tables: true"), encoding="utf-8")
    assert ("3 a day per entrant; people may open tables against them)"
            in arena("validate", str(path)).output)


CRASHER = b"""\\
from arena import Bot
import no_such_module_anywhere


class Crasher(Bot):
    def play(self, view):
        return "pass"
"""

def _states(url: str, token: str, count: int) -> list[dict[str, object]]:
    """The entrant's submissions once ``count`` of them are no longer waiting."""
    request = urllib.request.Request(f"{url}/api/submissions",
                                     headers={"Authorization": f"Bearer {token}"})
    deadline = time.monotonic() + 240
    while True:
        with urllib.request.urlopen(request, timeout=30) as answer:
            made = json.loads(answer.read())["submissions"]
        if sum(s["state"] in ("tried", "failed", "entered") for s in made) >= count:
            return list(made)
        assert time.monotonic() < deadline, made
        time.sleep(0.5)


def test_a_submission_is_tried_in_the_sandbox(served: tuple[str, Path], tmp_path: Path) -> None:
    from arena.referee import sandbox_unavailable_reason

    reason = sandbox_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    url, _ = served
    token = arena("register", url, "trier").stdout.strip().splitlines()[-1]
    for name, content in (("good", BOT), ("crash", CRASHER)):
        path = tmp_path / f"{name}.py"
        path.write_bytes(content)
        result = arena("submit", url, str(path), "--token", token, "--label", f"t-{name}")
        assert result.exit_code == 0, result.output
    made = {s["label"]: s for s in _states(url, token, 2)}
    assert made["t-good"]["state"] == "entered", made["t-good"]  # tried, then entered
    assert str(made["t-good"]["detail"]).startswith("played ")
    assert made["t-crash"]["state"] == "failed"
    assert "no_such_module_anywhere" in str(made["t-crash"]["detail"])
    # anyone reads the step that failed, not the bot's error
    with urllib.request.urlopen(f"{url}/api/entrants/trier", timeout=30) as answer:
        page = json.loads(answer.read())
    crashed = next(v for v in page["versions"] if v["label"] == "t-crash")
    assert crashed["detail"] == "made no move in its trial"
    assert "no_such_module_anywhere" not in json.dumps(page)


def test_a_trial_seats_the_submission_sandboxed_with_the_run_folder_private() -> None:
    from arena.competition import Submission, trial_spec
    from arena.referee import MatchSpec

    submission = Submission(7, "alice", "shedder", 2, "python-file", "ab" * 32, 10,
                            "received", "", 0.0)
    spec = trial_spec(submission, ["/usr/bin/python3", "/tmp/e/run.py"], players=3,
                      rules={"preset": "runs"}, private=["/srv/run", "/srv/league.yaml"])
    parsed = MatchSpec.from_dict(spec)
    assert parsed.private == ("/srv/run", "/srv/league.yaml")
    assert spec["limits"] == {"sandbox": True}
    assert [seat["label"] for seat in spec["seats"]] == ["shedder", "greedy", "random"]
    assert spec["seats"][0] == {"label": "shedder", "command": "/usr/bin/python3 /tmp/e/run.py",
                                "host": "command"}


def test_what_a_stopped_run_left_untried_is_tried_on_resume(tmp_path: Path) -> None:
    from arena.competition import (
        Competition,
        Limits,
        TrialQueue,
        check_python_file,
        store_file,
    )
    from arena.referee import sandbox_unavailable_reason

    reason = sandbox_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    folder = tmp_path / COMPETITION_DIR
    store = Store(folder)
    entrant, _ = store.register("late")
    checked = check_python_file(BOT, 10_000)
    store_file(folder, checked, BOT)
    made = store.submit(entrant, "late", kind="python-file", sha256=checked.sha256,
                        size=checked.size, per_day=5)
    store.set_state(made.id, "trying", "")  # as a kill -9 mid-trial leaves it
    trials = TrialQueue(folder, players=3, rules={"preset": "runs", "rounds": 1},
                        private=[str(tmp_path)])
    Competition(tmp_path, Limits(), trials)  # the server starting again
    deadline = time.monotonic() + 240
    while store.submission(made.id).state not in ("entered", "failed"):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert store.submission(made.id).state == "entered", store.submission(made.id)
    entries = json.loads((tmp_path / "entries.json").read_text(encoding="utf-8"))
    assert [(e["label"], e["version"]) for e in entries] == [("late", 1)]


def test_a_run_without_the_sandbox_takes_no_submissions(tmp_path: Path) -> None:
    path = tmp_path / "open.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    result = arena("run", str(path), "--out", str(tmp_path / "out"), "--serve", "0",
                   "--no-sandbox", "-q")
    assert "entrants' bots run only in the sandbox" in one_line_error(result)


def test_an_entries_folder_planted_by_another_is_refused(tmp_path: Path) -> None:
    from arena.competition import check_python_file, store_file
    from arena.competition._entries import entry_folder, write_entries

    folder = tmp_path / COMPETITION_DIR
    store = Store(folder)
    entrant, _ = store.register("zed")
    checked = check_python_file(BOT, 10_000)
    store_file(folder, checked, BOT)
    made = store.submit(entrant, "zed", kind="python-file", sha256=checked.sha256,
                        size=checked.size, per_day=5)
    store.set_state(made.id, "tried", "")
    planted = entry_folder(tmp_path, checked.sha256).parent
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    planted.symlink_to(elsewhere)
    try:
        with pytest.raises(CompetitionError, match="not a folder of this user's"):
            write_entries(tmp_path, folder, store)
        assert list(elsewhere.iterdir()) == []
    finally:
        planted.unlink()


NETWORKER = b"""\\
import socket
from arena import Bot

socket.create_connection(("SERVER_HOST", SERVER_PORT), timeout=5).close()


class Caller(Bot):
    def play(self, view):
        return "pass"
"""


def test_a_bot_that_calls_out_is_contained(served: tuple[str, Path], tmp_path: Path) -> None:
    from arena.referee import sandbox_unavailable_reason

    reason = sandbox_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    url, _ = served
    host, port = url.removeprefix("http://").split(":")
    token = arena("register", url, "caller").stdout.strip().splitlines()[-1]
    path = tmp_path / "caller.py"
    path.write_bytes(NETWORKER.replace(b"SERVER_HOST", host.encode())
                     .replace(b"SERVER_PORT", port.encode()))
    assert arena("submit", url, str(path), "--token", token).exit_code == 0
    (made,) = _states(url, token, 1)
    assert made["state"] == "failed", made  # the server it tried to reach was not there
    assert "Errno" in str(made["detail"]) and "create_connection" in str(made["detail"]), made
