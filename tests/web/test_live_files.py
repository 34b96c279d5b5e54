"""The live folder: what LiveMatch writes, who removes it, and that bots cannot see it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio

import arena.web._feed as live
import arena.web._live_run as live_run
from arena.referee import MatchSpec, run_match
from arena.tournament import run_tournament
from arena.web import LIVE_DIR, Follower, Hub, LiveMatch, RunFolder, WebReporter
from arena.web._api import StandingsCache
from arena.web._live import WATCHED
from tests.recordtools import without_timings

from .conftest import CONFIG

SPEC = MatchSpec.from_dict({"match_id": "m7", "seed": 918_273_645, "rules": {"rounds": 2},
                            "seats": [{"label": b, "name": b} for b in
                                      ("greedy", "lowest", "highest", "random")]})


def _watched(folder: Path) -> None:
    """Someone follows the run's matches in play (as the server's follower marks it)."""
    (folder / LIVE_DIR).mkdir(parents=True, exist_ok=True)
    (folder / LIVE_DIR / WATCHED).touch()


def _lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / LIVE_DIR / "m7.jsonl").read_text().splitlines()]


def test_a_live_file_holds_the_public_events_then_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "BATCH_S", 0.0)  # every event is due at once
    spec = SPEC
    _watched(tmp_path)
    record = LiveMatch(str(tmp_path))(spec)
    lines = _lines(tmp_path)
    assert lines[0] == {"type": "live", "match": "m7", "set": None, "round": None,
                        "labels": ["greedy", "lowest", "highest", "random"]}
    assert lines[-1] == {"type": "played"} and lines[-2]["type"] == "match_end"
    moves = [(e["seat"], e["move"]) for e in lines if e["type"] == "move"]
    assert moves == [(s, m) for d in record["deals"]
                     for s, m in zip(d["movers"], d["moves"], strict=True)]
    assert str(spec.seed) not in json.dumps(lines)


def test_a_match_over_before_its_first_batch_leaves_no_live_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "BATCH_S", 60.0)
    _watched(tmp_path)
    LiveMatch(str(tmp_path))(SPEC)
    assert list((tmp_path / LIVE_DIR).iterdir()) == [tmp_path / LIVE_DIR / WATCHED]


def test_a_match_whose_first_batch_comes_mid_deal_writes_that_deal_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Until its first batch the referee tells the file no move; then the deal in play so
    far, replayed, and every event from there on: the same deal a page would have drawn."""
    monkeypatch.setattr(live, "BATCH_S", 60.0)
    clock = [0.0]
    monkeypatch.setattr(live.time, "monotonic", lambda: clock[0])
    looks = [0]

    def watch(spec: MatchSpec) -> dict[str, Any]:  # the batch is due at the 30th look
        file = live.LiveFile(tmp_path / LIVE_DIR / "m7.jsonl", spec, batch_s=60.0)
        listening = file.listening

        def look() -> bool:
            looks[0] += 1
            clock[0] = 61.0 if looks[0] >= 30 else 0.0
            return listening()

        file.listening = look  # type: ignore[method-assign]
        try:
            return run_match(spec, watch=file)
        finally:
            file.close()

    record = watch(SPEC)
    lines = _lines(tmp_path)
    assert lines[0]["type"] == "live" and lines[-1] == {"type": "played"}
    moves = [(e["deal"], e["seat"], e["move"]) for e in lines if e["type"] == "move"]
    first = moves[0][0]
    assert first == lines[[e["type"] for e in lines].index("move") - 1]["deal"]
    assert moves == [(d["deal"], s, m) for d in record["deals"][first:]
                     for s, m in zip(d["movers"], d["moves"], strict=True)]


def test_a_match_nobody_follows_writes_no_live_file_and_the_same_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "BATCH_S", 0.0)  # a followed match's file is made at once
    unwatched = LiveMatch(str(tmp_path))(SPEC)
    assert not (tmp_path / LIVE_DIR).exists()
    _watched(tmp_path)
    watched = LiveMatch(str(tmp_path))(SPEC)
    assert without_timings(watched) == without_timings(unwatched)
    assert _lines(tmp_path)[0]["type"] == "live"


