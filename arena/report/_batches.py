"""The report's replay files and match index: each batch of matches replayed once.

A replay file (``data/replays/NNNNN.js``) holds :data:`BATCH` matches in short keys with
their replayed events, gzip-compressed and base64-encoded; ``data/matches.js`` is the match
list, column by column (docs/report.md).
"""

from __future__ import annotations

import base64
import collections
import concurrent.futures
import gzip
import hashlib
import json
import multiprocessing
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena._version import __version__
from arena.tournament import fork_worker_init

from ._replay import ReplayError, moves_as_recorded, replay_deals

__all__ = ["BATCH", "REPLAYS", "MatchIndex", "Replays", "read_js"]

BATCH = 200
"""Matches per replay file: small enough to load at once, few enough files for 100,000."""

REPLAYS = 100_000
"""The latest matches a report replays (:func:`arena.report.write_report`'s ``replays``):
a replay costs some 2 ms of CPU a match and 1.7 kB of the report, ten times a match listed
alone, so the report of a run of a million matches costs about what a listed match does
(docs/report.md, "Files, and large runs")."""

FORMAT = 1
"""Version of the replay files; a report of another format or arena version is not reused."""


class Replays:
    """Writes the replay files batch by batch, reusing those of the report being replaced.

    During a run records are only appended, so a full batch of the old report whose matches
    are the same (same ids, seeds, timings) is copied instead of replayed again: refreshing
    the report of a large run replays only the newest matches. With ``jobs`` above 1 the
    batches to replay are replayed (and their files written) by that many worker processes
    at once, a few batches ahead of the index, which takes them in order.
    """

    def __init__(self, building: Path, target: Path, index: MatchIndex, jobs: int = 1,
                 before: int = 0) -> None:
        self.building = building
        self.before = before
        """A batch wholly within the records' first ``before`` lines is not replayed."""
        self.line = 0  # the line of the latest record added
        self.target = target
        self.index = index
        self.jobs = jobs
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        # batches handed out, oldest first: their records and their errors (or their future)
        self.queue: collections.deque[
            tuple[list[Mapping[str, Any]], list[str | None] | concurrent.futures.Future[
                list[str | None]]]] = collections.deque()
        self.pending: list[Mapping[str, Any]] = []
        self.batches = 0
        self.reused = 0
        self.listed_only = 0  # matches listed without their replay
        self.unreplayable: list[str] = []
        self.old_keys: list[str] = []
        self.old_errors: dict[str, str] = {}
        try:
            old = read_js(target / "data" / "matches.js")
        except (OSError, ValueError):
            return
        if isinstance(old, dict) and old.get("format") == [FORMAT, __version__] \
                and old.get("batch") == BATCH:
            self.old_keys = [str(k) for k in old.get("keys") or []]
            self.old_errors = {str(k): str(v) for k, v in (old.get("errors") or {}).items()}

    def add(self, record: Mapping[str, Any], line: int = 0) -> None:
        """Add the next match, read from the records' line ``line`` (from 1)."""
        self.pending.append(record)
        self.line = line
        if len(self.pending) == BATCH:
            self._hand_out()

    def flush(self) -> None:
        """Hand out the last batch and wait for every batch; the index then holds them all."""
        self._hand_out()
        try:
            while self.queue:
                self._take_oldest()
        finally:
            self.close()

    def close(self) -> None:
        """Let the workers go (the batches not begun are dropped); the pass calls it however
        it ends, so that an error or Ctrl-C in it does not wait for the batches queued."""
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def _hand_out(self) -> None:
        if not self.pending:
            return
        records, self.pending = self.pending, []
        number, first = self.batches, self.batches * BATCH
        key = batch_key(records)
        name = Path("data", "replays", f"{number:05d}.js")
        old = self.target / name
        if self.line <= self.before:  # listed alone: no replay file
            self.queue.append((records, [None] * len(records)))
            self.index.replayed_from = number + 1
            self.listed_only += len(records)
        elif len(records) == BATCH and number < len(self.old_keys) \
                and self.old_keys[number] == key and old.is_file():
            shutil.copyfile(old, self.building / name)
            self.queue.append((records, [self.old_errors.get(str(first + offset))
                                         for offset in range(len(records))]))
            self.reused += 1
        elif self.jobs > 1:
            if self.pool is None:
                # Forked: the workers start at once and share what is loaded already; they
                # end with this process, however it ends (killed, they would go on replaying
                # the batches queued and then wait for more, for ever).
                self.pool = concurrent.futures.ProcessPoolExecutor(
                    self.jobs, mp_context=multiprocessing.get_context("fork"),
                    initializer=fork_worker_init)
            self.queue.append((records, self.pool.submit(replay_batch, self.building, number,
                                                         records)))
        else:
            self.queue.append((records, replay_batch(self.building, number, records)))
        self.index.keys.append(key)
        self.batches += 1
        while len(self.queue) > 2 * self.jobs:
            self._take_oldest()

    def _take_oldest(self) -> None:
        records, errors = self.queue.popleft()
        if isinstance(errors, concurrent.futures.Future):
            errors = errors.result()
        for record, error in zip(records, errors, strict=True):
            self.index.add(record, error)
            if error is not None:
                self.unreplayable.append(error)


def replay_batch(building: Path, number: int, records: list[Mapping[str, Any]]
                  ) -> list[str | None]:
    """Replay one batch of records and write its replay file; each record's error or None."""
    entries, errors = [], []
    for record in records:
        try:
            deals: list[Any] | None = replay_deals(record)
            error = None
        except ReplayError as exc:
            deals, error = None, str(exc)
        errors.append(error)
        entries.append(replay_entry(record, deals, error))
    write_batch(building, number, entries)
    return errors


