"""Writing the HTML report of a run: one pass over the records, files a browser opens from disk.

Layout of ``OUT/report/`` (docs/report.md):

- ``index.html``, ``report.js``, ``report.css``: the page, copied from the package;
- ``data/summary.js``: leaderboard, standings, per-bot timings, the course of the run, config;
- ``data/matches.js``: the match list, column by column;
- ``data/replays/NNNNN.js``: the replays of one batch of matches, gzip-compressed and
  base64-encoded, loaded by a ``<script>`` tag when a match of the batch is opened (``fetch``
  does not work from ``file://``): the batches of the latest :data:`REPLAYS` matches (the
  older are listed, each with its results, and not replayed: ``arena show`` replays one).

The report is written beside the old one and swapped in at the end, so a browser (or a run
refreshing its report) never sees a half-written report.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from arena.ratings import (
    CONFIDENCE,
    RESAMPLES,
    SEED,
    Results,
    finite,
    rate_results,
    read_many,
)
from arena.records import FaultLog, public_record, record_lines, records_path
from arena.tournament import ConfigError, Standings, parse_config

from ._batches import BATCH, REPLAYS, MatchIndex, Replays
from ._messages import LANGUAGES, copy_i18n, write_messages
from ._stats import BotStats, bot_summary, count_moves, course

__all__ = ["BATCH", "REPLAYS", "REPORT_DIR", "ReportResult", "write_report"]

REPORT_DIR = "report"
_STATIC = ("index.html", "report.js", "report.css")


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
    unreplayed: int = 0
    """The oldest matches listed without their replay (beyond ``replays``)."""


class _Pass:
    """The one pass over the records: every figure the report draws, each match once."""

    def __init__(self, building: Path, target: Path, jobs: int, before: int) -> None:
        self.results = Results()
        self.standings = Standings([])
        self.stats: dict[str, BotStats] = {}
        self.index = MatchIndex()
        self.replays = Replays(building, target, self.index, jobs, before)
        self.versions: set[str] = set()
        self.seen: set[str] = set()
        self.faults = FaultLog()
        self.stood_in = 0
        """Matches partly played by a person's stand-in (a people's table's)."""

    def read(self, paths: list[Path], skip: Callable[[str], None], public: bool) -> None:
        line = 0  # the lines read so far: the records' and those skipped

        def skipped(message: str) -> None:
            nonlocal line
            line += 1
            skip(message)

        # What the pass keeps (the list, the results, the counts) grows with the records,
        # and each full collection of the garbage collector walked all of it: some 30% of
        # a match's cost at 30,000. It is frozen each batch (gc.freeze: kept out of the
        # collections, still freed when no longer referred to), and let go at the end;
        # unless the process froze objects of its own, which are then left as they are.
        freezing = gc.isenabled() and gc.get_freeze_count() == 0
        try:
            for record in read_many(paths, skipped):
                line += 1
                record = public_record(record) if public else record
                match_id = str(record.get("match_id"))
                if match_id in self.seen:  # counted once, as the ratings count it
                    continue
                self.seen.add(match_id)
                self.results.add(record)
                self.standings.add(record)
                self.versions.add(str(record.get("arena_version")))
                count_moves(record, self.stats)
                self.faults.add(record)
                self.replays.add(record, line)
                self.stood_in += any(isinstance(s, dict) and s.get("stand_in")
                                     for s in record.get("seats") or ())
                if freezing and len(self.seen) % BATCH == 0:
                    gc.freeze()
            self.replays.flush()
        finally:
            self.replays.close()
            if freezing:
                gc.unfreeze()


