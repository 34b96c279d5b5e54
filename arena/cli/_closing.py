"""The end of a run: where diagnostics went, the bots that faulted, the matches that failed."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from arena.records import LOG_FILE_ENV, FaultLog, configure_logging
from arena.tournament import SECRET_SEED, TournamentConfig, TournamentResult, make_run_folder

if TYPE_CHECKING:
    from arena.game import Rules
    from arena.referee import Limits, Seat

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


F = TypeVar("F", bound=Callable[..., Any])


def sandbox_option(command: F) -> F:
    """``--sandbox/--no-sandbox``: whether process and command bots run sandboxed."""
    option = click.option(
        "--sandbox/--no-sandbox", "sandbox", default=None,
        help="Run process and command bots in their own namespaces: no network, no view of "
        "the run's files (docs/security.md). Default: on wherever the machine can (for a "
        "tournament: its config's limits.sandbox, if set).",
    )
    return option(command)


def require_sandbox(sandbox: bool | None) -> None:
    """Exit with status 2 and one line when a sandbox is asked for and cannot be given."""
    from arena.referee import sandbox_unavailable_reason

    why = sandbox_unavailable_reason() if sandbox else None
    if why is not None:
        click.echo(f"error: --sandbox: {why}", err=True)
        sys.exit(2)


def sandboxed(sandbox: bool | None) -> bool:
    """Whether bots run sandboxed: as asked (exit 2 if the machine cannot), else wherever
    the machine can (the competition's default, as for a tournament's ``limits.sandbox``)."""
    from arena.referee import sandbox_mechanism

    require_sandbox(sandbox)
    return sandbox_mechanism() is not None if sandbox is None else sandbox


def refuse_unstartable(
    seats: Sequence[Seat],
    *,
    rules: Rules,
    limits: Limits,
    players: int | None = None,
    private: Sequence[str] = (),
) -> None:
    """Start each bot once (``arena.referee.try_starts``) before any match is played; exit
    with status 2 and one line per bot that cannot start, naming it and saying why.

    ``players`` set: ``seats`` are a tournament's entrants, each tried at a table of that
    size; unset: they are one table. A seat that cannot be hosted at all raises
    ``arena.referee.MatchSpecError`` (bad input, which the command reports as such).
    """
    from arena.referee import try_starts

    faults = try_starts(seats, rules=rules, limits=limits, players=players, private=private)
    failed = [(seat, fault) for seat, fault in zip(seats, faults, strict=True)
              if fault is not None]
    seen: set[str] = set()
    for seat, fault in failed:
        if seat.label not in seen:
            seen.add(seat.label)
            click.echo(f"error: bot {seat.label!r} cannot start ({fault.kind}): "
                       f"{start_reason(fault.detail)}", err=True)
    if failed:
        sys.exit(2)


def refuse_unstartable_entrants(cfg: TournamentConfig, sandbox: bool | None,
                               private: Sequence[Path] = ()) -> None:
    """:func:`refuse_unstartable` for a tournament's entrants, under its rules and limits
    (``sandbox`` overriding its ``limits.sandbox``); ``private``: what they must not see."""
    from dataclasses import replace

    from arena.game import Rules
    from arena.referee import MatchSpecError

    limits = cfg.limits.limits()
    if sandbox is not None:
        limits = replace(limits, sandbox=sandbox)
    try:
        refuse_unstartable([bot.seat() for bot in cfg.bots],
                           rules=Rules.from_dict(cfg.rules_mapping()), limits=limits,
                           players=cfg.players, private=[str(path.resolve()) for path in private])
    except MatchSpecError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


_ERROR_LINE = re.compile(r"error|exception|cannot|can't|not found|no such", re.IGNORECASE)


def start_reason(detail: str) -> str:
    """A start fault's detail as one line: its ``start failed:`` prefix and a traceback's
    frames left out. What went wrong is the output's last line that says error (a Python
    traceback's last line; Node's ``Error: Cannot find module ...``, which its version
    line follows), else its last line."""
    detail = detail.removeprefix("start failed: ").strip()
    lines = [line.strip() for line in detail.splitlines() if line.strip()]
    if len(lines) <= 1:
        return lines[0] if lines else "no reason given"
    cause = next((line for line in reversed(lines[1:]) if _ERROR_LINE.search(line)),
                 lines[-1])
    return f"{lines[0]} ... {cause}"


def sandbox_header(cfg: TournamentConfig, sandbox: bool | None) -> str:
    """The run's sandbox line: on (with which mechanism) or off, for which bots, and what
    bounds their memory (per bot, or per process: ``memory_bound``)."""
    from arena.referee import sandbox_mechanism
    from arena.referee.lowlevel import memory_bound

    require_sandbox(sandbox)
    # A UECda client connects to its seat over loopback TCP, so it cannot lose the network:
    # it runs outside the sandbox, and the line says so.
    uecda = sum(1 for bot in cfg.bots if bot.protocol == "uecda")
    outside = (f"; NOT sandboxed: {uecda} UECda client(s), which connect over TCP "
               "(docs/security.md)" if uecda else "")
    strangers = [bot for bot in cfg.bots if bot.protocol != "uecda"
                 and (bot.command is not None or bot.host == "process")]
    if not strangers:
        return ("sandbox: none needed (every bot runs inline: trusted code)" if not uecda
                else f"sandbox: none{outside}")
    on = cfg.limits.sandboxed() if sandbox is None else sandbox
    memory = "; " + memory_bound(cfg.limits.limits().memory_mb)
    if on:
        return (f"sandbox: {sandbox_mechanism()} for {len(strangers)} process and command "
                f"bot(s): own pid namespace, no network, the run's files hidden{outside}"
                f"{memory}")
    return ("sandbox: OFF: process and command bots can read the run's files and use the "
            f"network (docs/security.md){memory}")
