"""The served run's work apart from the runner's (``arena run --serve``): the standings
computed in a child process, the same documents as the server's own computation, record by
record, and the same again when the child dies; the report's builds in one child kept from
build to build; the runner's pokes that come together."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import pytest
import trio
import trio.testing

from arena.report import standings_document, standings_text
from arena.web import Hub
from arena.web._apart import ApartStandings
from arena.web._api import StandingsCache
from arena.web._follower import Follower
from arena.web._live import RunFolder
from arena.web._live_report import ReportBuilder


def _grow(finished_run: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    folder = tmp_path / "growing"
    folder.mkdir()
    shutil.copyfile(finished_run / "config.yaml", folder / "config.yaml")
    return folder, (finished_run / "records.jsonl").read_text().splitlines(keepends=True)


def test_the_childs_documents_are_the_servers_as_the_records_grow(
        finished_run: Path, tmp_path: Path) -> None:
    folder, lines = _grow(finished_run, tmp_path)
    records = folder / "records.jsonl"
    apart = ApartStandings(records)
    pids = []
    try:
        for count in range(1, len(lines) + 1):
            records.write_text("".join(lines[:count]))
            assert apart.document() == standings_document(folder), count
            pids.append(None if apart.child.process is None else apart.child.process.pid)
        _ready(apart)
        assert apart.document() == standings_document(folder)
        assert apart._here is None  # the child's answer: its own reading of the records
    finally:
        apart.close()
    assert pids[0] is None  # the first in this process: a run nobody watches starts no child
    assert len(set(pids[1:])) == 1 and pids[1] is not None  # then one child, kept


def _ready(apart: ApartStandings) -> None:
    """Until the child is ready (its imports take seconds at load; the server never waits)."""
    deadline = time.monotonic() + 60
    while not apart.child.ready():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_dead_childs_documents_are_computed_here(finished_run: Path, tmp_path: Path) -> None:
    folder, lines = _grow(finished_run, tmp_path)
    records = folder / "records.jsonl"
    records.write_text("".join(lines[:2]))
    apart = ApartStandings(records)
    try:
        apart.document()
        apart.document()
        _ready(apart)
        apart.document()
        assert apart.child.process is not None and apart._here is None
        os.kill(apart.child.process.pid, signal.SIGKILL)
        apart.child.process.wait()
        records.write_text("".join(lines))
        assert apart.document() == standings_document(folder)
        assert apart.child.process is None and apart._state == "here"
    finally:
        apart.close()


def test_the_cache_apart_answers_the_saved_file(finished_run: Path) -> None:
    """A finished run's standings, computed apart, are ``standings.json``'s text."""
    cache = StandingsCache(RunFolder(finished_run), apart=True)

    async def main() -> list[str]:
        cache.run.refresh()
        return [await cache.text(), await _again(cache)]

    try:
        texts = trio.run(main)
    finally:
        cache.close()
    assert texts == [standings_text(standings_document(finished_run))] * 2


async def _again(cache: StandingsCache) -> str:
    cache._document = None  # computed again: by the child this time
    cache._text = None
    return await cache.text()


def test_pokes_before_a_read_come_together(tmp_path: Path) -> None:
    run = RunFolder(tmp_path)
    hub = Hub()
    follower = Follower(run, hub, StandingsCache(run))

    async def main() -> list[int]:
        follower.bind()
        woken = []
        for _ in range(3):
            follower.poke()
        await trio.testing.wait_all_tasks_blocked()
        woken.append(follower._wake.is_set())
        follower._wake = trio.Event()
        follower.poke()  # not read yet: no second wake
        await trio.testing.wait_all_tasks_blocked()
        woken.append(follower._wake.is_set())
        follower.sync()  # read: the next record pokes again
        follower.poke()
        await trio.testing.wait_all_tasks_blocked()
        woken.append(follower._wake.is_set())
        return woken

    assert trio.run(main) == [True, False, True]


def test_the_reports_builds_share_one_child_and_outlive_its_death(
        finished_run: Path, tmp_path: Path) -> None:
    """The served report's builds go to one child process, kept from one build to the next;
    a build's error is the build's failure (the child goes on), a dead child's next build
    starts another, and the builder's end ends it."""
    folder, lines = _grow(finished_run, tmp_path)
    (folder / "records.jsonl").write_text("".join(lines))
    builder = ReportBuilder(RunFolder(folder))
    try:
        assert builder.build()
        assert builder.child.process is not None
        first = builder.child.process.pid
        assert (builder.root / "index.html").is_file()
        assert builder.build() and builder.child.process.pid == first
        records = folder / "records.jsonl"
        records.rename(folder / "kept")
        records.mkdir()  # no records file to read
        with pytest.raises(RuntimeError, match="no records"):  # the writer's own words
            builder.build()
        records.rmdir()
        (folder / "kept").rename(records)
        assert builder.child.process.pid == first and builder.build()
        os.kill(first, signal.SIGKILL)
        builder.child.process.wait()
        assert builder.build() and builder.child.process.pid != first
        child = builder.child.process
    finally:
        builder.close()
    assert child.poll() is not None and builder.child.process is None