def write_report(
    folder: str | os.PathLike[str],
    records: Iterable[str | os.PathLike[str]] | None = None,
    *,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    on_skip: Callable[[str], None] | None = None,
    jobs: int = 1,
    people: bool = False,
    lang: str = LANGUAGES[0],
    public: bool = False,
    replays: int | None = REPLAYS,
) -> ReportResult:
    """Write ``folder/report/`` from the records of a run (default ``folder/records.jsonl``).

    ``jobs`` worker processes replay the matches (forked: call it with more than 1 only
    from a process that runs no other threads, as ``arena report`` does).

    ``config.yaml`` in ``folder`` (the copy ``arena run`` keeps) is shown in the report when it
    exists. The leaderboard is :func:`arena.ratings.rate_results` with ``confidence``,
    ``resamples`` and ``seed``, the same numbers ``arena ratings`` prints. ``people``: the
    records are a served run's people's tables' (``OUT/tables/records.jsonl``), and the
    report is titled so. ``lang``: the language the report opens in (one of
    :data:`arena.report.LANGUAGES`; its page's ``?lang=`` and language menu choose another).
    ``public``: its faults' details are the referee's words alone
    (:func:`arena.records.public_record`), as a served run's report shows them.
    ``replays``: the matches of the records' last ``replays`` lines are replayed (their
    batches whole), the older listed with their results alone; None replays every one.
    Raises :class:`arena.ratings.RatingsError` for a missing or unreadable records file.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (the report speaks {', '.join(LANGUAGES)})")
    folder = Path(folder)
    paths = [Path(p) for p in records] if records is not None else [folder / "records.jsonl"]
    target, building = folder / REPORT_DIR, _fresh(folder / f".{REPORT_DIR}.new")
    skipped: list[str] = []

    def skip(message: str) -> None:
        skipped.append(message)
        if on_skip is not None:
            on_skip(message)

    before = 0 if replays is None else max(0, _lines(paths) - replays)
    scan = _Pass(building, target, jobs, before)
    scan.read(paths, skip, public)
    board = rate_results(scan.results, confidence=confidence, resamples=resamples, seed=seed)
    summary = _summary(folder, paths, scan, finite(board.to_dict()), people)
    summary["skipped"] = skipped[:100]
    _write_js(building / "data" / "summary.js", "ARENA_SUMMARY", summary)
    _write_js(building / "data" / "matches.js", "ARENA_MATCHES", scan.index.to_dict())
    _pages(building, lang)
    _swap(building, target)
    return ReportResult(target / "index.html", len(scan.seen), scan.replays.batches,
                        scan.replays.unreplayable, skipped, scan.replays.reused,
                        scan.replays.listed_only)


def _fresh(building: Path) -> Path:
    """``building``, the folder a report is written in before it takes its place, empty."""
    if building.exists():
        shutil.rmtree(building)
    (building / "data" / "replays").mkdir(parents=True)
    return building


def _pages(building: Path, lang: str) -> None:
    """The report's page, its scripts and styles, and its messages in ``lang``."""
    write_messages(building / "data" / "messages.js", lang)
    copy_i18n(building)
    static = resources.files("arena.report") / "static"
    for name in _STATIC:
        (building / name).write_bytes((static / name).read_bytes())


def _lines(paths: list[Path]) -> int:
    """The records' lines (not blank) in ``paths``, as the reader numbers them; a file it
    cannot read counts none (the pass says why)."""
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += sum(1 for _ in record_lines(records_path(path), lambda message: None))
    return total


def _summary(folder: Path, paths: list[Path], scan: _Pass, leaderboard: dict[str, Any],
             people: bool) -> dict[str, Any]:
    """``data/summary.js``'s document (its ``skipped`` lines apart)."""
    config_text = None if people else _read_text(folder / "config.yaml")
    return {
        "name": "" if people else _run_name(config_text, folder),
        "people": people,
        "stood_in": scan.stood_in,
        "records": [str(p) for p in paths],
        "leaderboard": leaderboard,
        "standings": scan.standings.to_list(),
        "bots": {label: bot_summary(label, s, scan.faults)
                 for label, s in sorted(scan.stats.items())},
        "course": course(scan.results),
        "config": config_text,
        "versions": {"arena": sorted(scan.versions)},
        "unreplayable": scan.replays.unreplayable[:100],
        "batch": BATCH,
    }


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


