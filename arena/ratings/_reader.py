"""Reading record files for ratings, through :func:`arena.records.read_records`.

The records reader skips what is not a whole record (a torn last line, a damaged line) and says
so; ratings add one rule on top: a file that does not exist is an error, since rating a typo'd
path as "no matches" would print an empty leaderboard that looks like an answer. A folder stands
for its records file (the output folder of ``arena run``), and gzip files are read as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from arena import records

from ._results import RatingsError


def _read_file(
    path: str | Path, on_skip: Callable[[str], None] | None = None
) -> Iterator[dict[str, Any]]:
    """The records of one file, in order (see :func:`read_many`)."""
    p = Path(records.records_path(path))
    if not p.is_file():
        if Path(path).is_dir():
            raise RatingsError(records.no_records_here(path))
        raise RatingsError(f"{p}: no such records file")
    try:
        yield from records.read_records(p, on_skip=on_skip)
    except OSError as exc:
        raise RatingsError(f"{p}: cannot read ({exc.strerror or exc})") from None


def read_many(
    paths: Iterable[str | Path], on_skip: Callable[[str], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Yield the records of several files, one file after the other, each in file order.

    ``on_skip(message)`` hears of skipped lines (the message names the file and line). A path
    may be an output folder (its records.jsonl) and a file may be gzip-compressed; a path that
    is no records file raises :class:`RatingsError`.
    """
    for path in paths:
        yield from _read_file(path, on_skip)