def batch_key(records: list[Mapping[str, Any]]) -> str:
    """What tells a batch's matches apart from any others: ids, seeds, results and timings."""
    digest = hashlib.sha256()
    for r in records:
        digest.update(repr((r.get("match_id"), r.get("seed"), r.get("scores"),
                            r.get("decisions"), r.get("wall_s"))).encode())
    return digest.hexdigest()[:32]


def read_js(path: Path) -> Any:
    """The value a ``window.NAME=...;`` file of this report holds."""
    text = path.read_text(encoding="utf-8")
    start = text.index("=") + 1
    return json.loads(text[start:text.rindex(";")])


class MatchIndex:
    """The match list, column by column (a 100,000-match list stays a few megabytes)."""

    def __init__(self) -> None:
        self.labels: dict[str, int] = {}
        self.ids: list[str] = []
        self.seats: list[list[int]] = []
        self.scores: list[list[int]] = []
        self.ranking: list[list[int]] = []
        self.rounds: list[Any] = []
        self.faults: list[int] = []
        self.errors: dict[int, str] = {}
        self.stand_in: dict[int, list[int]] = {}  # the seats a stand-in played for, partly
        self.keys: list[str] = []  # per replay file: what its matches were
        self.replayed_from = 0
        """The first batch replayed: the matches of those before have no replay file."""

    def add(self, record: Mapping[str, Any], error: str | None) -> None:
        position = len(self.ids)
        self.ids.append(str(record["match_id"]))
        self.seats.append([self.labels.setdefault(s["label"], len(self.labels))
                           for s in record["seats"]])
        self.scores.append(list(record.get("scores") or []))
        self.ranking.append(list(record.get("ranking") or []))
        self.rounds.append(record.get("round"))
        self.faults.append(sum(len(d.get("faults") or ()) for d in record.get("deals") or ()))
        if error is not None:
            self.errors[position] = error
        stood = [n for n, s in enumerate(record["seats"]) if stand_in_of(s) is not None]
        if stood:
            self.stand_in[position] = stood

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "ids": self.ids,
            "seats": self.seats,
            "scores": self.scores,
            "ranking": self.ranking,
            "rounds": self.rounds,
            "faults": self.faults,
            "errors": self.errors,
            "stand_in": self.stand_in,
            "batch": BATCH,
            "keys": self.keys,
            "replayed_from": self.replayed_from,
            "format": [FORMAT, __version__],
        }


def replay_entry(record: Mapping[str, Any], deals: list[Any] | None,
                  error: str | None) -> dict[str, Any]:
    """One match of a replay file: the record in short keys, with the replayed events."""
    out_deals = []
    for number, deal in enumerate(record.get("deals") or ()):
        if deals is not None:
            events = [[e.seat, e.text, e.ms, e.flags] + ([e.fault] if e.fault else [])
                      for e in deals[number]]
        else:  # shown as recorded, without what only a replay tells
            events = [[seat, move, ms, 0] for seat, move, ms in moves_as_recorded(deal)]
        out_deals.append({
            "deal": deal.get("deal", number),
            "seed": str(deal.get("seed")),
            "hands": [" ".join(hand) for hand in deal.get("hands") or ()],
            "roles": deal.get("roles"),
            "exchanges": [[e["from"], e["to"], " ".join(e["cards"]), e["kind"]]
                          for e in deal.get("exchanges") or ()],
            "leader": deal.get("leader"),
            "events": events,
            "faults": [[f["seat"], f["kind"], f.get("move"), f.get("stage"),
                        str(f.get("detail", ""))[:500]] for f in deal.get("faults") or ()],
            "finish_order": deal.get("finish_order"),
            "points": deal.get("points"),
        })
    return {
        "id": record.get("match_id"),
        "seed": str(record.get("seed")),
        "set": record.get("set"),
        "round": record.get("round"),
        "seats": [{**{k: s.get(k) for k in ("label", "bot", "plugin", "version", "host")},
                   **_person(s)} for s in record["seats"]],
        "rules": record.get("rules"),
        "limits": record.get("limits"),
        "scores": record.get("scores"),
        "ranking": record.get("ranking"),
        "wall_s": record.get("wall_s"),
        "arena_version": record.get("arena_version"),
        "error": error,
        "deals": out_deals,
    }


def stand_in_of(seat: Mapping[str, Any]) -> dict[str, Any] | None:
    """A person's seat's stand-in as its record holds it (``{"bot", "decisions"}``, each
    decision ``{"deal", "kind", "move"}``), when it decided for the seat; else None."""
    stand_in = seat.get("stand_in")
    if not isinstance(stand_in, Mapping) or not isinstance(stand_in.get("decisions"), list):
        return None
    return dict(stand_in)


def _person(seat: Mapping[str, Any]) -> dict[str, Any]:
    """What a replay shows of a person's seat (host ``web``): the display name, and the
    stand-in (its bot, and the moves it made as ``[deal, move]``) when it played."""
    if seat.get("host") != "web":
        return {}
    out: dict[str, Any] = {"name": str(seat.get("name") or "")[:80]}
    stand_in = stand_in_of(seat)
    if stand_in is not None:
        out["stand_in"] = {"bot": str(stand_in.get("bot"))[:80], "moves": [
            [d.get("deal"), d.get("move")] for d in stand_in["decisions"]
            if isinstance(d, Mapping) and d.get("kind") == "play"],
            "decisions": len(stand_in["decisions"])}
    return out


def write_batch(folder: Path, number: int, batch: list[dict[str, Any]]) -> None:
    raw = json.dumps(batch, separators=(",", ":"), ensure_ascii=False).encode()
    packed = base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")
    path = folder / "data" / "replays" / f"{number:05d}.js"
    path.write_text(f'ARENA_BATCH({number},"{packed}");\n', encoding="ascii")
