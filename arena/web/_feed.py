"""Where a match's public events go: straight to the hub when the match is played in the
server's own process, through a live file when it is played in another.

A match played in the server's process (a people's table in the server's trio run; a run's
match played with :class:`LiveMatch` in a process that serves its folder with ``RunWeb`` too,
through the Python API: ``arena run --serve`` runs its server in a process of its own) hands
its events to a :class:`LocalWatch`: they join the follower's list of matches in play and are
published on the hub (from another thread through one ``run_sync_soon`` at a time, in the
server's run at the follower's next step; only while someone listens). A match played in a worker
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
from typing import Any, Protocol, TextIO

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
    seconds, the first ``batch_s`` after the match began, and the file is made then: a match
    over sooner leaves no file (no read of the follower's could have shown more than that it
    was in play), and until then it does not listen (:meth:`listening`): the referee tells it
    a deal's moves only once it does, the deal in play so far at once
    (:class:`arena.referee.loop._watch.PublicFeed`). Its record follows with every move.
    """

    def __init__(self, path: Path, spec: MatchSpec, batch_s: float | None = None) -> None:
        self.path = path
        self._file: TextIO | None = None
        self._batch_s = batch_s
        self._kept: list[Mapping[str, Any]] = [
            {"type": "live", "match": spec.match_id, "set": spec.set, "round": spec.round,
             "labels": spec.labels}]
        self._due = time.monotonic() + (batch_s or 0.0)
        if batch_s is None:
            self._write()

    def listening(self) -> bool:
        """Whether its first batch is due (the referee tells it every event from then on)."""
        return self._file is not None or time.monotonic() >= self._due

    def __call__(self, event: Mapping[str, Any]) -> None:
        self._kept.append(event)
        if self._batch_s is None or time.monotonic() >= self._due:
            self._write()
            if self._batch_s is not None:
                self._due = time.monotonic() + self._batch_s

    def _write(self) -> None:
        """Write what is kept, the file made at its first write."""
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write("".join([_ENCODE(event) + "\n" for event in self._kept]))
        self._file.flush()
        self._kept.clear()

    def close(self) -> None:
        """Mark the match played (its record follows) and close the file, if it was made."""
        if self._file is None:
            return
        with contextlib.suppress(OSError, ValueError):
            self._kept.append({"type": "played"})
            self._write()
            self._file.close()


class LocalWatch:
    """The ``watch`` of a match played in the server's own process: each event joins the
    match in play (``match``, which the follower lists) and ``flush`` publishes what is new
    of it on the hub. ``soon`` runs ``flush`` in the server's trio run (called in it: at the
    follower's next step; from another thread: ``run_sync_soon``), one pending at a
    time; ``watched`` says whether anyone listens to the event now (else it waits in the
    match's list, where a new subscriber's snapshot finds it). With ``listening`` (someone
    follows the match now), the referee tells it a deal's moves only once someone does, the
    deal in play so far at once (:class:`arena.referee.loop._watch.PublicFeed`); the deals'
    starts and ends, which the match list reads, always."""

    def __init__(self, match: InPlay, flush: Callable[[], None],
                 soon: Callable[[Callable[[], None]], None],
                 watched: Callable[[Mapping[str, Any]], bool],
                 listening: Callable[[], bool] | None = None) -> None:
        self.match = match
        self._flush = flush
        self._soon = soon
        self._watched = watched
        self._pending = False
        self.listening = listening

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
    served from this process (its ``RunWeb`` running here: the Python API, not ``arena run
    --serve``, whose server has a process of its own), else to the live file
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
        local = _LOCAL.get(str(Path(self.folder).resolve())) if _LOCAL else None  # a worker's: none
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
