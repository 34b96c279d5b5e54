"""What the server knows of a run: it follows the run's folder.

The one source is the folder, whichever process runs the matches: ``records.jsonl`` (one
line per finished match, read as it grows) and ``live/<match-id>.jsonl``, one file per match
in play of the match's public events (the ``watch`` argument of the referee), written by
whatever process plays the match (:class:`LiveMatch`, a match function for any executor) and
removed once its record is written. The sandbox hides the whole folder from bots.

The duplicate-set rule: the matches of one duplicate set share their deals, so a match's
cards are shown only once no other match of its set is unplayed or in play. A finished
match's record waits for its whole set (``waiting``); a match in play is *held* (listed,
its moves not published) while another match of its set is unrecorded, which with one
worker leaves only a set's last match to be watched live, and with several keeps two
matches of one set in play from both being shown. How many matches a set has is the
format's to say (``TournamentFormat.set_size``), from the run's config as the tournament
parses it: the config given (a served run's own), else the folder's ``config.yaml`` once the
run has written it; until then every match of a set is held.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from arena.records import (
    READ_BYTES,
    RECORDS,
    TABLE_RECORDS,
    TailReader,
    parse_record,
    parse_summary,
)
from arena.tournament import ConfigError, TournamentConfig, parse_config, tournament_format

from ._in_play import InPlay
from ._match_list import MatchIndex

__all__ = ["LIVE_DIR", "WATCHED", "InPlay", "RunFolder", "valid_id"]

LIVE_DIR = "live"
"""The folder of the run's matches in play, one ``<match-id>.jsonl`` each."""

WATCHED = "watched"
"""The file in :data:`LIVE_DIR` that says someone follows the run's matches in play: the
server's follower keeps it while a spectator subscribes to the match list or a match, and a
run's match begun without it is played with no public events at all (:class:`LiveMatch`)."""

KEEP_S = 5.0
"""How long a recorded match's live file stays: a server reads its last events meanwhile."""

LOCAL_KEEP_S = 5.0
"""How long a match played in this process stays in play after its end without a record."""

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,199}")


def valid_id(text: str) -> bool:
    """Whether ``text`` may be a match id in a URL or a file name (no path in it)."""
    return bool(_ID.fullmatch(text)) and ".." not in text



class RecordsFile:
    """A records file read as it grows (:class:`arena.records.TailReader`): each
    :meth:`read` parses the lines added since."""

    def __init__(self, path: Path) -> None:
        self.tail = TailReader(path)

    def restarted(self) -> bool:
        """Whether the file was replaced or cut since the last read (read it again)."""
        return self.tail.restarted()

    def read(self, skipped: list[str]) -> list[tuple[dict[str, Any], int, int]]:
        """The summaries of the records of the lines added since the last read (a line being
        written is read next time: :func:`arena.records.parse_summary`, no record built), each
        with where its line is in the file (offset, length); what is no record is told in
        ``skipped``."""
        offset = self.tail.offset
        try:
            lines = self.tail.lines(READ_BYTES)
        except OSError:
            return []
        records = []
        for line in lines:
            at, offset = offset, offset + len(line)
            if not line.strip():
                continue
            summary = parse_summary(line)
            if isinstance(summary, str):
                skipped.append(summary)
            else:
                records.append((summary, at, len(line)))
        return records

    def at(self, offset: int, length: int) -> dict[str, Any] | None:
        """The record whose line is at ``offset`` (None when the file changed under it)."""
        try:
            with self.tail.path.open("rb") as file:
                file.seek(offset)
                record = parse_record(file.read(length))
        except OSError:
            return None
        return None if isinstance(record, str) else record


