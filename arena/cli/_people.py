"""The people's tables' records beside a run's (``OUT/tables/records.jsonl``): rated and
reported apart with ``--people``, and named in one line where a command leaves them out."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from arena.cli import InputError
from arena.records import TABLE_RECORDS, record_lines

__all__ = ["people_note", "people_records"]


def people_records(folders: Sequence[str]) -> tuple[str, ...]:
    """The people's tables' records file of each run folder (``--people``); InputError for
    a path that is no folder."""
    for folder in folders:
        if not Path(folder).is_dir():
            raise InputError(f"{folder}: --people takes the folder of a served run (its "
                             f"{TABLE_RECORDS})")
    return tuple(str(Path(folder) / TABLE_RECORDS) for folder in folders)


def people_note(paths: Sequence[str], command: str, left: str) -> None:
    """One line on stderr for each run folder of ``paths`` that holds people's tables' matches
    beside the run's: how many, and the command that reports them apart."""
    for folder in paths:
        tables = Path(folder) / TABLE_RECORDS
        if Path(folder).is_dir() and tables.is_file():
            count = sum(1 for _ in record_lines(tables, lambda message: None))
            if count:
                click.echo(f"note: {tables} holds {count} people's tables' "
                           f"match{'es' if count > 1 else ''}, {left}: "
                           f"{command} {folder} --people", err=True)
