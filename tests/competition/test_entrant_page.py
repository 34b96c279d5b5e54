"""An entrant's page, /entrant/NAME, and its API in a running league: what anyone reads (its
versions, strengths, history, matches, faults and flag) and what its token alone reads (its
logs and its bot's own faults with their output), never another entrant's; the page in
Chromium (axe, a phone's width, a label of HTML shown as text)."""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
import queue
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.referee import sandbox_unavailable_reason

from .test_enter import BOT, serve_league

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

REASON = sandbox_unavailable_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=str(REASON))

HOSTILE = '<img src=x onerror="window.PWNED=1">'
CONFIG = f"""\
name: pages
seed: 5
players: 3
rules: {{preset: runs, rounds: 1}}
format: {{type: league, min_sets: 1, resamples: 20, stop: {{deals: 1000000}}}}
submissions: {{open: true, tables: true}}
bots: [greedy, random, {{name: lowest, label: '{HOSTILE}'}}]
"""

SECRET = "BOB-SECRET-7f3a"
FAULTY = f"""\
import sys
import time
from arena import Bot
from arena.game import Move, View


class Faulty(Bot):
    def __init__(self):
        self.turn = 0

    def play(self, view: View) -> Move:
        self.turn += 1
        if self.turn % 3 == 0:
            time.sleep(0.5)  # a match in play long enough for a spectator to see it
            print("{SECRET}-stderr", file=sys.stderr, flush=True)
            raise RuntimeError("{SECRET}")
        plays = [m for m in view.legal_moves() if m.kind != "pass"]
        return plays[0] if plays else Move.PASS
""".encode()


def get(url: str, token: str | None = None) -> tuple[int, Any]:
    """GET ``url`` (with the token as a bearer): the status and the JSON answer."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _enter(url: str, folder: Path, name: str, label: str, code: bytes) -> str:
    runner = CliRunner()
    token = runner.invoke(main, ["register", url, name]).stdout.strip().splitlines()[-1]
    path = folder / f"{label}.py"
    path.write_bytes(code)
    done = runner.invoke(main, ["submit", url, str(path), "--token", token, "--label", label])
    assert done.exit_code == 0, done.output
    return token


def _played(url: str, name: str, matches: int, deadline: float) -> dict[str, Any]:
    """The public document of ``name`` once it has ``matches`` finished matches."""
    while time.monotonic() < deadline:
        status, data = get(f"{url}/api/entrants/{name}")
        assert status == 200, data
        if sum(m["state"] == "finished" for m in data["matches"]) >= matches:
            return dict(data)
        time.sleep(0.5)
    raise AssertionError(f"{name} played fewer than {matches} finished matches: {data}")


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A running league with alice's good bot and bob's faulty one, both played."""
    served = serve_league(tmp_path_factory, "pages", CONFIG)
    url, out = next(served)
    try:
        folder = tmp_path_factory.mktemp("bots")
        tokens = {"url": url, "out": str(out),
                  "alice": _enter(url, folder, "alice", "shedder", BOT),
                  "bob": _enter(url, folder, "bob", "faulty", FAULTY)}
        deadline = time.monotonic() + 300
        _played(url, "bob", 3, deadline)
        _played(url, "alice", 1, deadline)
        yield tokens
    finally:
        served.close()


def test_the_public_document(league: dict[str, str]) -> None:
    url = league["url"]
    status, bob = get(f"{url}/api/entrants/bob")
    assert status == 200 and bob["name"] == "bob" and bob["registered"] is True
    [version] = bob["versions"]
    assert (version["label"], version["version"], version["league_label"]) == ("faulty", 1,
                                                                              "faulty")
    assert version["state"] == "entered" and version["submitted"] > 0
    # its strength is the league board's (the rows of /api/standings)
    _, standings = get(f"{url}/api/standings")
    assert standings["ranking"] == "league"
    assert version["strength"] is not None and version["strength_low"] <= version[
        "strength"] <= version["strength_high"]
    assert "faulty" in {row["label"] for row in standings["standings"]}
    # its strength over the rounds: one point per chosen round, from its first round on
    history = bob["history"]
    assert history["rounds"] == sorted(history["rounds"]) and history["rounds"]
    points = history["entrants"]["faulty"]
    assert len(points) == len(history["rounds"]) and points[-1] is not None
    assert points[-1][1] <= points[-1][0] <= points[-1][2]
    # its matches, latest first, with their links
    finished = [m for m in bob["matches"] if m["state"] == "finished"]
    assert finished and all(m["label"] == "faulty" and m["labels"][m["seat"]] == "faulty"
                            for m in bob["matches"])
    assert finished[0]["link"] == f"/report/#match={finished[0]['id']}&deal=1&move=0"
    # nothing of its bot's own words: not in the detail of its trial, not in its faults
    assert SECRET not in json.dumps(bob)
    assert version["detail"].startswith("played ")


