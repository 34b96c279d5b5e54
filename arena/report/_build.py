"""Writing the HTML report of a run: one pass over the records, files a browser opens from disk.

Layout of ``OUT/report/`` (docs/report.md):

- ``index.html``, ``report.js``, ``report.css``: the page, copied from the package;
- ``data/summary.js``: leaderboard, standings, per-bot timings, the course of the run, config;
- ``data/matches.js``: the match list, column by column;
- ``data/replays/NNNNN.js``: the replays of one batch of matches, gzip-compressed and
  base64-encoded, loaded by a ``<script>`` tag when a match of the batch is opened (``fetch``
  does not work from ``file://``).

The report is written beside the old one and swapped in at the end, so a browser (or a run
refreshing its report) never sees a half-written report.
"""

from __future__ import annotations

import base64
import collections
import concurrent.futures
import gzip
import hashlib
import json
import math
import multiprocessing
import os
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from arena._version import __version__
from arena.ratings import (
    CONFIDENCE,
    RESAMPLES,
    SEED,
    Results,
    finite,
    rate_results,
    read_many,
)
from arena.records import FaultLog, deal_moves
from arena.tournament import ConfigError, Standings, parse_config

from ._replay import ReplayError, moves_as_recorded, replay_deals

__all__ = ["BATCH", "REPORT_DIR", "ReportResult", "write_report"]

BATCH = 200
"""Matches per replay file: small enough to load at once, few enough files for 100,000."""
REPORT_DIR = "report"
_STATIC = ("index.html", "report.js", "report.css")
_COURSE_POINTS = 60


@dataclass
class ReportResult:
    """What :func:`write_report` wrote."""

    index: Path
    matches: int
    batches: int
    unreplayable: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    reused: int = 0
    """Replay files copied from the report this one replaced (their matches unchanged)."""


class _ThinkTimes:
    """Median and 95th percentile of many think times in bounded memory.

    Times are counted in logarithmic bins 1% wide from 1 microsecond up, so a quantile is
    exact to within 1% whatever the number of moves (bin 0 holds everything below 1 us).
    """

    _RATIO = math.log(1.01)
    _BINS = 2200  # up to ~50 minutes

    def __init__(self) -> None:
        self.counts = np.zeros(self._BINS, dtype=np.int64)
        self.pending: list[float] = []

    def add(self, ms: float) -> None:
        self.pending.append(ms)
        if len(self.pending) >= 65536:
            self._flush()

    def _flush(self) -> None:
        if not self.pending:
            return
        values = np.asarray(self.pending, dtype=np.float64)
        self.pending = []
        bins = np.zeros(values.shape, dtype=np.int64)
        positive = values >= 0.001
        bins[positive] = 1 + np.floor(np.log(values[positive] / 0.001) / self._RATIO)
        np.clip(bins, 0, self._BINS - 1, out=bins)
        self.counts += np.bincount(bins, minlength=self._BINS)

    def quantile(self, q: float) -> float | None:
        self._flush()
        total = int(self.counts.sum())
        if not total:
            return None
        k = int(np.searchsorted(np.cumsum(self.counts), q * total, side="left"))
        if k == 0:
            return 0.0
        # the middle of the bin, on the log scale
        return float(0.001 * math.exp((k - 0.5) * self._RATIO))


class _BotStats:
    def __init__(self) -> None:
        self.times = _ThinkTimes()
        self.moves = 0
        self.faults: dict[str, int] = {}
        self.identity: set[tuple[str, str, str]] = set()


