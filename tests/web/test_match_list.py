"""The match list sends what changed, not the whole list; the API pages and filters it; a
spectator behind a fast table gets the match's state now, not a backlog."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import trio
from httpx_ws import aconnect_ws

import arena.web._socket as sockets
from arena.referee import MatchSpec, play_match
from arena.web import RunWeb

SPEC = MatchSpec.from_dict({
    "match_id": "fast", "seed": 3, "rules": {"rounds": 2},
    "seats": [{"label": b, "name": b, "host": "inline"}
              for b in ("greedy", "lowest", "highest", "random")]})


def test_the_api_pages_and_filters_the_list(served: str) -> None:
    every = httpx.get(f"{served}/api/matches", timeout=30).json()
    assert every["total"] == len(every["matches"]) == 4
    ids = [m["id"] for m in every["matches"]]
    page = httpx.get(f"{served}/api/matches?offset=1&limit=2", timeout=30).json()
    assert [m["id"] for m in page["matches"]] == ids[1:3] and page["total"] == 4
    last = httpx.get(f"{served}/api/matches?last=1", timeout=30).json()
    assert [m["id"] for m in last["matches"]] == ids[-1:]
    none = httpx.get(f"{served}/api/matches?state=playing,held", timeout=30).json()
    assert none == {"matches": [], "total": 0}
    for query in ("state=over", "limit=-1", "limit=x", "page=2"):
        answer = httpx.get(f"{served}/api/matches?{query}", timeout=30)
        assert answer.status_code == 400, query
        assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]


async def _receive(ws: Any) -> dict[str, Any]:
    with trio.fail_after(20):
        message: dict[str, Any] = json.loads(await ws.receive_text())
        return message


def test_the_matches_topic_sends_what_changed(finished_run: Path, tmp_path: Path) -> None:
    folder = tmp_path / "growing"
    folder.mkdir()
    shutil.copyfile(finished_run / "config.yaml", folder / "config.yaml")
    lines = (finished_run / "records.jsonl").read_text().splitlines(keepends=True)
    (folder / "records.jsonl").write_text("".join(lines[:2]))

    async def main() -> None:
        web = RunWeb(folder)
        async with trio.open_nursery() as nursery, httpx.AsyncClient() as client:
            url = await nursery.start(web.serve, "127.0.0.1", 0)
            async with aconnect_ws(url.replace("http", "ws") + "/ws", client) as ws:
                await ws.send_text(json.dumps({"subscribe": "matches"}))
                first = await _receive(ws)
                assert first["type"] == "matches" and first["total"] == 2
                feed = web.follower.feed(SPEC)  # a match in process begins
                begun = await _receive(ws)
                assert begun["type"] == "changed" and begun["total"] == 3
                assert [(m["id"], m["state"]) for m in begun["matches"]] == [
                    ("fast", "playing")]
                feed.close()
                with (folder / "records.jsonl").open("a") as file:
                    file.write(lines[2])
                web.follower.poke()
                recorded = await _receive(ws)
                # the new record alone (and its set's, whose state it may move), not the list
                assert recorded["type"] == "changed"
                assert {m["id"] for m in recorded["matches"]} <= {
                    json.loads(line)["match_id"] for line in lines[:3]}
                assert json.loads(lines[2])["match_id"] in {m["id"] for m in
                                                             recorded["matches"]}
            nursery.cancel_scope.cancel()

    trio.run(main)


def test_a_spectator_behind_its_table_gets_the_state_now(tmp_path: Path) -> None:
    events: list[dict[str, Any]] = []
    trio.run(lambda: play_match(SPEC, watch=lambda e: events.append(dict(e))))
    assert len(events) > 100

    async def main() -> list[dict[str, Any]]:
        web = RunWeb(tmp_path)
        heard: list[dict[str, Any]] = []
        async with trio.open_nursery() as nursery, httpx.AsyncClient() as client:
            url = await nursery.start(web.serve, "127.0.0.1", 0)
            feed = web.follower.feed(SPEC)
            async with aconnect_ws(url.replace("http", "ws") + "/ws", client) as ws:
                await ws.send_text(json.dumps({"subscribe": "match:fast"}))
                heard.append(await _receive(ws))  # the match so far: nothing yet
                for event in events:  # a whole match at once: faster than any page
                    feed(event)
                while heard[-1].get("type") != "events" or not heard[-1]["events"]:
                    heard.append(await _receive(ws))
            nursery.cancel_scope.cancel()
        return heard

    heard = trio.run(main)
    assert len(heard) <= 3  # not a backlog of hundreds of messages
    now = heard[-1]["events"]
    # the match's state now: its start, the last deal's end before, its current deal
    last_deal = max(i for i, e in enumerate(events) if e["type"] == "deal_start")
    assert [{k: v for k, v in e.items() if k != "topic"} for e in now][-(len(events)
                                                                       - last_deal):] == \
        events[last_deal:]
    assert now[0]["type"] == "match_start"


def test_the_server_keeps_a_summary_of_each_record_and_reads_the_record_when_asked(
        finished_run: Path) -> None:
    from arena.records import read_records
    from arena.web import RunFolder

    run = RunFolder(finished_run)
    run.refresh()
    for record in read_records(finished_run / "records.jsonl"):
        kept = run.records[record["match_id"]]
        assert "deals" not in kept and kept["scores"] == record["scores"]
        assert run.record(record["match_id"]) == record
    assert run.record("no-such-match") is None


def test_the_api_answers_the_list_gzipped_and_kept_until_it_moves(finished_run: Path) -> None:
    async def main() -> None:
        web = RunWeb(finished_run)
        async with trio.open_nursery() as nursery:
            url = await nursery.start(web.serve, "127.0.0.1", 0)
            async with httpx.AsyncClient(base_url=url) as client:
                zipped = await client.get("/api/matches")  # httpx accepts gzip
                assert zipped.headers["content-encoding"] == "gzip"
                assert "Content-Security-Policy" in zipped.headers
                plain = await client.get("/api/matches",
                                         headers={"Accept-Encoding": "identity"})
                assert "content-encoding" not in plain.headers
                assert plain.json() == zipped.json() and plain.json()["total"] == 4
                again = await client.get("/api/matches", headers={"Accept-Encoding": "identity"})
                assert again.content == plain.content  # kept while the list is the same
                feed = web.follower.feed(SPEC)  # a match in process begins: the list moves
                moved = (await client.get("/api/matches?state=playing")).json()
                assert [(m["id"], m["scores"]) for m in moved["matches"]] == [("fast", None)]
                with trio.fail_after(30):
                    await play_match(SPEC, watch=feed)
                    await trio.sleep(0.15)  # LIVE_S: a deal's scores may be that late
                played = (await client.get("/api/matches?state=playing")).json()
                assert played["matches"][0]["scores"] is not None
                feed.close()
            nursery.cancel_scope.cancel()

    trio.run(main)


def test_spectators_of_one_match_share_its_state_encoded_once(
        finished_run: Path, monkeypatch: Any) -> None:
    made: list[str] = []
    real = sockets._current

    def counted(topic: str, hub: Any, run: Any) -> dict[str, Any]:
        made.append(topic)
        return real(topic, hub, run)

    monkeypatch.setattr(sockets, "_current", counted)

    async def main() -> None:
        web = RunWeb(finished_run)
        async with trio.open_nursery() as nursery, httpx.AsyncClient() as client:
            url = await nursery.start(web.serve, "127.0.0.1", 0)
            feed = web.follower.feed(SPEC)
            feed({"type": "match_start", "match": "fast", "labels": SPEC.labels, "rounds": 2,
                  "players": 4})
            web.follower.catch_up("match:fast")
            firsts = []
            for _ in range(3):
                async with aconnect_ws(url.replace("http", "ws") + "/ws", client) as ws:
                    await ws.send_text(json.dumps({"subscribe": "match:fast"}))
                    firsts.append(await _receive(ws))
            assert firsts[0]["type"] == "events" and firsts[0] == firsts[1] == firsts[2]
            assert made.count("match:fast") == 1  # encoded once for the three
            feed.close()
            nursery.cancel_scope.cancel()

    trio.run(main)