def test_the_follower_marks_the_run_watched_while_the_match_list_or_a_match_is_followed(
        tmp_path: Path) -> None:
    marker = tmp_path / LIVE_DIR / WATCHED
    _watched(tmp_path)  # left by a server that stopped

    async def main() -> None:
        hub = Hub()
        run = RunFolder(tmp_path)
        follower = Follower(run, hub, StandingsCache(run))
        await follower.step()
        assert not marker.exists()
        async with hub.subscribe("standings"):
            await follower.step()
            assert not marker.exists()  # the standings need no match's events
        for topic in ("matches", "match:m7"):
            async with hub.subscribe(topic):
                await follower.step()
                assert marker.exists()
            await follower.step()
            assert not marker.exists()

    trio.run(main)


def test_a_match_longer_than_a_batch_writes_its_events_in_batches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = SPEC
    file = live.LiveFile(tmp_path / LIVE_DIR / "m7.jsonl", spec, batch_s=60.0)
    events = [{"type": "move", "n": n} for n in range(3)]
    for event in events:
        file(event)
    assert not file.path.exists() and not file.listening()  # kept
    clock = [live.time.monotonic() + 61]
    monkeypatch.setattr(live.time, "monotonic", lambda: clock[0])
    file({"type": "move", "n": 3})  # its batch is due: the backlog goes with it
    assert [line.get("n") for line in _lines(tmp_path)] == [None, 0, 1, 2, 3]
    file({"type": "move", "n": 4})  # kept for the next batch, or the end
    file.close()
    assert [line.get("n") for line in _lines(tmp_path)][-2:] == [4, None]


class Seen(LiveMatch):
    """LiveMatch that notes the private paths of each spec it plays."""

    private: list[tuple[str, ...]] = []  # noqa: RUF012 (a test's own notebook)

    def __call__(self, spec: MatchSpec) -> dict[str, Any]:
        Seen.private.append(tuple(spec.private))
        return super().__call__(spec)


def test_the_run_folder_with_its_live_files_is_hidden_from_bots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_run, "KEEP_S", 0.0)
    out = tmp_path / "out"
    stale = out / LIVE_DIR / "gone-long-ago.jsonl"
    stale.parent.mkdir(parents=True)
    stale.write_text('{"type": "live"}\n')
    run_tournament(CONFIG, out=out, jobs=1, match_fn=Seen(str(out)),
                   reporter=WebReporter(out))
    assert len(Seen.private) == 4
    assert all(str(out.resolve()) in private for private in Seen.private)
    assert list((out / LIVE_DIR).glob("*.jsonl")) == []  # recorded, then removed; stale too


def test_a_record_pokes_the_follower_only_while_someone_subscribes(tmp_path: Path) -> None:
    pokes: list[int] = []

    async def main() -> None:
        hub = Hub()
        reporter = WebReporter(tmp_path, hub, poke=lambda: pokes.append(1))
        reporter.match({"match_id": "m7"}, None)  # type: ignore[arg-type]
        assert pokes == []  # the follower's next look finds the record
        async with hub.subscribe("standings"):
            reporter.match({"match_id": "m8"}, None)  # type: ignore[arg-type]
        assert pokes == [1]

    trio.run(main)


def test_the_live_files_of_recorded_matches_go_a_sweep_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner's reporter removes recorded matches' live files at most every SWEEP_S,
    with one look at the live folder, not a removal a record; the run's end, all."""
    monkeypatch.setattr(live_run, "KEEP_S", 0.0)
    monkeypatch.setattr(live_run, "SWEEP_S", 3600.0)
    live = tmp_path / LIVE_DIR
    live.mkdir()
    for name in ("m0", "m1", "m2"):
        (live / f"{name}.jsonl").write_text('{"type": "live"}\n')
    reporter = WebReporter(tmp_path)
    reporter.match({"match_id": "m0"}, None)  # type: ignore[arg-type]
    assert sorted(p.name for p in live.glob("*.jsonl")) == ["m1.jsonl", "m2.jsonl"]
    reporter.match({"match_id": "m1"}, None)  # type: ignore[arg-type]
    assert sorted(p.name for p in live.glob("*.jsonl")) == ["m1.jsonl", "m2.jsonl"]
    reporter.stop()
    assert list(live.glob("*.jsonl")) == []