def write_report(
    folder: str | os.PathLike[str],
    records: Iterable[str | os.PathLike[str]] | None = None,
    *,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    on_skip: Callable[[str], None] | None = None,
    jobs: int = 1,
) -> ReportResult:
    """Write ``folder/report/`` from the records of a run (default ``folder/records.jsonl``).

    ``jobs`` worker processes replay the matches (forked: call it with more than 1 only
    from a process that runs no other threads, as ``arena report`` does).

    ``config.yaml`` in ``folder`` (the copy ``arena run`` keeps) is shown in the report when it
    exists. The leaderboard is :func:`arena.ratings.rate_results` with ``confidence``,
    ``resamples`` and ``seed``, the same numbers ``arena ratings`` prints. Raises
    :class:`arena.ratings.RatingsError` for a missing or unreadable records file.
    """
    folder = Path(folder)
    paths = [Path(p) for p in records] if records is not None else [folder / "records.jsonl"]
    target = folder / REPORT_DIR
    building = folder / f".{REPORT_DIR}.new"
    if building.exists():
        shutil.rmtree(building)
    (building / "data" / "replays").mkdir(parents=True)
    skipped: list[str] = []

    def skip(message: str) -> None:
        skipped.append(message)
        if on_skip is not None:
            on_skip(message)

    results = Results()
    standings = Standings([])
    stats: dict[str, _BotStats] = {}
    index = _MatchIndex()
    replays = _Replays(building, target, index, jobs)
    arena_versions: set[str] = set()
    seen: set[str] = set()
    faults = FaultLog()
    for record in read_many(paths, skip):
        match_id = str(record.get("match_id"))
        if match_id in seen:  # counted once, as the ratings count it
            continue
        seen.add(match_id)
        results.add(record)
        standings.add(record)
        arena_versions.add(str(record.get("arena_version")))
        _count(record, stats)
        faults.add(record)
        replays.add(record)
    replays.flush()
    unreplayable = replays.unreplayable
    batches = replays.batches

    board = rate_results(results, confidence=confidence, resamples=resamples, seed=seed)
    config_text = _read_text(folder / "config.yaml")
    summary = {
        "name": _run_name(config_text, folder),
        "records": [str(p) for p in paths],
        "leaderboard": finite(board.to_dict()),
        "standings": standings.to_list(),
        "bots": {label: _bot_summary(label, s, faults) for label, s in sorted(stats.items())},
        "course": _course(results),
        "config": config_text,
        "versions": {"arena": sorted(arena_versions)},
        "skipped": skipped[:100],
        "unreplayable": unreplayable[:100],
        "batch": BATCH,
    }
    _write_js(building / "data" / "summary.js", "ARENA_SUMMARY", summary)
    _write_js(building / "data" / "matches.js", "ARENA_MATCHES", index.to_dict())
    static = resources.files("arena.report") / "static"
    for name in _STATIC:
        (building / name).write_bytes((static / name).read_bytes())
    _swap(building, target)
    return ReportResult(target / "index.html", len(seen), batches, unreplayable, skipped,
                        replays.reused)


_FORMAT = 1
"""Version of the replay files; a report of another format or arena version is not reused."""


class _Replays:
    """Writes the replay files batch by batch, reusing those of the report being replaced.

    During a run records are only appended, so a full batch of the old report whose matches
    are the same (same ids, seeds, timings) is copied instead of replayed again: refreshing
    the report of a large run replays only the newest matches. With ``jobs`` above 1 the
    batches to replay are replayed (and their files written) by that many worker processes
    at once, a few batches ahead of the index, which takes them in order.
    """

    def __init__(self, building: Path, target: Path, index: _MatchIndex, jobs: int = 1) -> None:
        self.building = building
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
        self.unreplayable: list[str] = []
        self.old_keys: list[str] = []
        self.old_errors: dict[str, str] = {}
        try:
            old = _read_js(target / "data" / "matches.js")
        except (OSError, ValueError):
            return
        if isinstance(old, dict) and old.get("format") == [_FORMAT, __version__] \
                and old.get("batch") == BATCH:
            self.old_keys = [str(k) for k in old.get("keys") or []]
            self.old_errors = {str(k): str(v) for k, v in (old.get("errors") or {}).items()}

    def add(self, record: Mapping[str, Any]) -> None:
        self.pending.append(record)
        if len(self.pending) == BATCH:
            self._hand_out()

    def flush(self) -> None:
        """Hand out the last batch and wait for every batch; the index then holds them all."""
        self._hand_out()
        try:
            while self.queue:
                self._take_oldest()
        finally:
            if self.pool is not None:
                self.pool.shutdown(cancel_futures=True)
                self.pool = None

    def _hand_out(self) -> None:
        if not self.pending:
            return
        records, self.pending = self.pending, []
        number, first = self.batches, self.batches * BATCH
        key = _batch_key(records)
        name = Path("data", "replays", f"{number:05d}.js")
        old = self.target / name
        if len(records) == BATCH and number < len(self.old_keys) \
                and self.old_keys[number] == key and old.is_file():
            shutil.copyfile(old, self.building / name)
            self.queue.append((records, [self.old_errors.get(str(first + offset))
                                         for offset in range(len(records))]))
            self.reused += 1
        elif self.jobs > 1:
            if self.pool is None:
                # Forked: the workers start at once and share what is loaded already.
                self.pool = concurrent.futures.ProcessPoolExecutor(
                    self.jobs, mp_context=multiprocessing.get_context("fork"))
            self.queue.append((records, self.pool.submit(_replay_batch, self.building, number,
                                                         records)))
        else:
            self.queue.append((records, _replay_batch(self.building, number, records)))
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


def _replay_batch(building: Path, number: int, records: list[Mapping[str, Any]]
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
        entries.append(_replay_entry(record, deals, error))
    _write_batch(building, number, entries)
    return errors


def _batch_key(records: list[Mapping[str, Any]]) -> str:
    """What tells a batch's matches apart from any others: ids, seeds, results and timings."""
    digest = hashlib.sha256()
    for r in records:
        digest.update(repr((r.get("match_id"), r.get("seed"), r.get("scores"),
                            r.get("decisions"), r.get("wall_s"))).encode())
    return digest.hexdigest()[:32]


def _read_js(path: Path) -> Any:
    """The value a ``window.NAME=...;`` file of this report holds."""
    text = path.read_text(encoding="utf-8")
    start = text.index("=") + 1
    return json.loads(text[start:text.rindex(";")])


class _MatchIndex:
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
        self.keys: list[str] = []  # per replay file: what its matches were

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
            "batch": BATCH,
            "keys": self.keys,
            "format": [_FORMAT, __version__],
        }


