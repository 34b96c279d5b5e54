"""Resuming a record file: cut off the torn line a kill leaves, then read what is whole.

Records are written by :class:`arena.records.RecordWriter`: one line per
match, one ``write`` each, flushed to the OS. The tournament passes
``fsync=False``: a per-match sync would bound a fast tournament by the
disk's sync rate, and a killed process loses nothing the OS already has.
A process killed mid-write can leave a last line without its newline.
Readers skip such a line; a resumed tournament cuts it off the file first,
so the file ends byte for byte like that of a run never interrupted
(timings aside). A bad line anywhere else is an error, never silently
dropped.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from arena.records import RecordError, cut_torn_line, read_records


class RecordFileError(ValueError):
    """The record file holds something that is not a record (other than a torn tail)."""


repair_tail = cut_torn_line
"""Cut a torn last line (no newline) off a file (:func:`arena.records.cut_torn_line`)."""


def resume_records(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Repair the tail of ``path`` and yield its records in order (memory stays flat)."""
    repair_tail(path)
    try:
        for record in read_records(path, strict=True):
            if "match_id" not in record:
                raise RecordFileError(f"{os.fspath(path)}: a record without 'match_id'")
            yield record
    except RecordError as exc:
        raise RecordFileError(str(exc).replace("; skipped", "")) from None
