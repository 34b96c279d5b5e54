"""The tournament's record file: append one flushed line per match, recover after a crash.

Each record is written with one ``write`` call on an unbuffered file, so a
finished match is on disk (in the OS's hands) before the next one is
counted. A process killed mid-write can leave at most a partial last line;
opening the file for a resume cuts that line off, and only that: a bad line
anywhere else is an error, never silently dropped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any


class RecordFileError(ValueError):
    """The record file holds something that is not a record (other than a cut-off tail)."""


def encode_record(record: Mapping[str, Any]) -> bytes:
    """One JSON line, compact, keys in the order the referee wrote them."""
    return (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def read_records(path: str | os.PathLike[str], *, repair: bool = False) -> Iterator[dict[str, Any]]:
    """Yield the records of ``path`` in file order, one at a time (memory stays flat).

    A last line without its newline or not valid JSON is what a kill leaves;
    with ``repair`` it is cut off the file, otherwise skipped. A bad line
    before the last raises :class:`RecordFileError` naming its number.
    """
    path = Path(path)
    if not path.exists():
        return
    good_end = 0
    with path.open("rb") as file:
        line_number = 0
        pending: tuple[int, bytes] | None = None
        for raw in file:
            line_number += 1
            if pending is not None:
                bad_line, _ = pending
                raise RecordFileError(f"{path}:{bad_line}: not a JSON record")
            if not raw.endswith(b"\n"):
                pending = (line_number, raw)
                continue
            try:
                record = json.loads(raw)
            except ValueError:
                pending = (line_number, raw)
                continue
            if not isinstance(record, dict) or "match_id" not in record:
                raise RecordFileError(f"{path}:{line_number}: not a match record")
            good_end += len(raw)
            yield record
    if pending is not None and repair:
        with path.open("r+b") as file:
            file.truncate(good_end)


class RecordWriter:
    """Appends records to a JSONL file, each flushed to the OS as its own write."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def write(self, record: Mapping[str, Any]) -> None:
        """Append one record."""
        data = memoryview(encode_record(record))
        while data:
            written = os.write(self._fd, data)
            data = data[written:]

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
