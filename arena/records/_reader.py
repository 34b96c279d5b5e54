"""Reading match records back: tolerant of the torn line a killed writer leaves."""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import msgspec

from ._logging import get_logger

__all__ = ["RECORDS", "TABLE_RECORDS", "RecordError", "no_records_here", "parse_record",
           "read_records", "record_lines", "records_path"]

RECORDS = "records.jsonl"
TABLE_RECORDS = os.path.join("tables", RECORDS)
"""The people's tables' records under a served run's folder (``arena serve --table``)."""
"""The records file of an output folder (``arena run --out FOLDER``)."""

_GZIP_MAGIC = b"\x1f\x8b"

READ_BUFFER = 1 << 20
"""Bytes read at a time from a records file: records are long lines (a match's deals, hands
and moves: some KB each), and reading them through the default 8 KB buffer costs four times
as much as through this one."""

_log = get_logger("arena.records")

_DECODE = msgspec.json.Decoder().decode
"""The first reader of a line: about 2.5 times as fast as ``json.loads`` on a record, and
what it takes, ``json.loads`` takes as the same value (it is the stricter: no ``NaN``, no
lone surrogate, no integer past 64 bits). What it refuses is read by ``json.loads``, whose
value or error is then the line's, as before."""


class RecordError(ValueError):
    """A records file holds a line that is not a record (names the file and line)."""


