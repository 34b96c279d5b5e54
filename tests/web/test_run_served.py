"""``arena run CONFIG --serve 0``: the run and its server in one process, over httpx."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from httpx_ws import connect_ws

from arena.records import read_records

from .conftest import start_server, stop

pytestmark = pytest.mark.timeout(280)

RUN = """\
name: served
seed: 5151
players: 4
format: {type: round_robin}
duplicate: false  # no sets: every match may be watched in play (tests/web/test_set_rule.py
repeat: 12        # holds a set's matches back until it is complete)
rules: {rounds: 4}
bots:  # mc thinks 10 ms by its clock a decision: a match lasts half a second on any machine
  - {name: mc, label: mc-a, params: {playouts: 1000000, share: 0.5, move_ms: 20}}
  - greedy
  - lowest
  - random
limits: {move_ms: 3000}
"""


def test_the_run_is_served_while_it_runs_and_after(tmp_path: Path) -> None:
    config = tmp_path / "served.yaml"
    config.write_text(RUN)
    out = tmp_path / "out"
    process, url = start_server("run", str(config), "--out", str(out), "--serve", "0",
                                "-j", "2", "-q")
    try:
        assert url.startswith("http://127.0.0.1:")
        seen: set[str] = set()
        counts: list[int] = []
        deadline = time.monotonic() + 200
        with (httpx.Client(base_url=url, timeout=60) as client,  # a page following the
              connect_ws(url.replace("http", "ws") + "/ws", client) as page):  # match list
            page.send_text(json.dumps({"subscribe": "matches"}))
            while time.monotonic() < deadline:
                matches = client.get("/api/matches").json()["matches"]
                seen |= {m["state"] for m in matches}
                counts.append(client.get("/api/standings").json()["matches"])
                if sum(m["state"] == "finished" for m in matches) == 12:
                    break
                time.sleep(0.2)
            assert counts[-1] == 12 and counts[0] < 12  # the standings grew as it ran
            assert "playing" in seen  # a match was seen in play
            assert process.poll() is None  # the run is over, the server goes on
            records = list(read_records(out / "records.jsonl"))
            match = client.get(f"/api/matches/{records[0]['match_id']}").json()
            assert match["record"]["deals"] == records[0]["deals"]
    finally:
        stop(process)


LEAGUE = """\
name: served-league
seed: 6161
players: 4
rules: {preset: standard, rounds: 2}
format: {type: league, tables_per_round: 1, min_sets: 1, resamples: 20, stop: {deals: 48}}
bots:
  - {name: greedy, anchor: true}
  - lowest
  - highest
  - random
  - {name: mc, params: {playouts: 1000000, share: 0.5, move_ms: 20}}
limits: {move_ms: 3000}
"""


def test_a_running_league_is_watched_live(tmp_path: Path) -> None:
    """The league's status (its round, deals, fit) is served as it goes, round by round,
    beside its standings, and stays after the league stops."""
    # mc thinks 10 ms by its clock a move (a playout budget it does not reach, which a fast
    # engine would spend in a millisecond), so the league is not over between two looks
    # however fast the referee is (a league of instant bots once ran its 48 deals between
    # two of them).
    config = tmp_path / "league.yaml"
    config.write_text(LEAGUE)
    out = tmp_path / "out"
    process, url = start_server("run", str(config), "--out", str(out), "--serve", "0", "-q")
    try:
        rounds: list[int] = []
        deadline = time.monotonic() + 200
        with httpx.Client(base_url=url, timeout=60) as client:
            while time.monotonic() < deadline:
                answer = client.get("/api/league")
                if answer.status_code == 200:
                    status = answer.json()
                    if not rounds or status["round"] != rounds[-1]:
                        rounds.append(status["round"])
                    if status["deals"] >= 48:
                        break
                time.sleep(0.1)
            assert len(rounds) >= 3 and rounds == sorted(rounds)  # seen round after round
            records = list(read_records(out / "records.jsonl"))
            assert client.get("/api/standings").json()["matches"] == len(records)
            assert {m["state"] for m in client.get("/api/matches").json()["matches"]} <= {
                "finished", "waiting", "playing", "held"}
    finally:
        stop(process)