def _count(record: Mapping[str, Any], stats: dict[str, _BotStats]) -> None:
    seats = record["seats"]
    lines = []
    for seat in seats:
        line = stats.get(seat["label"])
        if line is None:
            line = stats[seat["label"]] = _BotStats()
        line.identity.add((str(seat.get("bot")), str(seat.get("plugin")),
                           str(seat.get("version"))))
        lines.append(line)
    for deal in record.get("deals") or ():
        try:
            moves = deal_moves(deal)
        except ValueError:  # its replay entry says what is wrong
            moves = []
        for seat, _, ms in moves:
            line = lines[seat]
            line.moves += 1
            if ms is not None:
                line.times.add(ms)
        for fault in deal.get("faults") or ():
            faults = lines[fault["seat"]].faults
            faults[fault["kind"]] = faults.get(fault["kind"], 0) + 1


def _bot_summary(label: str, stats: _BotStats, faults: FaultLog) -> dict[str, Any]:
    log = faults.bots.get(label)
    line = log.line() if log is not None else None
    return {
        # A bot that never made a move of its own (it could not start, say): its place is
        # no measure of its play, and the report says so with its first fault.
        "never_played": log is not None and log.silent,
        "first_fault": line.removeprefix(f"{label}: ") if line else None,
        "moves": stats.moves,
        "faults": sum(stats.faults.values()),
        "fault_kinds": dict(sorted(stats.faults.items())),
        "time_losses": stats.faults.get("timeout", 0),
        "think_median_ms": stats.times.quantile(0.5),
        "think_p95_ms": stats.times.quantile(0.95),
        "versions": [{"bot": b, "plugin": p, "version": v} for b, p, v in sorted(stats.identity)],
    }


def _course(results: Results) -> dict[str, Any]:
    """Each bot's mean deal score so far at evenly spaced points of the run (match-id order)."""
    data = results.arrays()
    deals = len(data.deal_size)
    bots = len(data.labels)
    if not deals:
        return {"deals": [], "series": {}}
    steps = range(1, 1 + _COURSE_POINTS)
    points = sorted({max(1, round(deals * k / _COURSE_POINTS)) for k in steps})
    starts = np.append(data.deal_start, len(data.label))
    totals = np.zeros(bots)
    counts = np.zeros(bots)
    series: list[list[float | None]] = [[] for _ in range(bots)]
    previous = 0
    for point in points:
        rows = slice(int(starts[previous]), int(starts[point]))
        totals += np.bincount(data.label[rows], weights=data.score[rows], minlength=bots)
        counts += np.bincount(data.label[rows], minlength=bots)
        previous = point
        for i in range(bots):
            series[i].append(round(float(totals[i] / counts[i]), 4) if counts[i] else None)
    return {"deals": points, "series": dict(zip(data.labels, series, strict=True))}


def _replay_entry(record: Mapping[str, Any], deals: list[Any] | None,
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
        "seats": [{k: s.get(k) for k in ("label", "bot", "plugin", "version", "host")}
                  for s in record["seats"]],
        "rules": record.get("rules"),
        "limits": record.get("limits"),
        "scores": record.get("scores"),
        "ranking": record.get("ranking"),
        "wall_s": record.get("wall_s"),
        "arena_version": record.get("arena_version"),
        "error": error,
        "deals": out_deals,
    }


def _write_batch(folder: Path, number: int, batch: list[dict[str, Any]]) -> None:
    raw = json.dumps(batch, separators=(",", ":"), ensure_ascii=False).encode()
    packed = base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")
    path = folder / "data" / "replays" / f"{number:05d}.js"
    path.write_text(f'ARENA_BATCH({number},"{packed}");\n', encoding="ascii")


def _write_js(path: Path, name: str, value: Any) -> None:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    # "</" would end an inline script; a separate file needs no escaping, but stay safe.
    text = text.replace("</", "<\\/")
    path.write_text(f"window.{name}={text};\n", encoding="utf-8")


def _swap(building: Path, target: Path) -> None:
    old = target.with_name(f".{target.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        target.rename(old)
    building.rename(target)
    if old.exists():
        shutil.rmtree(old)


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _run_name(config_text: str | None, folder: Path) -> str:
    """The config's ``name`` as the tournament parses it, else the folder's."""
    try:
        return parse_config(config_text, check_bots=False).name if config_text else \
            folder.resolve().name
    except ConfigError:
        return folder.resolve().name


