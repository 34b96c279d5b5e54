"""The end of a run: where diagnostics went, the bots that faulted, the matches that failed."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.records import LOG_FILE_ENV, FaultLog, configure_logging
from arena.tournament import SECRET_SEED, TournamentResult, make_run_folder

if TYPE_CHECKING:
    pass

LOG_FILE = "arena.log"
"""Diagnostics of a run (JSON lines), in its output folder."""


def log_to_folder(folder: Path) -> Path | None:
    """Send operational logs to ``folder/arena.log``, never to the terminal.

    Worker processes forked later inherit the setting; spawned ones find
    the file through ``ARENA_LOG_FILE``. Returns the path, or ``None`` when
    the folder cannot be written (the run itself then says why).
    """
    path = folder / LOG_FILE
    try:
        make_run_folder(folder)
        configure_logging("INFO", json_logs=True, file=path)
    except OSError:
        return None
    os.environ[LOG_FILE_ENV] = str(path)
    return path


def echo_faults(lines: list[str], *, err: bool = False) -> None:
    """The ``faults`` section: one line per bot that faulted."""
    if lines:
        click.echo("faults:", err=err)
        for line in lines:
            click.echo(f"  {line}", err=err)


def closing_status(result: TournamentResult, log: Path | None, *, quiet: bool) -> int:
    """Print the closing section of ``arena run``; the exit status it calls for.

    Under ``quiet`` only what makes the run fail is printed (on stderr).
    A bot that never made a move of its own, or a match the referee failed
    to play, makes the run fail (status 1).
    """
    if not quiet:
        echo_faults(result.faults)
        if result.secret_seed:
            click.echo(f"seed: {result.seed} (drawn in secret, kept in "
                       f"{Path(result.out) / SECRET_SEED}; publish it after the competition "
                       "so anyone can check the deals)")
    for label in result.silent:
        _never_played(label, next((line for line in result.faults
                                   if line.startswith(f"{label}: ")), None))
    for error in result.errors:
        click.echo(f"error: match {error['match_id']} failed in the referee: {error['error']}",
                   err=True)
    if result.errors:
        click.echo(f"error: {len(result.errors)} match(es) failed; their tracebacks are in "
                   f"{result.records}", err=True)
    if log is not None and not quiet and log.exists() and log.stat().st_size:
        click.echo(f"diagnostics: {log}")
    return 1 if result.silent or result.errors else 0


def match_closing(record: Mapping[str, Any], *, quiet: bool) -> None:
    """The closing section of ``arena match``: exits 1 if a bot never made a move."""
    log = FaultLog()
    log.add(record)
    lines = log.lines()
    if not quiet:
        echo_faults(lines)
    silent = log.silent()
    for label in silent:
        _never_played(label, log.bots[label].line())
    if silent:
        sys.exit(1)


def _never_played(label: str, line: str | None) -> None:
    reason = line[len(label) + 2:] if line else "no fault recorded"
    click.echo(f"error: {label} never played a move: {reason}", err=True)
