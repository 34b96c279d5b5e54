"""Events stay in the process where they are made: a match played in the server's process
reaches the hub with no live file, and a spectator hears every public event once."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from httpx_ws import connect_ws

from arena.records import read_records
from arena.referee import MatchSpec, play_match
from arena.web import LIVE_DIR, Follower, Hub, LiveMatch, RunFolder
from arena.web._api import StandingsCache
from arena.web._feed import local_feed
from arena.web._live import WATCHED
from arena.web._socket import _current

from .conftest import start_server, stop
from .frames import check_frames

pytestmark = pytest.mark.timeout(280)

SEATS = ["greedy", "lowest", "highest", "random"]
SPEC = MatchSpec.from_dict({
    "match_id": "t1", "seed": 7, "rules": {"rounds": 3},
    "seats": [{"label": b, "name": b, "host": "inline"} for b in SEATS]})


def _events(spec: MatchSpec) -> list[dict[str, Any]]:
    """Every public event of ``spec``'s match, as the referee's ``watch`` hands them."""
    seen: list[dict[str, Any]] = []
    trio.run(lambda: play_match(spec, watch=lambda e: seen.append(dict(e))))
    return seen


def test_a_match_in_the_servers_run_reaches_the_hub_with_no_file(tmp_path: Path) -> None:
    every = _events(SPEC)

    async def main() -> list[dict[str, Any]]:
        hub = Hub(buffer=10_000)
        run = RunFolder(tmp_path)
        follower = Follower(run, hub, StandingsCache(run))
        heard: list[dict[str, Any]] = []
        feed = follower.feed(SPEC)
        assert [m["id"] for m in run.match_list()] == ["t1"]  # in play at once
        half = len(every) // 2
        for event in every[:half]:  # heard by nobody yet
            feed(event)
        follower.catch_up("match:t1")  # as a spectator's socket does before it subscribes
        async with hub.subscribe("match:t1") as events:
            snapshot = _current("match:t1", hub, run)
            heard += snapshot["events"]
            for event in every[half:]:
                feed(event)
            feed.close()
            while True:
                try:
                    item = events.receive_nowait()
                except trio.WouldBlock:
                    break
                heard += item["events"] if item["type"] == "batch" else [item]
        assert not (tmp_path / LIVE_DIR).exists()
        return heard

    heard = trio.run(main)
    # the snapshot is the current deal (after the match's start and the last deal's end),
    # and the stream goes on from where it ends: no event twice, none lost after it
    tail = [{k: v for k, v in e.items() if k != "topic"} for e in heard]
    start = tail.index(next(e for e in tail if e["type"] == "deal_start"))
    assert tail[start:] == every[every.index(tail[start]):]


def test_a_run_served_with_one_job_is_watched_through_its_live_files(tmp_path: Path) -> None:
    """``arena run --serve -j 1``: the server has a process of its own, so a match the runner
    plays in its own thread writes its live file as a worker's does; a spectator's frames,
    checked against the record, show no card before it is played. Matches are listed in play
    once someone follows the match list."""
    config = tmp_path / "run.yaml"
    config.write_text("""\
name: onejob
seed: 77
players: 4
format: {type: round_robin}
duplicate: false
repeat: 6
rules: {rounds: 6}
bots:
  - {name: mc, label: mc-a, params: {playouts: 1000000, share: 0.5, move_ms: 20}}
  - greedy
  - lowest
  - random
limits: {move_ms: 3000}
""")
    out = tmp_path / "out"
    process, url = start_server("run", str(config), "--out", str(out), "--serve", "0",
                                "-j", "1", "-q")
    frames: list[dict[str, Any]] = []
    files: set[str] = set()
    try:
        with (httpx.Client(base_url=url, timeout=60) as client,
              connect_ws(url.replace("http", "ws") + "/ws", client) as follower):
            follower.send_text(json.dumps({"subscribe": "matches"}))
            deadline = time.monotonic() + 120
            match_id = None
            while match_id is None:
                assert time.monotonic() < deadline, "no match was seen in play"
                playing = [m for m in client.get("/api/matches").json()["matches"]
                           if m["state"] == "playing"]
                match_id = playing[0]["id"] if playing else None
            with connect_ws(url.replace("http", "ws") + "/ws", client) as ws:
                ws.send_text(json.dumps({"subscribe": f"match:{match_id}"}))
                while not frames or "recorded" not in {
                        e.get("type") for e in frames[-1].get("events", [frames[-1]])}:
                    assert time.monotonic() < deadline + 120, "the match was never recorded"
                    frames.append(json.loads(ws.receive_text(timeout=60)))
                    files |= {p.name for p in (out / LIVE_DIR).glob("*.jsonl")}
    finally:
        stop(process)
    assert f"{match_id}.jsonl" in files, files  # read by the server from the disk
    record = next(r for r in read_records(out / "records.jsonl") if r["match_id"] == match_id)
    check_frames(frames, record, match_id)  # a batch's events in their place


class _Kept:
    """A feed that keeps what it is told (the server's follower stands here)."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.closed = False

    def __call__(self, event: Any) -> None:
        self.events.append(dict(event))

    def close(self) -> None:
        self.closed = True


def test_a_match_played_beside_its_server_in_one_process_publishes_with_no_file(
        tmp_path: Path) -> None:
    """The Python API's route (``RunWeb`` and ``run_tournament`` in one process): while
    ``local_feed`` names the folder, a watched match that ``LiveMatch`` plays here hands its
    public events to the server's feed, every one in order, and writes no live file; outside
    the block a match goes its other way (a live file), not to that feed."""
    every = _events(SPEC)
    (tmp_path / LIVE_DIR).mkdir()
    (tmp_path / LIVE_DIR / WATCHED).touch()
    kept = _Kept()
    with local_feed(tmp_path, lambda spec: kept):
        record = LiveMatch(str(tmp_path))(SPEC)
    assert kept.closed and record["match_id"] == "t1"
    assert kept.events == every
    assert not list((tmp_path / LIVE_DIR).glob("*.jsonl"))
    LiveMatch(str(tmp_path))(MatchSpec.from_dict({**SPEC.to_dict(), "match_id": "t2"}))
    assert len(kept.events) == len(every)  # outside the block: not the server's feed
