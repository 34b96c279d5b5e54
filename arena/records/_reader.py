"""Reading match records back: tolerant of the torn line a killed writer leaves."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Any

from ._logging import get_logger

__all__ = ["RecordError", "read_records"]

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
    instead. A missing file yields nothing.
    """
    try:
        f = open(path, "rb")  # noqa: SIM115
    except FileNotFoundError:
        return
    with f:
        for number, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            problem = None
            try:
                record = json.loads(raw)
            except ValueError:
                torn = not raw.endswith(b"\n")
                problem = "torn last line (the writer was interrupted)" if torn else "not JSON"
            else:
                if not isinstance(record, dict) or "schema" not in record:
                    problem = "not a record (no 'schema' field)"
            if problem is not None:
                message = f"{os.fspath(path)}:{number}: {problem}; skipped"
                if strict:
                    raise RecordError(message)
                if on_skip is not None:
                    on_skip(message)
                else:
                    _log.warning("skipped a line of a records file", detail=message)
                continue
            yield record
