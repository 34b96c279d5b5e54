"""Trying a bot's start once, before any match is played.

A bot that cannot start (a missing program, one that prints something else
than the protocol, exits at once, or never flushes its answer) would fault
at every deal of every match it plays; the commands that run bots try each
one first, with this function, and refuse to go on with one line naming it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from arena.game import Rules

from ._faults import BotFault
from ._limits import NO_DEADLINE, Deadline, Limits
from ._referee import inline_only, make_host
from ._spec import Seat
from .hosts._host import Host, StartInfo

if TYPE_CHECKING:
    import trio

__all__ = ["try_starts"]

TRIAL_ID = "start-check"
"""The match id a bot sees in the ``start`` of its trial."""


def try_starts(
    seats: Sequence[Seat],
    *,
    rules: Rules,
    limits: Limits,
    players: int | None = None,
    seed: int = 0,
    private: Sequence[str] = (),
) -> list[BotFault | None]:
    """Start each seat's bot once, as a match does, and close it: its start fault, or None.

    With ``players`` unset, ``seats`` are one table and seat *i* is started
    as seat *i* of it. With ``players`` set, ``seats`` are a tournament's
    entrants and each is started as seat 0 of a table of ``players``.
    Each start is bounded by ``limits.start_ms``, as in a match; at most as
    many bots start at once as the machine has cores, so that a long list of
    entrants does not make the machine too slow for them to start in time.
    Nothing is kept: the processes are closed, never pooled. ``seed`` is the
    seed the bots' own generators are derived from (a trial deals no cards).
    Raises :class:`MatchSpecError`, before starting anything, for a seat that
    cannot be hosted at all (a bot that is not installed), as ``make_host`` does.
    """
    labels = [seat.label for seat in seats]
    size = len(seats) if players is None else players
    infos: list[StartInfo] = []
    for index in range(len(seats)):
        if players is None:
            infos.append(StartInfo(index, size, rules, TRIAL_ID, labels, seed, limits.to_dict()))
        else:
            table = [labels[(index + k) % len(labels)] for k in range(size)]
            infos.append(StartInfo(0, size, rules, TRIAL_ID, table, seed, limits.to_dict()))
    hosts = [make_host(seat, limits, None, private) for seat in seats]  # MatchSpecError
    faults: list[BotFault | None] = [None] * len(seats)
    inline = inline_only(hosts)
    if inline is not None:  # started as a match of inline bots starts them: no event loop
        for index, host in enumerate(inline):
            try:
                host.start_now(infos[index])
            except BotFault as fault:
                faults[index] = fault
        return faults
    import trio

    async def trial(index: int, limiter: trio.CapacityLimiter) -> None:
        async with limiter:
            faults[index] = await _start_once(hosts[index], infos[index],
                                              limits.start_ms / 1000)

    async def all_trials() -> None:
        limiter = trio.CapacityLimiter(max(1, os.cpu_count() or 1))
        async with trio.open_nursery() as nursery:
            for index in range(len(seats)):
                nursery.start_soon(trial, index, limiter)

    if seats:
        trio.run(all_trials)
    return faults


async def _start_once(host: Host, info: StartInfo, allowed: float) -> BotFault | None:
    """``host.start(info, deadline)`` within ``allowed`` seconds (unbounded for a person),
    then close."""
    import trio

    try:
        await host.start(info, Deadline.after(trio.current_time(), allowed) if host.timed
                         else NO_DEADLINE)
        return None
    except BotFault as fault:
        return fault
    finally:
        # Closing a bot that failed must not hide why it failed.
        with trio.CancelScope(shield=True), contextlib.suppress(Exception):
            await host.aclose()