def test_a_bot_that_faults_in_most_matches_is_flagged(league: dict[str, str]) -> None:
    url = league["url"]
    _, bob = get(f"{url}/api/entrants/bob")
    [version] = bob["versions"]
    assert version["faults"]["crash"] >= 3 and version["faulted_matches"] * 2 > version[
        "matches"] >= 3
    assert version["flagged"] is True and bob["flagged"] is True
    _, alice = get(f"{url}/api/entrants/alice")
    assert alice["flagged"] is False and alice["versions"][0]["faulted_matches"] == 0
    # and on the league's leaderboard
    _, standings = get(f"{url}/api/standings")
    rows = {row["label"]: row for row in standings["standings"]}
    assert rows["faulty"]["flagged"] is True and rows["faulty"]["faulted_matches"] >= 3
    assert rows["greedy"]["flagged"] is False and rows["shedder"]["flagged"] is False


def test_the_logs_are_the_entrants_own(league: dict[str, str]) -> None:
    url = league["url"]
    status, mine = get(f"{url}/api/entrants/bob/private", league["bob"])
    assert status == 200, mine
    [version] = mine["logs"]
    trial = {log["name"]: log["text"] for log in version["logs"]}["trial"]
    assert trial.startswith("trial match trial-")
    if " 0 faults" not in version["detail"]:  # its fault in the trial, told in full
        assert SECRET in trial and SECRET in version["detail"]
    assert mine["faults"] and all(f["label"] == "faulty" for f in mine["faults"])
    assert SECRET in mine["faults"][0]["detail"]
    # another entrant's token, no token, a wrong one: refused, and nothing of bob's said
    for token, expected in ((league["alice"], 403), (None, 401), ("1.wrong", 401),
                            (league["bob"] + "x", 401)):
        status, answer = get(f"{url}/api/entrants/bob/private", token)
        assert status == expected and set(answer) == {"error"}, (token, answer)
        assert SECRET not in json.dumps(answer)
    _, hers = get(f"{url}/api/entrants/alice/private", league["alice"])
    assert hers["name"] == "alice" and SECRET not in json.dumps(hers)
    assert [v["label"] for v in hers["logs"]] == ["shedder"]


FAULT = '"type": "fault"'


def _live_events(url: str, seconds: float) -> str:
    """The frames the spectators' sockets send of bob's matches in play (the league plays in
    the server's process: its events go to the hub, not to a file), one match after another
    to its end, until one tells of a fault, or ``seconds`` pass (a bound on a hang: the
    league goes on for ever and bob faults in most of its matches).

    With one worker only a set's last match is ever shown in play (the others are held
    while their set is incomplete), and bob's end in a few moves: rather than hope to see
    one in the list between two polls, a set of bob's seen held or playing has its last
    match followed from before it starts (the league's sets are one match per seat)."""
    import httpx
    from httpx_ws import connect_ws

    seen: list[str] = []
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=url, timeout=30) as client, \
            connect_ws(url.replace("http", "ws") + "/ws", client) as watcher:
        watcher.send_text(json.dumps({"subscribe": "matches"}))  # the run is watched from now
        followed: set[str] = set()
        while time.monotonic() < deadline and FAULT not in "".join(seen):
            with contextlib.suppress(queue.Empty):  # the match list's frames, unread
                while True:
                    watcher.receive_text(timeout=0.01)
            playing = [f"{m['set']}-p{len(m['labels']) - 1}"
                       for state in ("waiting", "held", "playing")
                       for m in client.get("/api/matches", params={"state": state}).json()[
                           "matches"] if "faulty" in m["labels"]]
            fresh = [match_id for match_id in playing if match_id not in followed]
            if not fresh:
                time.sleep(0.1)
                continue
            followed.add(fresh[0])
            seen.extend(_match_frames(client, url, fresh[0], deadline))
    return "".join(seen)


