"""Time and resource limits of a match, and the chess clock that spends them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ._cputime import Meter

__all__ = ["Clock", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits every seat of a match plays under: each default is written here, once.

    ``move_ms`` is the time for each decision. ``bank_ms`` (optional; 0 or
    ``None`` for none) is a chess-clock reserve for the whole match: time spent beyond ``move_ms``
    is taken from it, and a decision times out only when both are spent.
    ``start_ms`` bounds starting a bot (a process, its imports, its
    ``start_match``). ``memory_mb`` caps a child process's address space
    (``RLIMIT_AS``; ``None`` lifts the cap). ``grace_ms`` is transport
    slack: an answer that arrives within it after the budget is accepted
    (and empties the bank), so pipe and scheduling latency never turn a
    punctual bot into a timeout. ``cpu_s`` caps a child process's CPU time
    over its life, a backstop if the referee itself dies. ``sandbox`` runs
    ``process`` and ``command`` bots in their own namespaces (see
    ``arena.referee.sandbox_mechanism`` and docs/security.md).

    ``lag_ms`` makes the clock fair on a loaded machine: an answer later
    than budget plus grace by the wall clock is still in time if the bot's
    own time was not (its CPU time, or the wall time less the time its
    process and the referee waited for a CPU; see :meth:`Clock.charge`),
    but the referee never waits longer than budget plus grace plus
    ``lag_ms``: that is the hard wall-clock ceiling of every decision, for
    a bot that sleeps, hangs or forks alike. ``0`` turns the fairness off.

    Every field is checked when the object is made (a ``ValueError`` naming
    the field), so whoever holds a ``Limits`` holds valid limits: the
    tournament config, the command line and the referee share this one check.
    """

    move_ms: int = 1000
    bank_ms: int | None = None
    start_ms: int = 5000
    memory_mb: int | None = 1024
    grace_ms: int = 100
    cpu_s: int = 3600
    sandbox: bool = False
    lag_ms: int = 500

    def __post_init__(self) -> None:
        if not isinstance(self.sandbox, bool):
            raise ValueError(f"limit 'sandbox' must be true or false, got {self.sandbox!r}")
        for name in ("move_ms", "start_ms", "grace_ms", "cpu_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"limit {name!r} must be a whole number > 0, got {value!r}")
        for name, least in (("bank_ms", 0), ("memory_mb", 1), ("lag_ms", 0)):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < least
            ):
                raise ValueError(f"limit {name!r} must be a whole number >= {least} or null, "
                                 f"got {value!r}")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The limits' names, in record order."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Limits:
        """Limits from plain data (a record's or a spec's ``limits``); unknown keys are an error.

        A missing key, or ``null`` for a limit that cannot be null, takes the default.
        """
        if data is None:
            return cls()
        known = cls.names()
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"unknown limit {unknown[0]!r} (known: {', '.join(known)})")
        values = {k: v for k, v in data.items() if v is not None or k in ("bank_ms", "memory_mb")}
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready limits, as written into records (a fresh dict each call)."""
        return {name: getattr(self, name) for name in _NAMES}


_NAMES = Limits.names()


class Clock:
    """Per-seat chess clock: ``move_ms`` per decision plus an optional match bank.

    The clock charges a seat its own time, not the machine's: see :meth:`charge`.
    """

    def __init__(self, limits: Limits, players: int) -> None:
        self.move_s = limits.move_ms / 1000
        """``move_ms`` in seconds: the one place the referee converts it."""
        self._grace = limits.grace_ms / 1000
        self._lag = limits.lag_ms / 1000
        self._limits = limits
        self._bank = [(limits.bank_ms or 0) / 1000] * players
        self.charged = [0.0] * players
        """Seconds charged to each seat for its last decision (its own time when granted)."""

    def budget(self, seat: int) -> float:
        """Seconds the seat may think on this decision before it is late."""
        return self.move_s + self._bank[seat]

    def deadline(self, seat: int) -> float:
        """Seconds after which the referee stops waiting (budget plus grace)."""
        return self.budget(seat) + self._grace

    def ceiling(self, seat: int) -> float:
        """Seconds after which the referee stops waiting whatever the cause (deadline plus lag)."""
        return self.deadline(seat) + self._lag

    def bank(self, seat: int) -> float:
        """Seconds left in the seat's bank."""
        return self._bank[seat]

    def meter(self, pids: Sequence[int]) -> Meter | None:
        """A :class:`Meter` for the decision about to start, or None.

        ``pids`` are the processes the seat's host started, its current one
        last (``Host.pids()``; empty for a host without processes). None when
        fair clocks are off (``lag_ms: 0``) or ``/proc`` cannot be read.
        """
        return start_meter(self._limits, pids[-1], 0.0) if pids else None


    def charge(self, seat: int, elapsed: float, meter: Meter | None = None) -> bool:
        """Spend the seat's time on a decision that took ``elapsed`` seconds by the wall clock.

        False if it ran past the deadline. When the wall time is over the
        deadline but within :meth:`ceiling`, and a ``meter`` accounted the
        decision, the seat is charged only its own time
        (:meth:`Meter.own_time`): the referee's delays and the time the
        bot's process waited for a CPU are the machine's, not the bot's.
        """
        spent = elapsed
        deadline = self.deadline(seat)
        if meter is not None and deadline < elapsed <= deadline + self._lag:
            spent = meter.own_time(elapsed)
        self.charged[seat] = spent
        if spent > deadline:
            self._bank[seat] = 0.0
            return False
        over = spent - self.move_s
        if over > 0:
            self._bank[seat] = max(0.0, self._bank[seat] - over)
        return True


def start_meter(limits: Limits, leader: int, head: float) -> Meter | None:
    """The fair-clock meter of a decision that began ``head`` seconds ago, for the bot
    whose process group ``leader`` leads; None with fair clocks off (``lag_ms: 0``), as
    :meth:`Clock.meter`. For hosts that start it once their request is out."""
    return Meter.start(leader, head) if limits.lag_ms else None
