"""What the server computes while a run's records grow: only what someone watches."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import Any

import pytest
import trio

import arena.web._follower as app
from arena.referee import MatchSpec
from arena.web import Hub
from arena.web._api import StandingsCache
from arena.web._live import RunFolder
from arena.web._live_report import ReportBuilder
from arena.web._socket import frame_s


class Counted(StandingsCache):
    """The standings cache, counting its computations."""

    computed = 0

    async def get(self) -> dict[str, Any]:
        self.computed += 1
        return {"matches": len(self.run.records)}


def _growing(finished_run: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    """A folder with the finished run's config and no record yet, and its record lines."""
    folder = tmp_path / "growing"
    folder.mkdir()
    shutil.copyfile(finished_run / "config.yaml", folder / "config.yaml")
    lines = (finished_run / "records.jsonl").read_text().splitlines(keepends=True)
    return folder, lines


def test_nobody_watching_costs_no_standings_nor_match_list(
        finished_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "STANDINGS_S", 0.0)  # every step may compute them,
    monkeypatch.setattr(app, "STANDINGS_SHARE", 0.0)  # however long the last one took
    folder, lines = _growing(finished_run, tmp_path)

    async def main() -> None:
        hub = Hub()
        run = RunFolder(folder)
        standings = Counted(run)
        follower = app.Follower(run, hub, standings)
        for line in lines[:3]:  # records arrive with nobody subscribed
            with (folder / "records.jsonl").open("a") as file:
                file.write(line)
            await follower.step()
        assert standings.computed == 1  # the first, for whoever subscribes later
        assert "matches" not in hub.last
        async with hub.subscribe("standings"), hub.subscribe("matches"):
            with (folder / "records.jsonl").open("a") as file:
                file.write(lines[3])
            await follower.step()
            assert standings.computed == 2
            assert hub.last["standings"]["standings"] == {"matches": 4}
            assert len(hub.last["matches"]["matches"]) == 4

    trio.run(main)


def test_the_report_is_built_no_more_often_than_it_is_read(finished_run: Path,
                                                           tmp_path: Path) -> None:
    folder, lines = _growing(finished_run, tmp_path)

    async def main() -> None:
        run = RunFolder(folder)
        watching: list[bool] = []
        builder = ReportBuilder(run, interval=0.0, watched=lambda: bool(watching), share=0.0)

        async def records(count: int) -> None:
            (folder / "records.jsonl").write_text("".join(lines[:count]))
            run.refresh()

        async def built(count: int) -> None:
            """Until ``count`` builds are done (a build, a child process, may take seconds at
            load), then as long again as the builder takes to look twice (every 0.25 s):
            no build more."""
            with trio.fail_after(60):
                while builder.builds < count:
                    await trio.sleep(0.05)
            await trio.sleep(0.6)
            assert builder.builds == count

        async with trio.open_nursery() as nursery:
            nursery.start_soon(builder.run_forever)
            await records(1)
            assert builder.builds == 0  # unread
            builder.want()  # a file of the report asked for
            await built(1)
            await records(2)
            await built(1)  # grown, unread
            builder.want()  # a file of the report asked for
            await built(2)
            await records(3)
            await built(2)
            watching.append(True)  # a page follows the report's builds
            await built(3)
            nursery.cancel_scope.cancel()

    trio.run(main)


def test_a_match_in_process_is_published_at_the_next_step(tmp_path: Path) -> None:
    spec = MatchSpec.from_dict({
        "match_id": "here", "seed": 1, "rules": {"rounds": 1},
        "seats": [{"label": b, "name": b, "host": "inline"}
                  for b in ("greedy", "lowest", "highest", "random")]})

    async def main() -> None:
        hub = Hub()
        run = RunFolder(tmp_path)
        follower = app.Follower(run, hub, StandingsCache(run))
        follower.bind()  # as the server's lifespan does
        async with hub.subscribe("match:here") as events:
            feed = follower.feed(spec)
            for number in range(5):
                feed({"type": "move", "deal": 0, "seat": number % 4, "move": "pass", "left": 8})
            # an append each, no publication yet
            assert len(run.live["here"].events) == 5 and "match:here" not in hub.last
            await follower.step()
            # what came since the last step, as one item: a batch of the events in order
            heard = events.receive_nowait()
            assert heard["type"] == "batch"
            assert [e["seat"] for e in heard["events"]] == [0, 1, 2, 3, 0]
            with pytest.raises(trio.WouldBlock):
                events.receive_nowait()

    trio.run(main)


def test_a_match_in_process_is_published_no_sooner_than_half_a_frame_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """200 spectators hear a frame each 0.8 s (frame_s): a table's new events go to the hub
    at most every 0.4 s, not at every step; with one spectator, at every step."""
    spec = MatchSpec.from_dict({
        "match_id": "here", "seed": 1, "rules": {"rounds": 1},
        "seats": [{"label": b, "name": b, "host": "inline"}
                  for b in ("greedy", "lowest", "highest", "random")]})
    clock = [100.0]
    monkeypatch.setattr(app.time, "monotonic", lambda: clock[0])
    move = {"type": "move", "deal": 0, "seat": 0, "move": "pass", "left": 8}

    async def main() -> None:
        hub = Hub()
        run = RunFolder(tmp_path)
        follower = app.Follower(run, hub, StandingsCache(run))
        follower.bind()
        async with contextlib.AsyncExitStack() as stack:
            events = await stack.enter_async_context(hub.subscribe("match:here"))
            for n in range(199):
                await stack.enter_async_context(hub.subscribe(f"match:other{n}"))
            assert frame_s(hub.subscriptions()) == pytest.approx(0.8)
            feed = follower.feed(spec)
            feed(move)
            follower.sync()
            assert events.receive_nowait()["type"] == "move"  # the first at once
            feed(move)
            clock[0] += 0.3
            follower.sync()  # within half a frame of the last: kept
            with pytest.raises(trio.WouldBlock):
                events.receive_nowait()
            clock[0] += 0.15
            follower.sync()
            assert events.receive_nowait()["type"] == "move"
            await stack.aclose()
            async with hub.subscribe("match:here") as alone:  # one spectator: every step
                feed(move)
                clock[0] += 0.06
                follower.sync()
                assert alone.receive_nowait()["type"] == "move"

    trio.run(main)
