"""A run played while it is served: the reporter that feeds the hub and the live folder."""

from __future__ import annotations

import collections
import json
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.tournament import Reporter

from ._live import LIVE_DIR, valid_id

if TYPE_CHECKING:
    from arena.ratings import SprtStatus
    from arena.tournament import LeagueStatus, Standings

    from ._hub import Hub

__all__ = ["KEEP_S", "LEAGUE_STATUS", "WebReporter", "read_league_status"]

KEEP_S = 5.0
"""How long a recorded match's live file stays: a server reads its last events meanwhile."""

LEAGUE_STATUS = "league.json"
"""``OUT/live/league.json``: a league's last status (LeagueStatus), for any server."""


def read_league_status(folder: Path) -> dict[str, Any] | None:
    """The league status the run in ``folder`` last wrote, or None."""
    try:
        data = json.loads((folder / LIVE_DIR / LEAGUE_STATUS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


class WebReporter(Reporter):
    """Passes every call on to ``inner`` and tells the web: each recorded match pokes the
    follower (``poke``: the standings and match list are published at once, not at its next
    look), each league round's status is published as ``"league"`` and kept in
    ``OUT/live/league.json``, an sprt's status as ``"sprt"``.

    Called from the runner's thread: it reaches the hub through
    :meth:`Hub.publish_threadsafe`. Without a hub (``arena run --live``) it only writes.
    """

    def __init__(self, folder: Path, hub: Hub | None = None, inner: Reporter | None = None,
                 poke: Callable[[], None] | None = None) -> None:
        self.folder = folder
        self.hub = hub
        self.inner = inner
        self.poke = poke
        self._recorded: collections.deque[tuple[float, str]] = collections.deque()

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        if self.inner is not None:
            self.inner.start(total, done, standings, jobs)
        for stale in (self.folder / LIVE_DIR).glob("*.jsonl"):  # of a run that was stopped
            stale.unlink(missing_ok=True)
        self._publish("progress", {"type": "progress", "total": total, "done": done})

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        if self.inner is not None:
            self.inner.match(record, standings)
        match_id = str(record.get("match_id"))
        if valid_id(match_id):  # recorded: its live file goes a little later
            self._recorded.append((time.monotonic(), match_id))
        self._remove_live(time.monotonic() - KEEP_S)
        if self.poke is not None:
            self.poke()

    def sprt(self, status: SprtStatus) -> None:
        if self.inner is not None:
            self.inner.sprt(status)
        self._publish("sprt", {"type": "sprt", "line": status.summary()})

    def league(self, status: LeagueStatus) -> None:
        if self.inner is not None:
            self.inner.league(status)
        data = status.to_dict()
        folder = self.folder / LIVE_DIR
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{LEAGUE_STATUS}.new"
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, folder / LEAGUE_STATUS)
        self._publish("league", {"type": "league", "status": data})

    def note(self, line: str) -> None:
        if self.inner is not None:
            self.inner.note(line)

    def stop(self) -> None:
        if self.inner is not None:
            self.inner.stop()
        self._remove_live(float("inf"))
        if self.poke is not None:
            self.poke()

    def _remove_live(self, before: float) -> None:
        """Remove the live files of the matches recorded before ``before`` (monotonic)."""
        recorded = self._recorded
        while recorded and recorded[0][0] <= before:
            _, match_id = recorded.popleft()
            (self.folder / LIVE_DIR / f"{match_id}.jsonl").unlink(missing_ok=True)

    def _publish(self, topic: str, event: Mapping[str, Any]) -> None:
        if self.hub is not None:
            self.hub.publish_threadsafe(topic, event)
