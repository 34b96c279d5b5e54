"""Reading record files: JSON lines, one match per line, tolerant of a torn last line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ._results import RatingsError


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """Yield the records of one file in order.

    A last line without its newline that does not parse is a write cut short by a crash and is
    skipped; a bad line anywhere else is an error naming the file and line.
    """
    p = Path(path)
    try:
        handle = p.open("rb")
    except OSError as exc:
        raise RatingsError(f"{p}: cannot read ({exc.strerror or exc})") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                if not raw.endswith(b"\n"):
                    return  # torn last line
                raise RatingsError(f"{p}:{number}: not a JSON record ({exc})") from None
            if not isinstance(record, dict):
                raise RatingsError(f"{p}:{number}: a record must be a JSON object")
            yield record


def read_many(paths: Iterable[str | Path]) -> Iterator[dict[str, Any]]:
    """Records of several files, one file after the other."""
    for path in paths:
        yield from read_records(path)