def read_records(
    path: str | os.PathLike[str],
    *,
    strict: bool = False,
    on_skip: Callable[[str], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Yield every record (a dict) in a JSONL records file, in file order.

    A line that is not a JSON object with a ``schema`` (typically the torn
    last line of a writer that was killed mid-write) is reported, through
    ``on_skip(message)`` or else as a warning in the operational log, and
    skipped, so ratings and resumes work on everything that was written
    whole. With ``strict=True`` such a line raises :class:`RecordError`
    instead. A missing file yields nothing. A gzip-compressed file
    (``records.jsonl.gz``, known by its first bytes) is read through gzip.
    """
    try:
        f = open(path, "rb", buffering=READ_BUFFER)  # noqa: SIM115
    except FileNotFoundError:
        return

    def skip(message: str) -> None:
        if strict:
            raise RecordError(message)
        if on_skip is not None:
            on_skip(message)
        else:
            _log.warning("skipped a line of a records file", detail=message)

    for number, raw in _file_lines(f, os.fspath(path), skip):
        record = parse_record(raw)
        if isinstance(record, str):
            skip(f"{os.fspath(path)}:{number}: {record}; skipped")
            continue
        yield record


def parse_record(raw: bytes) -> dict[str, Any] | str:
    """One line of a records file (as :func:`record_lines` gives it) as a record, or else a
    short phrase saying what is wrong with it (``"not JSON"``, a torn last line, a seat out
    of range: see :func:`_record_problem`)."""
    try:
        record = _DECODE(raw)
    except (msgspec.DecodeError, RecursionError):  # RecursionError: nested too deeply
        record, problem = _plain(raw)
        if problem is not None:
            return problem
    if not isinstance(record, dict) or "schema" not in record:
        return "not a record (no 'schema' field)"
    problem = _record_problem(record)
    return record if problem is None else f"not a record ({problem})"


def _plain(raw: bytes) -> tuple[Any, str | None]:
    """The line as ``json.loads`` reads it, or else None and the phrase saying why not."""
    try:
        return json.loads(raw), None
    except RecursionError:
        return None, "not a record (nested too deeply)"
    except ValueError:  # an integer of more than 4300 digits included
        torn = not raw.endswith(b"\n")
        return None, "torn last line (the writer was interrupted)" if torn else "not JSON"


_LARGEST = 2**53
"""The largest magnitude of a number in a record (scores, points, times): what a float holds
exactly; a larger one (an integer of 400 digits) is no result of a match."""


def _record_problem(record: dict[str, Any]) -> str | None:
    """What makes a ``match`` record unreadable by the readers of records, or ``None``.

    Every field a reader indexes by seat or takes as a number is checked: the match id, the
    seats (a list of objects with a text label), the ranking (each seat once), the scores, and per
    deal the finishing order (each seat once), points, leader, hands, roles, movers (or
    schema 1's moves), faults, forfeits and exchanges. Points are required, the other lists
    of a record or deal are checked where present (not null). A seat is a whole number from
    0 to the table's size less one: never negative, never a number of 400 digits, never
    ``true``. What is not indexed is not checked here: a record whose cards or moves do not
    read as cards and moves is a record that does not replay, which the report and
    ``arena show`` say of it.
    Other record types (``error``) are not checked.
    """
    if record.get("type", "match") != "match":
        return None
    match_id = record.get("match_id")
    if not isinstance(match_id, str) or not match_id:
        return "'match_id' must be text"
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats or not all(
            isinstance(seat, dict) and isinstance(seat.get("label"), str) for seat in seats):
        return "'seats' must be a list of objects with a text label"
    n = len(seats)
    if record.get("ranking") is not None and not _each_seat_once(record["ranking"], n):
        return f"'ranking' must hold each of the {n} seats once"
    if record.get("scores") is not None and not _numbers(record["scores"], n):
        return f"'scores' must be {n} numbers"
    deals = record.get("deals")
    if not isinstance(deals, list):
        return "'deals' must be a list"
    for number, deal in enumerate(deals):
        problem = _deal_problem(deal, n) if isinstance(deal, dict) else "not an object"
        if problem is not None:
            return f"deal {number}: {problem}"
    return None


def _deal_problem(deal: dict[str, Any], n: int) -> str | None:
    if not _each_seat_once(deal.get("finish_order"), n):
        return f"'finish_order' must hold each of the {n} seats once"
    if not _numbers(deal.get("points"), n):
        return f"'points' must be {n} numbers"
    if "leader" in deal and not _seat(deal["leader"], n):
        return f"'leader' must be a seat from 0 to {n - 1}"
    for key in ("hands", "roles"):
        if deal.get(key) is not None and not (isinstance(deal[key], list)
                                              and len(deal[key]) == n):
            return f"{key!r} must be a list of {n}"
    movers = deal.get("movers")
    if movers is not None and not (isinstance(movers, list) and _seats(movers, n)):
        return f"'movers' must be seats from 0 to {n - 1}"
    if movers is None and not _entries(deal.get("moves"), ("seat",), n):  # schema 1
        return f"each move's 'seat' must be from 0 to {n - 1}"
    for key, fields in (("faults", ("seat",)), ("forfeits", ("seat",)),
                        ("exchanges", ("from", "to"))):
        if not _entries(deal.get(key), fields, n):
            return f"each of {key!r} must name seats from 0 to {n - 1}"
    return None


def _seat(value: object, n: int) -> bool:
    return value.__class__ is int and 0 <= value < n  # type: ignore[operator]


def _seats(values: list[Any], n: int) -> bool:
    """Whether every one of ``values`` is a seat (:func:`_seat`), in a few passes in C: a
    deal's movers are some hundred."""
    return not values or (set(map(type, values)) == {int} and min(values) >= 0
                          and max(values) < n)


def _each_seat_once(value: object, n: int) -> bool:
    return (isinstance(value, list) and len(value) == n and all(_seat(s, n) for s in value)
            and len(set(value)) == n)


def _numbers(value: object, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(
        value.__class__ in (int, float) and -_LARGEST <= value <= _LARGEST for value in value)


def _entries(value: object, fields: tuple[str, ...], n: int) -> bool:
    """``value`` is missing, null or a list of objects whose ``fields`` are seats."""
    if value is None:
        return True
    if not isinstance(value, list):
        return False
    for entry in value:  # a loop: a deal's faults may be many
        if not isinstance(entry, dict) or not all(_seat(entry.get(key), n) for key in fields):
            return False
    return True


def record_lines(
    path: str | os.PathLike[str], skip: Callable[[str], None]
) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of a records file, raw, with their 1-based numbers.

    For readers that decode lines their own way (ratings decode only the fields they use):
    each line goes back through :func:`parse_record` when the reader cannot take it. A gzip
    file (known by its first bytes) is read through gzip; damaged compressed data is reported
    through ``skip(message)`` and ends the lines. Opening the file raises ``OSError`` (a
    missing file included) at the first line asked for.
    """
    f = open(path, "rb", buffering=READ_BUFFER)  # noqa: SIM115 (_file_lines closes it)
    yield from _file_lines(f, os.fspath(path), skip)


def _file_lines(
    f: BinaryIO, name: str, skip: Callable[[str], None]
) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of an open records file, with their 1-based numbers; closes ``f``.

    A gzip file (known by its first bytes) is read through gzip; damaged compressed data is
    reported through ``skip(message)`` (``name`` names the file) and ends the lines. Every
    reader of records files goes through here, whatever it decodes the lines with.
    """
    with f:
        packed = f.read(2) == _GZIP_MAGIC
        f.seek(0)
        lines: Iterator[bytes] = iter(gzip.GzipFile(fileobj=f, mode="rb") if packed else f)
        number = 0
        while True:
            try:
                raw = next(lines)
            except StopIteration:
                return
            except (OSError, EOFError, zlib.error) as exc:  # damaged or cut-off gzip data
                skip(f"{name}:{number + 1}: compressed data is damaged ({exc}); "
                     "the rest of the file skipped")
                return
            number += 1
            if raw.strip():
                yield number, raw


def no_records_here(folder: str | os.PathLike[str], hint: str = "") -> str:
    """Why ``folder``, which has no records file, has nothing to read: with the people's
    tables' records in it, where they are and which folder to give; else ``hint``, what to
    give instead."""
    text = os.fspath(folder)
    tables = os.path.join(text, TABLE_RECORDS)
    if os.path.isfile(tables):
        return (f"{text}: no records.jsonl here, only the people's tables' matches "
                f"({tables}): add --people")
    return f"{text}: no records.jsonl here{hint}"


def records_path(path: str | os.PathLike[str]) -> str:
    """``path`` itself, or for an output folder its records file (``records.jsonl``, else
    ``records.jsonl.gz``)."""
    text = os.fspath(path)
    if os.path.isdir(text):
        plain = os.path.join(text, RECORDS)
        packed = plain + ".gz"
        return packed if not os.path.exists(plain) and os.path.exists(packed) else plain
    return text