def _match_frames(client: Any, url: str, match_id: str, deadline: float) -> list[str]:
    """The frames of ``match_id`` on a socket of its own (a socket follows at most 8
    topics): its state when subscribed, then its events until it is recorded (or was
    already), a fault is told, or ``deadline``."""
    from httpx_ws import connect_ws

    frames: list[str] = []
    with connect_ws(url.replace("http", "ws") + "/ws", client) as ws:
        ws.send_text(json.dumps({"subscribe": f"match:{match_id}"}))
        until = min(deadline, time.monotonic() + 20)  # a match not begun yet: its start
        while time.monotonic() < until:
            try:
                frames.append(json.dumps(json.loads(ws.receive_text(timeout=1))))
            except queue.Empty:
                continue
            if '"type": "unknown"' in frames[-1]:  # not begun: its events come when it does
                continue
            until = deadline
            if FAULT in frames[-1] or '"type": "recorded"' in frames[-1]:
                break
    return frames


def _replay(data: bytes) -> str:
    """A report's replay file as text: ``ARENA_BATCH(n,"...")``, gzip in base64."""
    found = re.search(rb'"([A-Za-z0-9+/=]+)"', data)
    assert found is not None, data[:100]
    return gzip.decompress(base64.b64decode(found.group(1))).decode()


def _text(path: Path) -> str:
    """A file of the served report as text, a replay file's matches unpacked."""
    data = path.read_bytes()
    return _replay(data) if data.startswith(b"ARENA_BATCH(") else data.decode(errors="replace")


def test_the_bots_own_words_are_in_no_public_answer(league: dict[str, str]) -> None:
    url, out = league["url"], Path(league["out"])
    # the records keep them: the organiser's file
    assert SECRET in (out / "records.jsonl").read_text(encoding="utf-8")
    _, bob = get(f"{url}/api/entrants/bob")
    faulted = [m["id"] for m in bob["matches"] if m["state"] == "finished" and m["faults"]]
    assert faulted
    for match_id in faulted:  # a finished match's record: the referee's words alone
        status, answer = get(f"{url}/api/matches/{match_id}")
        assert status == 200 and SECRET not in json.dumps(answer)
        faults = [f for deal in answer["record"]["deals"] for f in deal["faults"]]
        assert faults and {f["detail"] for f in faults} == {"bot error: RuntimeError"}
    # the served report, built for the server into OUT/web/: no file of it says them
    report = out / "web" / "report"
    deadline = time.monotonic() + 120
    while not any(faulted[0] in _text(p) for p in report.glob("data/replays/*.js")):
        assert time.monotonic() < deadline, "the served report was not built"
        urllib.request.urlopen(f"{url}/report/", timeout=60).close()  # asks for a build
        time.sleep(1)
    served = [_text(p) for p in (out / "web").rglob("*") if p.is_file()]
    assert all(SECRET not in text for text in served)
    assert any("bot error: RuntimeError" in text for text in served)
    for path in report.glob("data/replays/*.js"):  # and as the server answers them
        try:
            with urllib.request.urlopen(f"{url}/report/data/replays/{path.name}",
                                        timeout=60) as answer:
                assert SECRET not in _replay(answer.read())
        except urllib.error.HTTPError as exc:
            assert exc.code == 409  # a replay file whose sets are not complete
    # the live events of the matches in play name a fault's kind, never its detail
    live = _live_events(url, 90)
    assert '"type": "fault"' in live and SECRET not in live


def test_an_organisers_entry_and_an_unknown_name(league: dict[str, str]) -> None:
    url = league["url"]
    status, greedy = get(f"{url}/api/entrants/greedy")
    assert status == 200 and greedy["registered"] is False
    assert [v["league_label"] for v in greedy["versions"]] == ["greedy"]
    assert greedy["versions"][0]["strength"] is not None and greedy["matches"]
    assert get(f"{url}/api/entrants/greedy/private", league["alice"])[0] == 403
    status, hostile = get(f"{url}/api/entrants/{urllib.parse.quote(HOSTILE, safe='')}")
    assert status == 200 and hostile["name"] == HOSTILE
    status, answer = get(f"{url}/api/entrants/nobody")
    assert status == 404 and answer == {"error": "no entrant 'nobody' in this league"}
    # a label names its owner's page
    assert get(f"{url}/api/entrants/faulty")[1]["name"] == "bob"


