"""What a server lets its people's tables be: which bots, how many deals, how long, how many
per client, and how long a table may go on with nobody at it (docs/web.md, "Bounds")."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import trio

from arena.referee import MatchSpecError, play_match

if TYPE_CHECKING:
    from arena.referee import Host, MatchSpec
    from arena.referee.lowlevel import Watch

T = TypeVar("T")

__all__ = ["DEFAULT_BOTS", "KEEP_FINISHED", "MAX_PER_CLIENT", "MAX_ROUNDS", "MAX_TABLE_S",
           "TableBounds", "TableEnded", "digest_matches", "forget_finished", "play_bounded",
           "token_digest", "watch_presence"]

DEFAULT_BOTS = ("greedy", "mc", "learned", "random", "lowest", "highest", "passer", "guided",
                "expert")
"""The bots a browser may seat by default: the built-ins, the quick and sound ones first
(the table page offers the first for each bot seat), ``guided`` and ``expert``, the slowest,
last."""
MAX_ROUNDS = 100
"""The most deals a table's match may have (the ``uecda`` preset's own count)."""
MAX_TABLE_S = 3 * 3600.0
"""The longest a table may play (seconds); past it the table ends unrecorded."""
MAX_PER_CLIENT = 4
"""Tables one client (one address) may have playing at once."""
KEEP_FINISHED = 256
"""Finished tables a server remembers (their people may open their links for the result);
the oldest is forgotten when one more is opened."""


class TableEnded(MatchSpecError):
    """A table's match stopped unrecorded: past its time, or nobody at it; the message
    says which."""


@dataclass(frozen=True)
class TableBounds:
    """The bounds of a server's tables: ``bots`` a browser may seat (in the order the table
    page offers them), ``rounds`` (most deals), ``seconds`` (longest a table plays),
    ``per_client`` (tables one address may have playing at once)."""

    bots: tuple[str, ...] = DEFAULT_BOTS
    rounds: int = MAX_ROUNDS
    seconds: float = MAX_TABLE_S
    per_client: int = MAX_PER_CLIENT

    def refusal(self, seats: Sequence[str], rounds: int, person: str) -> str | None:
        """Why a browser may not open a table of ``seats`` playing ``rounds`` deals, or
        None."""
        for name in seats:
            if name != person and name not in self.bots:
                return (f"bot {name[:40]!r} is not offered here (offered: "
                        f"{', '.join(self.bots) or 'none'})")
        if rounds > self.rounds:
            return f"a table plays at most {self.rounds} deals, not {rounds}"
        return None


def forget_finished(tables: dict[str, T], finished: Callable[[T], bool],
                    keep: int = KEEP_FINISHED) -> None:
    """Drop the oldest finished tables of ``tables`` (in the order they were opened) until
    at most ``keep`` are left, so a server that opens table after table holds a bounded
    number."""
    done = [key for key, table in tables.items() if finished(table)]
    for key in done[:max(0, len(done) - keep)]:
        del tables[key]


def token_digest(token: str) -> bytes:
    """What a server keeps of a seat's token: its SHA-256, so that its memory holds no
    token (a link is compared by digest, in constant time: :func:`digest_matches`)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def digest_matches(token: str, digest: bytes) -> bool:
    """Whether ``token``'s digest is ``digest`` (constant time)."""
    return secrets.compare_digest(token_digest(token), digest)


async def watch_presence(present: Callable[[], bool], absence_s: float,
                         scope: trio.CancelScope, ended: list[str], *,
                         from_start: bool = True) -> None:
    """Cancel ``scope`` (and say why in ``ended``) once ``present()`` has been false for
    ``absence_s`` seconds on end: a table nobody has a page open at ends. The absence
    counts from the start, or (``from_start`` false) only once somebody came. Looks a few
    times per ``absence_s``, at least once a second."""
    step = min(1.0, absence_s / 4)
    seen: float | None = trio.current_time() if from_start else None
    while True:
        await trio.sleep(step)
        now = trio.current_time()
        if present():
            seen = now
        elif seen is not None and now - seen >= absence_s:
            ended.append(f"nobody was at the table for {absence_s:g} s")
            scope.cancel()
            return


async def play_bounded(spec: MatchSpec, hosts: list[Host], watch: Watch, bounds: TableBounds,
                       *, absence_s: float, present: Callable[[], bool],
                       nursery: trio.Nursery, from_start: bool = True) -> dict[str, Any]:
    """A table's match (:func:`arena.referee.play_match`) played within ``bounds``: its
    record, or :class:`TableEnded` once it played ``bounds.seconds`` or ``present()`` (a
    person's page open at it) was false for ``absence_s`` (the match is cancelled: its
    hosts close, its bots' processes are killed); that absence counts from the start, or
    once somebody came (:func:`watch_presence`). ``nursery`` runs the presence watch."""
    ended: list[str] = []
    watching = trio.CancelScope()
    with trio.move_on_after(bounds.seconds) as bound:

        async def watch_task() -> None:
            with watching:
                await watch_presence(present, absence_s, bound, ended, from_start=from_start)

        nursery.start_soon(watch_task)
        try:
            return await play_match(spec, hosts=hosts, watch=watch)
        finally:
            watching.cancel()
    raise TableEnded(ended[0] if ended else f"the table played {bounds.seconds:g} s, its longest")
