"""Reading record files into :class:`Results` fast: only the fields ratings use are decoded.

A record of a real match is mostly hands, moves and timings (about 1.6 KB a deal); ratings
read only the seats' labels and each deal's finishing order, points and faulting seats. A
typed msgspec decoder skips everything else without building it (about ten times faster than
``json.loads`` on the demo tournament's records, and more than four times faster than
orjson, which must build the whole record), and the per-seat rows of every deal are checked
and placed by numpy in batches rather than one deal at a time in Python.

The result is the same as ``Results().extend(read_many(paths))`` by construction: a line the
typed decoder does not take as it is (another shape, a torn line, a seat that is not a plain
index) goes through the plain reader and :meth:`Results.add`, and if anything is wrong at all
(a malformed record, a missing file) the files are read again the plain way from the start,
so errors and skipped-line messages are exactly the plain path's.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterable
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from arena.records import parse_record, record_lines, records_path

from ._reader import read_many
from ._results import RatingsError, Results

__all__ = ["read_results"]


class _Seat(msgspec.Struct):
    label: str


class _Fault(msgspec.Struct):
    seat: int
    kind: str = ""


class _Forfeit(msgspec.Struct):
    seat: int


class _Exchange(msgspec.Struct, rename={"giver": "from"}):
    giver: int
    to: int


class _Deal(msgspec.Struct):
    finish_order: list[int]
    points: list[float]
    faults: list[_Fault] | None = None
    # Decoded only to be checked as the plain reader checks them (arena.records.parse_record):
    # a record that reader skips is never rated here either.
    leader: int = 0
    movers: list[int] | None = None
    moves: msgspec.Raw = msgspec.Raw(b"null")
    hands: list[msgspec.Raw] | None = None
    roles: list[msgspec.Raw] | None = None
    forfeits: list[_Forfeit] | None = None
    exchanges: list[_Exchange] | None = None


class _Record(msgspec.Struct):
    schema: Any
    type: str = "match"
    match_id: Any = None
    tournament: str | None = None
    set: str | None = None
    seats: list[_Seat] | None = None
    deals: list[_Deal] | None = None
    ranking: list[int] | None = None
    scores: list[float] | None = None
    round: Any = None
    league: Any = None  # a league's field (docs/records.md), checked by Results.note_league


_DECODER = msgspec.json.Decoder(_Record)
_ORDER = attrgetter("finish_order")
_POINTS = attrgetter("points")
_FAULTS = attrgetter("faults")
_SEAT = attrgetter("seat")
_BATCH = 1 << 18  # pending deals placed by numpy at a time
_WIDEST = 62  # seats a table may have for the bitmask check of finishing orders
_LARGEST = 2.0**53  # the largest number a record holds (arena.records' check of records)


class _Unchecked(Exception):
    """The batch check found a deal the plain path must judge: read everything plainly."""


def read_results(
    paths: Iterable[str | Path], on_skip: Callable[[str], None] | None = None
) -> Results:
    """The :class:`Results` of the records of several files, one file after the other.

    Equal to ``Results().extend(read_many(paths, on_skip))`` (same deals, same order, same
    errors and skipped-line messages), only faster: see the module's docstring.
    """
    paths = list(paths)
    heard: list[str] = []
    try:
        results = _Reader(heard.append).read(paths)
    except (RatingsError, _Unchecked):
        results = Results()
        results.extend(read_many(paths, on_skip))
        return results
    for message in heard:
        if on_skip is not None:
            on_skip(message)
    return results


class _Reader:
    def __init__(self, skip: Callable[[str], None]) -> None:
        self._skip = skip
        self.results = Results()
        # deals decoded but not yet checked and placed: seats in finishing order and points
        # in seat order (both flat), and per deal where its match's bot indices start
        self._orders = array("q")
        self._points = array("d")
        self._bases = array("q")
        self._ids = array("q")  # bot index per seat, matches one after the other
        self._first = 0  # the first pending deal in the results

    def read(self, paths: list[str | Path]) -> Results:
        for path in paths:
            p = Path(records_path(path))
            if not p.is_file():
                raise RatingsError(f"{path}: not a records file")  # the plain path says what
            try:
                self._read_file(p)
            except OSError as exc:
                raise RatingsError(f"{p}: cannot read ({exc})") from None
        self._flush()
        return self.results

    def _read_file(self, path: Path) -> None:
        name = os.fspath(path)
        for number, raw in record_lines(path, self._skip):
            try:
                record = _DECODER.decode(raw)
            except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
                record = None
            if record is None or not self._add(record):
                plain = parse_record(raw)
                if isinstance(plain, str):
                    self._skip(f"{name}:{number}: {plain}; skipped")
                    continue
                self._flush()
                self.results.add(plain)
                self._first = len(self.results._deal_size)

    def _add(self, record: _Record) -> bool:
        """Take a decoded record as :meth:`Results.add` would; False leaves it to that."""
        results = self.results
        if record.type != "match":
            results.skipped += 1
            return True
        match_id = record.match_id
        if not isinstance(match_id, str) or not match_id:
            return False
        key = (record.tournament or "", match_id)
        if key in results._seen:
            results.duplicates += 1
            return True
        seats, deals = record.seats, record.deals
        if not seats or deals is None or len(seats) > _WIDEST:
            return False
        n = len(seats)
        orders = list(map(_ORDER, deals))
        points = list(map(_POINTS, deals))
        if any(map(n.__ne__, map(len, orders))) or any(map(n.__ne__, map(len, points))):
            return False
        faults = list(chain.from_iterable(filter(None, map(_FAULTS, deals))))
        faulted = list(map(_SEAT, faults))
        if faulted and not all(0 <= seat < n for seat in faulted):
            return False
        if not _well_formed(record, n):
            return False
        timed_out = [fault.seat for fault in faults if fault.kind == "timeout"]
        if record.league is not None:
            results.note_league(record.league, record.round, f"match {match_id!r}")
        ids = [results._label_id(seat.label) for seat in seats]
        self._bases.extend([len(self._ids)] * len(deals))
        self._ids.extend(ids)
        self._orders.extend(chain.from_iterable(orders))
        self._points.extend(chain.from_iterable(points))
        results._store(key, record.set, ids, len(deals), [ids[seat] for seat in faulted],
                       [ids[seat] for seat in timed_out])
        if len(self._bases) >= _BATCH:
            self._flush()
        return True

    def _flush(self) -> None:
        """Check the pending deals' finishing orders and append their rows to the results."""
        results = self.results
        deals = len(self._bases)
        if deals:
            sizes = np.frombuffer(results._deal_size, dtype=np.int64)[self._first :]
            starts = np.cumsum(sizes) - sizes
            order = np.frombuffer(self._orders, dtype=np.int64)
            deal_of_row = np.repeat(np.arange(deals), sizes)
            width = sizes[deal_of_row]
            if order.min() < 0 or bool(np.any(order >= width)):
                raise _Unchecked
            # each seat once: n seats below n whose bits cover all n
            covered = np.bitwise_or.reduceat(np.left_shift(1, order), starts)
            if bool(np.any(covered != np.left_shift(1, sizes) - 1)):
                raise _Unchecked
            bases = np.frombuffer(self._bases, dtype=np.int64)
            labels = np.frombuffer(self._ids, dtype=np.int64)[bases[deal_of_row] + order]
            every = np.frombuffer(self._points, dtype=np.float64)
            if bool(np.any(np.abs(every) > _LARGEST)):
                raise _Unchecked
            points = every[starts[deal_of_row] + order]
            results._label.frombytes(labels.tobytes())
            results._points.frombytes(points.tobytes())
        self._first = len(results._deal_size)
        self._orders = array("q")
        self._points = array("d")
        self._bases = array("q")
        self._ids = array("q")


def _well_formed(record: _Record, n: int) -> bool:
    """The checks of ``arena.records.parse_record`` that the batch does not make (finishing
    orders, points and fault seats are checked there): seats in range, lists of ``n``."""
    seats = range(n)
    ranking, scores = record.ranking, record.scores
    if ranking is not None and (len(ranking) != n or set(ranking) != set(seats)):
        return False
    if scores is not None and (len(scores) != n or any(abs(x) > _LARGEST for x in scores)):
        return False
    for deal in record.deals or ():
        if not 0 <= deal.leader < n:
            return False
        movers = deal.movers
        if movers is None:
            if bytes(deal.moves) != b"null":  # schema 1's moves: the plain reader checks them
                return False
        elif movers and (min(movers) < 0 or max(movers) >= n):
            return False
        if (deal.hands is not None and len(deal.hands) != n) or (
                deal.roles is not None and len(deal.roles) != n):
            return False
        if deal.forfeits and not all(0 <= f.seat < n for f in deal.forfeits):
            return False
        if deal.exchanges and not all(0 <= e.giver < n and 0 <= e.to < n
                                      for e in deal.exchanges):
            return False
    return True
