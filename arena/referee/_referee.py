"""The referee: plays one match between seated bots and returns its record.

A match is one :class:`~arena.referee.loop._loop.MatchLoop` (the rules, with no
I/O) driven by one of two drivers: the inline driver when every seat is
inline (no event loop at all), the trio driver otherwise. Both apply every
rule through the loop: it judges each answer with ``arena.game``, charges
the seat's clock, turns every failure into a recorded fault applied by
``Match.fault`` (the ``on_fault`` policy), and builds the match record
(docs/records.md). Nothing a bot does can stop it: hosts turn misbehaviour
into :class:`BotFault`, and every host is closed however the match ends.
"""

from __future__ import annotations

import atexit
import contextlib
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from arena.game import Match

from ._kinds import HOST_KINDS
from ._limits import Limits
from ._spec import MatchSpec, MatchSpecError, Seat
from .hosts._host import Host, InlineHost
from .loop._drive_inline import play_inline
from .loop._loop import MatchLoop
from .loop._watch import Watch

if TYPE_CHECKING:
    from .hosts._process import ProcessPool

__all__ = ["make_host", "play_match", "process_pool", "run_match"]


def make_host(
    seat: Seat,
    limits: Limits,
    pool: ProcessPool | None = None,
    private: Sequence[str] = (),
) -> Host:
    """The host that ``seat`` asks for, made by its kind's maker (:data:`HOST_KINDS`:
    ``inline``, ``process``, ``command`` or ``uecda``).

    Raises :class:`MatchSpecError` for a bot that is not installed, a command line that
    cannot be split, or a kind whose host its caller hands in (a person's seat).
    ``pool`` lets ``process`` and ``command`` bots keep their processes for later matches;
    ``private`` paths are hidden from sandboxed bots.
    """
    kind = HOST_KINDS[seat.host]
    if kind.make is None:
        raise MatchSpecError(f"seat {seat.label!r}: the referee makes no {seat.host!r} host "
                             f"({kind.summary}): its caller hands it in")
    what = seat.command if kind.gives == "command" else seat.name
    assert what is not None  # Seat checked it
    try:
        return kind.make(what, dict(seat.params), limits, pool, private)
    except (LookupError, ValueError) as exc:
        raise MatchSpecError(str(exc)) from None


def prepare_match(spec: MatchSpec, hosts: Sequence[Host] | None, pool: ProcessPool | None,
                  match: Match | None = None, watch: Watch | None = None
                  ) -> tuple[MatchLoop, list[Host]]:
    """The loop and the hosts of a match: the one set-up of every way of playing it."""
    if not isinstance(spec, MatchSpec):
        raise MatchSpecError(f"a match spec must be arena.referee.MatchSpec, got "
                             f"{type(spec).__name__} (MatchSpec.from_dict reads plain data)")
    if hosts is None:
        hosts = [make_host(seat, spec.limits, pool, spec.private) for seat in spec.seats]
    elif len(hosts) != len(spec.seats):
        raise MatchSpecError(f"{len(hosts)} hosts for {len(spec.seats)} seats")
    else:
        for seat, host in zip(spec.seats, hosts, strict=True):
            if host.kind != seat.host:
                raise MatchSpecError(f"seat {seat.label!r} is a {seat.host!r} seat, played "
                                     f"by a {host.kind!r} host")
    return MatchLoop(spec, [host.timed for host in hosts], match, watch), list(hosts)


def inline_only(hosts: Sequence[Host]) -> list[InlineHost] | None:
    """The hosts, if every one is inline (the match then needs no event loop), else None."""
    if all(type(host) is InlineHost for host in hosts):
        return [host for host in hosts if isinstance(host, InlineHost)]
    return None


async def play_match(
    spec: MatchSpec,
    *,
    hosts: Sequence[Host] | None = None,
    pool: ProcessPool | None = None,
    watch: Watch | None = None,
) -> dict[str, Any]:
    """Play the match that ``spec`` describes and return its record (docs/records.md).

    ``hosts`` replaces the hosts built from ``spec.seats``, one per seat
    (tests pass :class:`MemoryHost` objects); ``pool`` lets ``process`` and
    ``command`` bots keep their processes for later matches. Raises
    :class:`MatchSpecError` for a seat that cannot be hosted; a bot's
    misbehaviour is never an exception, only a fault in the record. When
    every seat is inline the match is played without awaiting anything. ``watch`` receives
    the match's public events as they happen (docs/web.md: never a hand, an exchanged card
    or a seed); it must not block.
    """
    loop, hosts_ = prepare_match(spec, hosts, pool, watch=watch)
    inline = inline_only(hosts_)
    if inline is not None:
        return play_inline(loop, inline)
    from .loop._drive_trio import play_trio

    return await play_trio(loop, hosts_)


_shared_pool: tuple[int, ProcessPool] | None = None


def _pool() -> ProcessPool:
    """This process's pool; a forked worker gets its own, never its parent's processes."""
    from .hosts._process import ProcessPool

    global _shared_pool
    if _shared_pool is None or _shared_pool[0] != os.getpid():
        pool = ProcessPool()
        atexit.register(pool.close)
        _shared_pool = (os.getpid(), pool)
    return _shared_pool[1]


def run_match(
    spec: MatchSpec, *, hosts: Sequence[Host] | None = None, reuse_processes: bool = True,
    watch: Watch | None = None,
) -> dict[str, Any]:
    """Play one match synchronously and return its record.

    Safe to call in any worker process. A match whose seats are all inline
    runs without an event loop; any other runs under its own ``trio.run``.
    With ``reuse_processes`` (the default) bot processes are kept between
    calls in this process and killed when it exits. ``watch`` is :func:`play_match`'s.
    """
    pooled = reuse_processes and hosts is None and not all(
        seat.host == "inline" for seat in spec.seats)  # inline seats keep no process
    loop, hosts_ = prepare_match(spec, hosts, _pool() if pooled else None, watch=watch)
    inline = inline_only(hosts_)
    if inline is not None:
        return play_inline(loop, inline)
    import trio  # a run of inline bots never needs it

    from .loop._drive_trio import play_trio

    return trio.run(play_trio, loop, hosts_)


@contextlib.contextmanager
def process_pool() -> Iterator[ProcessPool]:
    """A :class:`ProcessPool` that is closed (its processes killed) on exit."""
    from .hosts._process import ProcessPool

    pool = ProcessPool()
    try:
        yield pool
    finally:
        pool.close()
