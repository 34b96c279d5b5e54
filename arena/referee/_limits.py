"""Time and resource limits of a match, and the chess clock that spends them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

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

    def __post_init__(self) -> None:
        if not isinstance(self.sandbox, bool):
            raise ValueError(f"limit 'sandbox' must be true or false, got {self.sandbox!r}")
        for name in ("move_ms", "start_ms", "grace_ms", "cpu_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"limit {name!r} must be a whole number > 0, got {value!r}")
        for name, least in (("bank_ms", 0), ("memory_mb", 1)):
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
    """Per-seat chess clock: ``move_ms`` per decision plus an optional match bank."""

    def __init__(self, limits: Limits, players: int) -> None:
        self._move = limits.move_ms / 1000
        self._grace = limits.grace_ms / 1000
        self._bank = [(limits.bank_ms or 0) / 1000] * players

    def budget(self, seat: int) -> float:
        """Seconds the seat may think on this decision before it is late."""
        return self._move + self._bank[seat]

    def deadline(self, seat: int) -> float:
        """Seconds after which the referee stops waiting (budget plus grace)."""
        return self.budget(seat) + self._grace

    def bank(self, seat: int) -> float:
        """Seconds left in the seat's bank."""
        return self._bank[seat]

    def charge(self, seat: int, elapsed: float) -> bool:
        """Spend ``elapsed`` seconds of the seat's time; False if it ran past the deadline."""
        if elapsed > self.deadline(seat):
            self._bank[seat] = 0.0
            return False
        over = elapsed - self._move
        if over > 0:
            self._bank[seat] = max(0.0, self._bank[seat] - over)
        return True