# ---------------------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Chromium under Playwright, or the test skipped with the reason."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                        "(pip install -e '.[test]')")
    from tests.browser import ARGS, CHROMIUM

    if CHROMIUM is None:
        pytest.skip("no Chromium to drive: apt-get install chromium (as .ci/run does)")
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def _open(chromium: Any, url: str, viewport: dict[str, int] | None = None) -> tuple[Any, list[str]]:
    page = chromium.new_page(viewport=viewport or {"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-loaded='1']")
    return page, errors


def test_the_page_shows_the_entrant_and_its_own_logs_to_its_token(
        chromium: Any, league: dict[str, str]) -> None:
    page, errors = _open(chromium, f"{league['url']}/entrant/bob")
    shots = os.environ.get("ARENA_SCREENSHOTS")
    if shots:  # docs/competition.md's picture
        page.screenshot(path=str(Path(shots) / "web-entrant.png"))
    assert "faults in most of its matches" in page.inner_text("#flag")
    assert page.locator("#versions tr[data-label='faulty']").count() == 1
    assert page.locator("#rating svg polyline").count() == 1  # drawn in the page
    assert page.locator("#matches a.replay-link").count() >= 1
    assert "flagged" in page.inner_text("#faults")
    # another entrant's token reads nothing of bob's
    page.fill("#token", league["alice"])
    page.click("#token-form button")
    page.wait_for_selector("#own .problem")
    assert "not 'bob''s" in page.inner_text("#own")
    assert SECRET not in page.inner_text("body")
    # bob's own token reads its logs and its bot's faults with their output
    page.fill("#token", league["bob"])
    page.click("#token-form button")
    page.wait_for_selector("#own pre.log")
    assert "trial match trial-" in page.inner_text("#own")
    assert SECRET in page.inner_text("#own table.own-faults")
    assert not errors, errors
    page.close()


def test_the_leaderboard_marks_the_flagged_bot(chromium: Any, league: dict[str, str]) -> None:
    page = chromium.new_page()
    page.goto(f"{league['url']}/")
    page.wait_for_selector("table.league tr[data-label='faulty'].flagged")
    assert "faults in most matches" in page.inner_text(
        "table.league tr[data-label='faulty'] td.meta")
    assert page.locator("table.league tr.flagged").count() == 1
    page.close()


def test_a_person_opens_a_table_against_the_entrants_bot(chromium: Any,
                                                         league: dict[str, str]) -> None:
    status, options = get(f"{league['url']}/api/tables/options")
    assert status == 200 and {"greedy", "faulty", "shedder"} <= set(options["bots"])
    page, errors = _open(chromium, f"{league['url']}/entrant/bob")
    page.click("#open-table")
    page.wait_for_url("**/t/*/0**")
    page.wait_for_selector("#seats li")
    assert "faulty" in page.inner_text("#seats")
    deadline = time.monotonic() + 60  # the person plays until the entrant's bot has moved
    while "faulty" not in page.inner_text("#log") and time.monotonic() < deadline:
        button = page.locator("#moves button")
        if button.count():
            button.first.click()
        time.sleep(0.3)
    assert "faulty" in page.inner_text("#log")
    assert not errors, errors
    page.close()


def test_a_label_of_html_is_shown_as_text(chromium: Any, league: dict[str, str]) -> None:
    page, errors = _open(chromium,
                         f"{league['url']}/entrant/{urllib.parse.quote(HOSTILE, safe='')}")
    assert page.inner_text("h1") == f"{HOSTILE}: an entrant of the league"
    assert page.locator(f"#versions tr[data-label='{HOSTILE}']").count() == 1
    assert page.locator("img").count() == 0 and page.evaluate("window.PWNED === undefined")
    assert not errors, errors
    page.close()


def test_the_page_on_a_phone_with_axe(chromium: Any, league: dict[str, str]) -> None:
    pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is not "
                        "installed (pip install -e '.[test]')")
    from axe_playwright_python.sync_playwright import Axe

    for viewport in ({"width": 390, "height": 844}, {"width": 1100, "height": 900}):
        page, _ = _open(chromium, f"{league['url']}/entrant/bob", viewport)
        page.fill("#token", league["bob"])
        page.click("#token-form button")
        page.wait_for_selector("#own pre.log")
        # never wider than the screen: the tables scroll in their own regions
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        violations = Axe().run(page).response["violations"]
        serious = [f"{v['id']} ({v['impact']}): {v['help']} at "
                   f"{[n['target'] for n in v['nodes']][:4]}"
                   for v in violations if v["impact"] in ("serious", "critical")]
        assert not serious, serious
        page.close()
