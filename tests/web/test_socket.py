"""The spectators' WebSocket: topics, live events of a match in play, and nothing else."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
from httpx_ws import WebSocketDisconnect, aconnect_ws

from arena.web import Hub
from arena.web._socket import _merged

from .serving import serving

pytestmark = pytest.mark.timeout(120)


def ws_url(url: str) -> str:
    return url.replace("http://", "ws://") + "/ws"


async def receive(ws: Any, seconds: float = 10) -> dict[str, Any]:
    with trio.fail_after(seconds):
        data: dict[str, Any] = json.loads(await ws.receive_text())
        return data


def test_standings_and_matches_come_first_as_they_are(finished_run: Path) -> None:
    async def main() -> None:
        async with serving(finished_run) as url, httpx.AsyncClient() as client, \
                aconnect_ws(ws_url(url), client) as ws:
            await ws.send_text(json.dumps({"subscribe": "standings"}))
            first = await receive(ws)
            if first["type"] == "none":  # the server listens before its first standings
                first = await receive(ws)  # then they come as soon as computed
            assert first["topic"] == "standings" and first["standings"]["matches"] == 4
            await ws.send_text(json.dumps({"subscribe": "matches"}))
            listed = await receive(ws)
            assert listed["topic"] == "matches" and len(listed["matches"]) == 4

    trio.run(main)


@pytest.mark.parametrize("message", [
    "not json", "[1, 2]", '{"subscribe": "match:../../records"}', '{"subscribe": "seats"}',
    '{"play": "3H"}', '{"subscribe": "standings", "seat": 0}', '{"subscribe": 7}',
])
def test_a_spectator_may_only_subscribe(finished_run: Path, message: str) -> None:
    async def main() -> None:
        async with serving(finished_run) as url, httpx.AsyncClient() as client, \
                aconnect_ws(ws_url(url), client) as ws:
            await ws.send_text(message)
            answer = await receive(ws)
            assert set(answer) == {"error"} and "subscribe" in answer["error"]
            await ws.send_text(json.dumps({"subscribe": "matches"}))  # still open
            assert (await receive(ws))["topic"] == "matches"

    trio.run(main)


def test_a_flood_of_messages_is_disconnected(finished_run: Path) -> None:
    async def main() -> None:
        async with serving(finished_run) as url, httpx.AsyncClient() as client, \
                aconnect_ws(ws_url(url), client) as ws:
            with pytest.raises(WebSocketDisconnect) as closed, trio.fail_after(20):
                for _ in range(200):
                    await ws.send_text("{}")
                while True:
                    await ws.receive_text()
            assert closed.value.code == 1008

    trio.run(main)


def test_an_oversized_message_is_disconnected(finished_run: Path) -> None:
    async def main() -> None:
        async with serving(finished_run) as url, httpx.AsyncClient() as client, \
                aconnect_ws(ws_url(url), client) as ws:
            await ws.send_text(json.dumps({"subscribe": "x" * 100_000}))
            with pytest.raises(WebSocketDisconnect) as closed, trio.fail_after(20):
                while True:
                    await ws.receive_text()
            assert closed.value.code == 1009  # message too big

    trio.run(main)


def test_a_match_in_play_is_followed_from_its_live_file(finished_run: Path,
                                                        tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    shutil.copyfile(finished_run / "config.yaml", out / "config.yaml")
    live = out / "live"
    live.mkdir()
    path = live / "m1.jsonl"
    lines = [{"type": "live", "match": "m1", "set": None, "round": None,
              "labels": ["a", "b", "c", "d"]},
             {"type": "match_start", "match": "m1", "labels": ["a", "b", "c", "d"],
              "rounds": 1, "players": 4},
             {"type": "deal_start", "deal": 0, "roles": [None] * 4, "counts": [14, 14, 13, 13]}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))

    async def main() -> None:
        async with serving(out, Hub()) as url, httpx.AsyncClient() as client, \
                aconnect_ws(ws_url(url), client) as ws:
            await ws.send_text(json.dumps({"subscribe": "match:m1"}))
            first = await receive(ws)
            assert first["type"] == "events" and first["labels"] == ["a", "b", "c", "d"]
            assert [e["type"] for e in first["events"]] == ["match_start", "deal_start"]
            listed = (await client.get(f"{url}/api/matches")).json()["matches"]
            assert [(m["id"], m["state"]) for m in listed] == [("m1", "playing")]
            with path.open("a") as f:  # a move, written half: read once it is whole
                f.write('{"type": "move", "deal": 0, "seat": 0, ')
                f.flush()
                await trio.sleep(0.6)
                f.write('"move": "3H", "left": 13}\n')
            event = await receive(ws)
            assert event == {"topic": "match:m1", "type": "move", "deal": 0, "seat": 0,
                             "move": "3H", "left": 13}

    trio.run(main)


def test_a_slow_subscriber_is_told_it_lagged_not_the_publishers_time() -> None:
    async def main() -> None:
        hub = Hub(buffer=4)
        async with hub.subscribe("t") as events:
            for n in range(100):
                hub.publish("t", {"n": n})  # never blocks
            got = []
            with pytest.raises(trio.WouldBlock):
                while True:
                    got.append(events.receive_nowait())
            # the backlog went for one "lagged" (the subscriber fetches the state now),
            # then what came after it
            assert got[0] == {"topic": "t", "type": "lagged"}
            assert [e["n"] for e in got[1:]] == list(range(100 - len(got) + 1, 100))

    trio.run(main)


def _page(messages: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], int | None]:
    """The match list as live.js keeps it after ``messages`` (mergeMatches), and its total."""
    shown: dict[str, dict[str, Any]] = {}
    total = None
    for message in messages:
        for entry in message["matches"]:
            shown[entry["id"]] = entry
        for match_id in message["gone"]:
            shown.pop(match_id, None)
        total = message["total"]
    return shown, total


def test_the_match_lists_changes_of_one_frame_go_as_one() -> None:
    def entry(match_id: str, score: int) -> dict[str, Any]:
        return {"id": match_id, "state": "playing", "scores": [score]}

    items = [{"topic": "matches", "type": "changed", "matches": [entry("a", 1), entry("b", 1)],
              "gone": [], "total": 5},
             {"topic": "matches", "type": "changed", "matches": [entry("c", 0), entry("a", 2)],
              "gone": ["b"], "total": 5},
             {"topic": "matches", "type": "changed", "matches": [entry("d", 0)],
              "gone": ["c", "x"], "total": 4}]
    [merged] = _merged(items)
    assert merged["type"] == "changed" and merged["topic"] == "matches"
    assert _page([merged]) == _page(items)
    assert merged["matches"] == [entry("a", 2), entry("d", 0)]
    assert sorted(merged["gone"]) == ["b", "c", "x"]
    # anything else keeps its place: a snapshot is not merged into
    snapshot = {"topic": "matches", "type": "matches", "matches": [], "total": 0}
    assert _merged([items[0], snapshot, items[1]]) == [items[0], snapshot, items[1]]
