"""Which bots faulted, how, and whether they ever played: a summary read from match records.

A tournament's organiser must see at a glance that an entrant never
started (a missing interpreter, a memory cap its runtime cannot live
under) instead of finding it at the bottom of the standings with no
explanation. :class:`FaultLog` counts, per bot label, the matches it
played, the moves it made itself, and the matches in which each kind of
fault happened, keeping the first detail of each kind.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._bounds import printable
from ._schema import deal_movers

__all__ = ["FLAG_MIN_MATCHES", "BotFaults", "FaultLog", "short_detail"]

FLAG_MIN_MATCHES = 3
"""A bot is flagged (:attr:`BotFaults.flagged`) once it has played at least this many matches
and faulted in more than half of them."""

_START = "start failed: "
_TAIL = "; output tail: "
_TRACEBACK = "; traceback tail: "
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def short_detail(detail: str, limit: int = 160) -> str:
    """One line of a fault detail: the bot's own last words, not the referee's.

    A crash detail ends with the tail of the bot's output (``; output tail: ...``),
    whose last non-empty line is the bot's own error (the end of its traceback,
    a runtime's fatal message); the referee's part before it says how it ended.
    A Python bot's exception (``; traceback tail: ...``) is shown with its
    innermost frame, which is in the bot's code. Control characters (a terminal's
    escapes) are dropped.
    """
    text = detail[len(_START):] if detail.startswith(_START) else detail
    head, sep, tail = text.partition(_TRACEBACK)
    if sep:  # a Python bot's exception: the error and the innermost frame, the bot's own
        frames = _FRAME.findall(tail)
        if frames:
            file, line, function = frames[-1]
            head = f"{head.strip()} (at {file.rsplit('/', 1)[-1]}:{line} in {function})"
        text = head
    head, sep, tail = text.partition(_TAIL)
    if sep:
        last = [line.strip() for line in tail.splitlines() if line.strip()]
        if last:
            text = f"{last[-1]} ({head.strip()})"
    text = " ".join(printable(text).split())  # shown on a terminal: none of the bot's escapes
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _countable(movers: Sequence[int]) -> Sequence[int]:
    """``movers`` as bytes, whose ``count`` of a seat is a scan of memory where a list's
    compares every entry as an object (a deal's movers are some hundred); the list itself
    when it holds anything but seats from 0 to 255 (``count`` then counts as before)."""
    try:
        return bytes(movers)
    except (TypeError, ValueError):
        return movers


@dataclass
class BotFaults:
    """One bot's faults over the records read so far."""

    label: str
    matches: int = 0
    moves: int = 0
    """Moves the bot chose itself (a forced move after a fault is not counted)."""
    faults: int = 0
    faulted: int = 0
    """Matches in which it faulted at least once."""
    by_kind: Counter[tuple[str, bool]] = field(default_factory=Counter)
    """Matches in which each (kind, at start) happened."""
    first: dict[tuple[str, bool], str] = field(default_factory=dict)
    """The first detail of each (kind, at start)."""

    def line(self) -> str | None:
        """``label: kind [at start] in n/m matches: detail``, or ``None`` without faults."""
        if not self.by_kind:
            return None
        (kind, at_start), count = max(self.by_kind.items(), key=lambda item: (item[1], item[0]))
        where = " at start" if at_start else ""
        return (f"{self.label}: {kind}{where} in {count}/{self.matches} matches: "
                f"{short_detail(self.first[(kind, at_start)])}")

    @property
    def flagged(self) -> bool:
        """Faults in most of its matches: more than half of them, over at least
        :data:`FLAG_MIN_MATCHES` (so one unlucky first match flags nobody)."""
        return self.matches >= FLAG_MIN_MATCHES and 2 * self.faulted > self.matches

    @property
    def silent(self) -> bool:
        """Played matches without ever making a move of its own."""
        return self.matches > 0 and self.moves == 0


class FaultLog:
    """Faults and moves per bot label, fed one match record at a time."""

    def __init__(self, labels: Iterable[str] = ()) -> None:
        self.bots: dict[str, BotFaults] = {label: BotFaults(label) for label in labels}

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one record (records of another ``type`` than ``match`` count nothing)."""
        if record.get("type", "match") != "match":
            return
        labels = [str(seat["label"]) for seat in record["seats"]]
        bots = self.bots
        rows = [bots.get(label) or bots.setdefault(label, BotFaults(label)) for label in labels]
        for row in rows:
            row.matches += 1
        seen: set[tuple[int, str, bool]] = set()
        faulted: set[int] = set()
        # Unless a fault forfeits the deal, the referee plays one move for the seat.
        forced_moves = (record.get("rules") or {}).get("on_fault", "forfeit") != "forfeit"
        moves = [0] * len(rows)  # each seat's own, added to its row once
        own: list[Sequence[int]] = []  # the movers of deals whose every move is its seat's own
        try:
            for deal in record.get("deals") or []:
                _count_deal(deal, rows, moves, own, forced_moves, seen, faulted)
        finally:
            _count_moves(own, moves)
            for row, count in zip(rows, moves, strict=True):
                row.moves += count

    def extend(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Count many records."""
        for record in records:
            self.add(record)

    def lines(self) -> list[str]:
        """One line per bot that faulted, most faults first."""
        rows = sorted(self.bots.values(), key=lambda r: (-r.faults, r.label))
        return [line for row in rows if (line := row.line()) is not None]

    def silent(self) -> list[str]:
        """Labels of bots that played matches but never a move of their own."""
        return [row.label for row in self.bots.values() if row.silent]

    def counts(self) -> dict[str, int]:
        """Faults per label."""
        return {label: row.faults for label, row in self.bots.items()}


def _count_deal(deal: Mapping[str, Any], rows: list[BotFaults], moves: list[int],
                own: list[Sequence[int]], forced_moves: bool,
                seen: set[tuple[int, str, bool]], faulted: set[int]) -> None:
    """Count one deal of a record: its movers into ``own`` (or, when the referee played a
    move for a faulted seat, each seat's own moves into ``moves``), its faults into their
    seats' rows (``seen``, ``faulted``: the record's so far)."""
    movers = _countable(deal_movers(deal))
    faults = deal.get("faults")
    if faults and forced_moves:
        forced = [f["seat"] for f in faults if f.get("stage", "play") == "play"]
        for seat in range(len(moves)):
            moves[seat] += max(0, movers.count(seat) - forced.count(seat))
    else:
        own.append(movers)
    for fault in faults or ():
        seat = fault["seat"]
        detail = str(fault.get("detail") or "")
        key = (str(fault["kind"]), detail.startswith(_START))
        row = rows[seat]
        row.faults += 1
        if seat not in faulted:
            faulted.add(seat)
            row.faulted += 1
        row.first.setdefault(key, detail)
        if (seat, *key) not in seen:
            seen.add((seat, *key))
            row.by_kind[key] += 1


def _count_moves(own: list[Sequence[int]], moves: list[int]) -> None:
    """Add each seat's moves among the movers ``own`` to ``moves``: one count a seat of the
    deals' movers joined, when every one is bytes (:func:`_countable`)."""
    if all(movers.__class__ is bytes for movers in own):
        own = [b"".join(own)]  # type: ignore[arg-type]  # bytes, checked just above
    for movers in own:
        for seat in range(len(moves)):
            moves[seat] += movers.count(seat)
