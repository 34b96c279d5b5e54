"""A match in play, as the server knows it (:class:`InPlay`): read from its live file, or
played in the server's own process."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.records import TailReader

__all__ = ["InPlay"]


@dataclass
class InPlay:
    """A match in play, as its live file tells it so far, or as it is played in this process
    (``local``: its events appended by its :class:`~arena.web._feed.LocalWatch`)."""

    match_id: str
    set: str | None
    labels: list[str]
    round: int | None
    events: list[dict[str, Any]] = field(default_factory=list)
    played: bool = False
    tail: TailReader | None = None
    """Its live file's reader (None for a match played in this process)."""
    local: bool = False
    published: int = 0
    """How many of its events the hub has had (a new subscriber's snapshot ends there)."""
    scores: tuple[int, list[int] | None] = (0, None)
    """The totals after its last deal ended among its first N events (N, totals): the match
    list reads only the events that came since (``_match_list._scores``)."""
    closed_at: float | None = None
    """When a local match was played (monotonic): listed until its record is read, or
    ``LOCAL_KEEP_S`` after that for one that has none (a table that ended unrecorded)."""
