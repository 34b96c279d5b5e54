"""Reading match records back: tolerant of the torn line a killed writer leaves."""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from ._logging import get_logger

__all__ = ["RECORDS", "RecordError", "parse_record", "read_records", "record_lines", "records_path"]

RECORDS = "records.jsonl"
"""The records file of an output folder (``arena run --out FOLDER``)."""

_GZIP_MAGIC = b"\x1f\x8b"

READ_BUFFER = 1 << 20
"""Bytes read at a time from a records file: records are long lines (a match's deals, hands
and moves: some KB each), and reading them through the default 8 KB buffer costs four times
as much as through this one."""

_log = get_logger("arena.records")


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
    short phrase saying what is wrong with it (``"not JSON"``, a torn last line...)."""
    try:
        record = json.loads(raw)
    except ValueError:
        torn = not raw.endswith(b"\n")
        return "torn last line (the writer was interrupted)" if torn else "not JSON"
    if not isinstance(record, dict) or "schema" not in record:
        return "not a record (no 'schema' field)"
    return record


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


def records_path(path: str | os.PathLike[str]) -> str:
    """``path`` itself, or for an output folder its records file (``records.jsonl``, else
    ``records.jsonl.gz``)."""
    text = os.fspath(path)
    if os.path.isdir(text):
        plain = os.path.join(text, RECORDS)
        packed = plain + ".gz"
        return packed if not os.path.exists(plain) and os.path.exists(packed) else plain
    return text
