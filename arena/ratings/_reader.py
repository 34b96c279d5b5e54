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

from arena.records import read_records as _read
from arena.records import records_path

from ._results import RatingsError


def read_records(
    path: str | Path, on_skip: Callable[[str], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Yield the records of one file in order; ``on_skip(message)`` hears of skipped lines
    (message names the file and line). ``path`` may be an output folder (its records.jsonl)
    and the file may be gzip-compressed."""
    p = Path(records_path(path))
    if not p.is_file():
        if Path(path).is_dir():
            raise RatingsError(f"{path}: a folder without a records.jsonl")
        raise RatingsError(f"{p}: no such records file")
    try:
        yield from _read(p, on_skip=on_skip)
    except OSError as exc:
        raise RatingsError(f"{p}: cannot read ({exc.strerror or exc})") from None


def read_many(
    paths: Iterable[str | Path], on_skip: Callable[[str], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Records of several files, one file after the other."""
    for path in paths:
        yield from read_records(path, on_skip)
