"""The checks before a run's first match: the sandbox asked for, and each bot's first start.

A command that plays matches takes ``--sandbox/--no-sandbox`` (:func:`sandbox_option`),
exits with one line when the machine cannot give the sandbox asked for
(:func:`require_sandbox`), starts every bot once before any match and exits with one line
per bot that cannot start (:func:`refuse_unstartable`), and prints the run's sandbox line
(:func:`sandbox_header`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from arena.game import Rules
    from arena.referee import Limits, Seat
    from arena.tournament import TournamentConfig

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
