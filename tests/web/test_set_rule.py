"""The duplicate-set rule on the web: a set's size comes from the run's format, never a
guess; no match of a set is shown live while another match of it is unplayed or in play."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from httpx_ws import connect_ws

from arena.tournament import run_tournament
from arena.web import LIVE_DIR, RunFolder
from arena.web._follower import Follower
from arena.web._socket import _current

from .conftest import start_server, stop

SPRT = {"name": "ab", "seed": 5, "players": 3, "rules": {"rounds": 1},
        "bots": ["greedy", "lowest", "highest"],
        "format": {"type": "sprt", "challenger": "greedy", "max_sets": 2}}


def _played(tmp_path: Path, config: dict[str, Any]) -> list[str]:
    """The record lines of ``config`` played whole (in a folder of their own)."""
    done = tmp_path / "done"
    run_tournament(config, out=done, jobs=1)
    return (done / "records.jsonl").read_text().splitlines(keepends=True)


def _live(folder: Path, match_id: str, set_id: str | None, labels: list[str]) -> None:
    """A match in play as a worker writes it: its header and one public event."""
    (folder / LIVE_DIR).mkdir(parents=True, exist_ok=True)
    lines = [{"type": "live", "match": match_id, "set": set_id, "round": 0, "labels": labels},
             {"type": "deal_start", "deal": 0}]
    (folder / LIVE_DIR / f"{match_id}.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines))


class Published:
    """A hub that keeps what is published, with a spectator on every topic (the follower
    builds a topic's events only for its subscribers)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.last: dict[str, Any] = {}

    def publish(self, topic: str, event: dict[str, Any]) -> None:
        self.events.append((topic, dict(event)))

    def subscribers(self, topic: str) -> int:
        return 1


def test_an_sprt_set_is_six_matches_and_never_guessed_before_the_config(tmp_path: Path) -> None:
    lines = _played(tmp_path, SPRT)
    assert len(lines) >= 6
    folder = tmp_path / "served"
    folder.mkdir()
    # The run has not written config.yaml yet: three records of a six-match set wait.
    (folder / "records.jsonl").write_text("".join(lines[:3]))
    run = RunFolder(folder)
    run.refresh()
    assert [m["state"] for m in run.match_list()] == ["waiting"] * 3
    # config.yaml written: the format says a set of 3 seats is 6 matches (mirrored orders).
    (folder / "config.yaml").write_text(yaml.safe_dump(SPRT))
    run.refresh()
    assert run.set_size(3) == 6
    assert [m["state"] for m in run.match_list()] == ["waiting"] * 3
    with (folder / "records.jsonl").open("a") as file:
        file.write("".join(lines[3:6]))
    run.refresh()
    assert [m["state"] for m in run.match_list()] == ["finished"] * 6


def test_two_matches_of_a_set_in_play_are_both_held(tmp_path: Path) -> None:
    """--jobs 2: two matches of one set in play at once; neither is shown."""
    folder = tmp_path / "served"
    folder.mkdir()
    (folder / "config.yaml").write_text(yaml.safe_dump(SPRT))
    labels = ["greedy", "lowest", "highest"]
    _live(folder, "ab-s0-r0", "ab-s0", labels)
    _live(folder, "ab-s0-r1", "ab-s0", labels[1:] + labels[:1])
    _live(folder, "other", None, labels)  # a match of no set is shown as ever
    run = RunFolder(folder)
    hub = Published()
    follower = Follower(run, hub, standings=None, report=None)  # type: ignore[arg-type]
    follower.sync()
    states = {m["id"]: m["state"] for m in run.match_list()}
    assert states == {"ab-s0-r0": "held", "ab-s0-r1": "held", "other": "playing"}
    topics = {topic for topic, _ in hub.events}
    assert "match:other" in topics
    assert "match:ab-s0-r0" not in topics and "match:ab-s0-r1" not in topics
    assert _current("match:ab-s0-r0", hub, run) == {"topic": "match:ab-s0-r0",  # type: ignore[arg-type]
                                                     "type": "held"}
    assert all(m["scores"] is None for m in run.match_list() if m["state"] == "held")


def test_only_the_last_match_of_a_set_is_shown_live(tmp_path: Path) -> None:
    """With one worker the set's matches come one after another: each is held while a
    later one is unplayed; the last, its siblings all recorded, is shown."""
    lines = _played(tmp_path, SPRT)
    folder = tmp_path / "served"
    folder.mkdir()
    (folder / "config.yaml").write_text(yaml.safe_dump(SPRT))
    records = [json.loads(line) for line in lines[:6]]
    (folder / "records.jsonl").write_text("".join(lines[:4]))
    fifth, last = records[4], records[5]
    _live(folder, fifth["match_id"], fifth["set"], [s["label"] for s in fifth["seats"]])
    run = RunFolder(folder)
    run.refresh()
    assert run.held(fifth["match_id"])  # the sixth is unplayed
    (folder / LIVE_DIR / f"{fifth['match_id']}.jsonl").unlink()
    with (folder / "records.jsonl").open("a") as file:
        file.write(lines[4])
    _live(folder, last["match_id"], last["set"], [s["label"] for s in last["seats"]])
    hub = Published()
    Follower(run, hub, standings=None, report=None).sync()  # type: ignore[arg-type]
    assert not run.held(last["match_id"])
    assert (f"match:{last['match_id']}", {"type": "deal_start", "deal": 0}) in hub.events
    # its recorded siblings still wait while it plays
    assert {m["state"] for m in run.match_list() if m["id"] != last["match_id"]} == {
        "waiting"}


def test_a_served_run_is_given_its_config(tmp_path: Path) -> None:
    """A run served from its own process hands the app its parsed config: no file read."""
    from arena.tournament import validate_config

    config = validate_config(SPRT, check_bots=False)
    run = RunFolder(tmp_path, config)
    assert run.set_size(3) == 6 and run.set_size(2) == 2
    round_robin = validate_config({**SPRT, "format": {"type": "round_robin"}, "duplicate": True},
                                  check_bots=False)
    assert RunFolder(tmp_path, round_robin).set_size(3) == 3
    plain = validate_config({**SPRT, "format": {"type": "round_robin"}}, check_bots=False)
    assert RunFolder(tmp_path, plain).set_size(3) == 1


SERVED_SPRT = """\
name: abserved
seed: 77
players: 3
rules: {rounds: 3}
format: {type: sprt, challenger: mc-a, baseline: greedy, max_sets: 4}
bots:  # mc thinks 10 ms by its clock a decision: a set's matches end apart on any machine
  - {name: mc, label: mc-a, params: {playouts: 1000000, share: 0.5, move_ms: 20}}
  - greedy
limits: {move_ms: 3000}
"""


@pytest.mark.timeout(280)
def test_a_served_sprt_with_two_jobs_never_shows_a_set_it_has_not_finished(
        tmp_path: Path) -> None:
    """arena run --serve --jobs 2 from a fresh folder: at every look, a match shown in play
    has every other match of its set recorded, and a record is shown only with its set."""
    config = tmp_path / "ab.yaml"
    config.write_text(SERVED_SPRT)
    out = tmp_path / "out"
    process, url = start_server("run", str(config), "--out", str(out), "--serve", "0",
                                "-j", "2", "-q")
    try:
        seen: set[str] = set()
        deadline = time.monotonic() + 200
        with httpx.Client(base_url=url, timeout=60) as client, \
                connect_ws(url.replace("http", "ws") + "/ws", client) as ws:
            # followed as the run's page follows it: a run nobody follows plays its matches
            # without their public events, and lists none in play
            ws.send_text(json.dumps({"subscribe": "matches"}))
            while time.monotonic() < deadline:
                matches = client.get("/api/matches").json()["matches"]
                seen |= {m["state"] for m in matches}
                by_set: dict[str, list[dict[str, Any]]] = {}
                for m in matches:
                    by_set.setdefault(m["set"], []).append(m)
                for members in by_set.values():
                    states = [m["state"] for m in members]
                    if "playing" in states:  # the set's last match: the others recorded
                        assert len(members) == 6 and states.count("playing") == 1
                        assert set(states) <= {"playing", "waiting"}
                    if "finished" in states:
                        assert states == ["finished"] * 6
                done = matches and all(m["state"] == "finished" for m in matches)
                if done and (out / "standings.json").exists():  # the run is over
                    break
                time.sleep(0.05)
        assert "held" in seen and "finished" in seen
    finally:
        stop(process)
