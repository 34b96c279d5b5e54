"""Where a match's public events go: straight to the hub when the match is played in the
server's own process, through a live file when it is played in another.

A match played in the server's process (a people's table in the server's trio run; a run's
match played in the runner's thread of ``arena run --serve`` with one job) hands its events
to a :class:`LocalWatch`: they join the follower's list of matches in play and are published
on the hub (from the runner's thread through one ``run_sync_soon`` at a time, in the server's
run at the follower's next step; only while someone listens). A match played in a worker
process or a Dask task writes them to its live file (:class:`LiveFile`, through
:class:`LiveMatch`), which the follower reads.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from arena.referee import MatchSpec, run_match

from ._in_play import InPlay
from ._live import LIVE_DIR, WATCHED

__all__ = ["BATCH_S", "Feed", "LiveFile", "LiveMatch", "LocalWatch", "local_feed"]

BATCH_S = 0.25
"""How often a run's match writes its live events (:class:`LiveFile`): the server's follower
reads the live folder no more often."""

_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


class Feed(Protocol):
    """A match's ``watch`` that is closed once the match is played."""

    def __call__(self, event: Mapping[str, Any]) -> None:
        """One public event of the match."""

    def close(self) -> None:
        """The match is played (its record follows)."""


class LiveFile:
    """A ``watch`` that appends each public event to ``path`` as a JSON line, flushed.

    With ``batch_s`` the events are kept and written together, at most every ``batch_s``
    seconds, the first ``batch_s`` after the match began: a match over sooner writes none of
    them (none of the follower's reads could have shown it in play), only its first line, that
    it is in play, and its last, that it was played. Its record follows with every move.
    """

    def __init__(self, path: Path, spec: MatchSpec, batch_s: float | None = None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file = path.open("a", encoding="utf-8")
        self._batch_s = batch_s
        self._kept: list[Mapping[str, Any]] = []
        self._due = time.monotonic() + (batch_s or 0.0)
        self._followed = batch_s is None
        """Whether its events are written (always without ``batch_s``)."""
        self._write([{"type": "live", "match": spec.match_id, "set": spec.set,
                      "round": spec.round, "labels": spec.labels}])

    def __call__(self, event: Mapping[str, Any]) -> None:
        if self._batch_s is None:
            self._write([event])
            return
        self._kept.append(event)
        if time.monotonic() >= self._due:
            self._followed = True
            self._write(self._kept)
            self._kept.clear()
            self._due = time.monotonic() + self._batch_s

    def _write(self, events: list[Mapping[str, Any]]) -> None:
        self._file.write("".join([_ENCODE(event) + "\n" for event in events]))
        self._file.flush()

    def close(self) -> None:
        """Mark the match played (its record follows) and close the file."""
        with contextlib.suppress(OSError, ValueError):
            self._write([*(self._kept if self._followed else ()), {"type": "played"}])
            self._file.close()


class LocalWatch:
    """The ``watch`` of a match played in the server's own process: each event joins the
    match in play (``match``, which the follower lists) and ``flush`` publishes what is new
    of it on the hub. ``soon`` runs ``flush`` in the server's trio run (called in it: at the
    follower's next step; from the runner's thread: ``run_sync_soon``), one pending at a
    time; ``watched`` says whether anyone listens to the event now (else it waits in the
    match's list, where a new subscriber's snapshot finds it)."""

    def __init__(self, match: InPlay, flush: Callable[[], None],
                 soon: Callable[[Callable[[], None]], None],
                 watched: Callable[[Mapping[str, Any]], bool]) -> None:
        self.match = match
        self._flush = flush
        self._soon = soon
        self._watched = watched
        self._pending = False

    def __call__(self, event: Mapping[str, Any]) -> None:
        self.match.events.append(event if type(event) is dict else dict(event))
        if not self._pending and self._watched(event):
            self._pending = True
            self._soon(self._publish)

    def _publish(self) -> None:
        self._pending = False
        self._flush()

    def close(self) -> None:
        """The match is played: what is left is published (its record follows)."""
        self.match.played = True
        self.match.closed_at = time.monotonic()
        self._pending = True
        self._soon(self._publish)


_LOCAL: dict[str, tuple[int, Callable[[MatchSpec], Feed]]] = {}
"""The served run folders of this process: folder -> (the server's pid, its local feed)."""


@contextlib.contextmanager
def local_feed(folder: Path, feed: Callable[[MatchSpec], Feed]) -> Any:
    """While the block runs, the matches of ``folder`` that :class:`LiveMatch` plays in this
    process (not in a worker forked from it) publish through ``feed``, not a live file."""
    key = str(Path(folder).resolve())
    _LOCAL[key] = (os.getpid(), feed)
    try:
        yield
    finally:
        if _LOCAL.get(key, (0,))[0] == os.getpid():
            del _LOCAL[key]


@dataclass(frozen=True)
class LiveMatch:
    """A match function (``run_tournament(match_fn=...)``) that plays the match with the
    referee and hands its public events meanwhile to the server of ``folder`` when it is
    served from this process (``arena run --serve`` with one job), else to the live file
    ``folder/live/<match-id>.jsonl``. Picklable: it runs in worker processes and Dask tasks
    alike.

    A match begun while nobody follows the run's matches in play (no ``folder/live/watched``,
    :data:`~arena.web._live.WATCHED`: one ``stat`` a match) is played as without a server: no
    public events, no live file; it is not listed in play, and the first matches begun once
    someone follows are."""

    folder: str

    def __call__(self, spec: MatchSpec) -> dict[str, Any]:
        if not os.path.exists(os.path.join(self.folder, LIVE_DIR, WATCHED)):
            return run_match(spec)
        local = _LOCAL.get(str(Path(self.folder).resolve()))
        live: Feed
        if local is not None and local[0] == os.getpid():
            live = local[1](spec)
        else:
            live = LiveFile(Path(self.folder) / LIVE_DIR / f"{spec.match_id}.jsonl", spec,
                            batch_s=BATCH_S)
        try:
            return run_match(spec, watch=live)
        finally:
            live.close()