class RunFolder:
    """The records and the matches in play of the run in ``folder``, read as they grow.

    :meth:`refresh` reads what is new; the server calls it before answering and every few
    tenths of a second while a page listens.
    """

    def __init__(self, folder: Path, config: TournamentConfig | None = None) -> None:
        self.folder = folder
        self.config = config
        """The run's config: given, or read from ``config.yaml`` once it is there."""
        self._config_tried: tuple[int, int] | None = None
        self.records: dict[str, dict[str, Any]] = {}
        """Finished matches by id, in the records file's order: what the match list shows
        of each (its id, type, set, round, seats' labels and names, scores, ranking); the
        whole record is read from the file when asked for (:meth:`record`), so the server's
        memory grows by some 300 bytes a match, not by its records file."""
        self._lines: dict[str, tuple[RecordsFile, int, int]] = {}
        self.skipped: list[str] = []
        self.live: dict[str, InPlay] = {}
        self.ended: dict[str, InPlay] = {}
        """Matches in play until the last refresh recorded them, with all their events."""
        self.people: dict[str, dict[str, Any]] = {}
        """The people's tables' finished matches by id (``tables/records.jsonl``): listed
        with the matches, apart from the run's standings and report."""
        self._run_records = RecordsFile(folder / RECORDS)
        self._people_records = RecordsFile(folder / TABLE_RECORDS)
        self._set_done: dict[str, int] = {}  # set id -> its records so far
        self.added: list[str] = []
        """The run's record ids in the order read (since the records file last restarted)."""
        self.people_added: list[str] = []
        self.generation = 0
        """Counts the restarts of the records files (replaced or cut: read again)."""
        self.index = MatchIndex(self)
        """The match list, kept as the run grows."""

    # ------------------------------------------------------------------ reading

    def refresh(self) -> tuple[list[str], list[str]]:
        """Read what is new: ``(ids newly recorded, ids whose live events grew)``. A match
        recorded now leaves :attr:`live` for :attr:`ended` (until the next refresh) with
        every event of its live file read, so that none of its last events is lost."""
        self.ended = {}
        if self.config is None:
            self.config = self._read_config()
        grown = self._read_live()
        return self._read_records(), grown

    def _read_records(self) -> list[str]:
        new: list[str] = []
        for source, into in ((self._run_records, self.records),
                             (self._people_records, self.people)):
            if source.restarted():
                into.clear()
                self._lines = {i: at for i, at in self._lines.items() if at[0] is not source}
                self.generation += 1
                (self.added if into is self.records else self.people_added).clear()
                if into is self.records:
                    self._set_done.clear()
            for record, offset, length in source.read(self.skipped):
                match_id = str(record.get("match_id"))
                if match_id in self.records or match_id in self.people:
                    continue
                into[match_id] = record
                self._lines[match_id] = (source, offset, length)
                set_id = record.get("set")
                if set_id is not None and into is self.records:
                    self._set_done[str(set_id)] = self._set_done.get(str(set_id), 0) + 1
                new.append(match_id)
                (self.added if into is self.records else self.people_added).append(match_id)
                if match_id in self.live:
                    if not self.live[match_id].local:
                        self._read_events(self.folder / LIVE_DIR / f"{match_id}.jsonl",
                                          match_id)
                    self.ended[match_id] = self.live.pop(match_id)
        return new

    def record(self, match_id: str) -> dict[str, Any] | None:
        """The record of the finished match ``match_id``, the run's or a people's table's,
        read from its file (the server keeps a summary of each, :attr:`records`)."""
        where = self._lines.get(match_id)
        return None if where is None else where[0].at(where[1], where[2])

    def recorded(self, match_id: str) -> bool:
        """Whether ``match_id`` is a finished match of the run or of a people's table."""
        return match_id in self.records or match_id in self.people

    def _read_live(self) -> list[str]:
        folder = self.folder / LIVE_DIR
        try:
            names = [entry.name for entry in os.scandir(folder) if entry.name.endswith(".jsonl")]
        except OSError:
            names = []
        grown: list[str] = []
        present = set()
        for name in names:
            match_id = name[: -len(".jsonl")]
            present.add(match_id)
            if self.recorded(match_id):
                continue
            if self._read_events(folder / name, match_id):
                grown.append(match_id)
        now = time.monotonic()
        for gone in set(self.live) - present:
            match = self.live[gone]
            if not match.local or (match.closed_at or now) + LOCAL_KEEP_S < now:
                del self.live[gone]
        return grown

    def add_local(self, match: InPlay) -> None:
        """A match in play in this process (its events come without a file)."""
        if not self.recorded(match.match_id):
            self.live[match.match_id] = match

    def _read_events(self, path: Path, match_id: str) -> bool:
        match = self.live.get(match_id)
        tail = match.tail if match is not None and match.tail is not None else TailReader(path)
        try:
            lines = tail.lines()
        except OSError:
            return False
        if not lines:
            return False
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if not isinstance(event, dict):
                continue
            if match is None:
                if event.get("type") != "live":
                    return False
                match = InPlay(match_id, event.get("set"), list(event.get("labels") or []),
                               event.get("round"), tail=tail)
                self.live[match_id] = match
            elif event.get("type") == "played":
                match.played = True
            else:
                match.events.append(event)
        return match is not None

    # ------------------------------------------------------------------ the set rule

    def _read_config(self) -> TournamentConfig | None:
        """The run's config copy as the tournament parses it; None before the run wrote it
        (or while it cannot be read: read again once it changed)."""
        path = self.folder / "config.yaml"
        try:
            stat = path.stat()
            if (stat.st_mtime_ns, stat.st_size) == self._config_tried:
                return None
            self._config_tried = (stat.st_mtime_ns, stat.st_size)
            return parse_config(path.read_text(encoding="utf-8"), check_bots=False)
        except (OSError, UnicodeDecodeError, ConfigError):
            return None

    def set_size(self, seats: int) -> int | None:
        """Matches of a duplicate set at a table of ``seats``, as the run's format says;
        None while the config is not known."""
        if self.config is None:
            return None
        return tournament_format(self.config.format.type).set_size(self.config, seats)

    def _set_open(self, set_id: str, seats: int, others: int) -> bool:
        """Whether set ``set_id`` has matches unrecorded beyond ``others`` (the ones the
        caller stands for)."""
        size = self.set_size(seats)
        return size is None or self._set_done.get(set_id, 0) < size - others

    def waiting_for_set(self, match_id: str) -> bool:
        """Whether the finished match ``match_id`` waits for its duplicate set: a match of
        the set is in play, or the set has fewer records than matches."""
        record = self.records[match_id]
        set_id = record.get("set")
        if set_id is None:
            return False
        if any(m.set == set_id for m in self.live.values()):
            return True
        return self._set_open(str(set_id), len(record.get("seats") or ()), 0)

    def held(self, match_id: str) -> bool:
        """Whether the match in play ``match_id`` is held: another match of its duplicate set
        is unplayed or in play (its moves would show that match's hands)."""
        match = self.live.get(match_id) or self.ended.get(match_id)
        if match is None or match.set is None:
            return False
        if any(m.set == match.set and i != match_id for i, m in self.live.items()):
            return True
        return self._set_open(str(match.set), len(match.labels), 1)

    # ------------------------------------------------------------------ lists

    def match_list(self) -> list[dict[str, Any]]:
        """Every match, finished or in play, with its state: ``finished`` (its record may be
        shown), ``waiting`` (finished; its set is not), ``error``, ``playing``, ``held`` (in
        play; its moves are not shown while its set is not complete). A people's table's
        finished match follows, marked ``people`` (:class:`~arena.web._match_list.MatchIndex`,
        :attr:`index`)."""
        return self.index.entries()
