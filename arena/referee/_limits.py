"""Time and resource limits of a match, and the chess clock that spends them."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, NamedTuple

from .sandbox._cputime import Meter

__all__ = ["NO_DEADLINE", "Clock", "Deadline", "LimitError", "Limits"]

_LEAST = {"bank_ms": 0, "memory_mb": 1, "lag_ms": 0, "tmp_mb": 1}
"""The limits that may be null (none), and their least value otherwise."""


class LimitError(ValueError):
    """A limit out of its range: ``limit`` names it, ``problem`` says what is wrong."""

    def __init__(self, limit: str, problem: str) -> None:
        self.limit = limit
        self.problem = problem
        super().__init__(f"limit {limit!r} {problem}")



@dataclass(frozen=True, slots=True)
class Limits:
    """The limits every seat of a match plays under: each default is written here, once.

    ``move_ms`` is the time for each decision. ``bank_ms`` (optional; 0 or
    ``None`` for none) is a chess-clock reserve for the whole match: time spent beyond ``move_ms``
    is taken from it, and a decision times out only when both are spent.
    ``start_ms`` bounds starting a bot (a process, its imports, its
    ``start_match``). ``memory_mb`` caps a child process's address space
    (``RLIMIT_AS``; ``None`` lifts the cap) and, where the machine gives a
    memory cgroup (``arena.referee.sandbox._cgroup``), the memory of all of a bot's
    processes together. ``grace_ms`` is transport
    slack: an answer that arrives within it after the budget is accepted
    (and empties the bank), so pipe and scheduling latency never turn a
    punctual bot into a timeout. ``cpu_s`` caps a child process's CPU time
    over its life, a backstop if the referee itself dies. ``sandbox`` runs
    ``process`` and ``command`` bots in their own namespaces (see
    ``arena.referee.sandbox_mechanism`` and docs/security.md); ``tmp_mb``
    bounds a sandboxed bot's private ``/tmp`` and ``/dev/shm`` (each; ``None``:
    ``memory_mb``'s figure).

    ``lag_ms`` makes the clock fair on a loaded machine: an answer later
    than budget plus grace by the wall clock is still in time if the bot's
    own time was not (its CPU time, or the wall time less the time its
    process and the referee waited for a CPU; see :meth:`Clock.charge`),
    but the referee never waits longer than budget plus grace plus
    ``lag_ms``: that is the hard wall-clock ceiling of every decision, for
    a bot that sleeps, hangs or forks alike. ``0`` turns the fairness off.

    Every field is checked when the object is made (a :class:`LimitError`, a
    ``ValueError`` naming the field), so whoever holds a ``Limits`` holds valid
    limits: the tournament config, the command line and the referee share this
    one check (:meth:`check`), and the config's keys, types and descriptions are
    read from these fields (``doc`` in each field's metadata).
    """

    NULLABLE: ClassVar[tuple[str, ...]] = ("bank_ms", "memory_mb")
    """The limits whose null in plain data means none; null for any other takes its default."""

    move_ms: int = field(default=1000, metadata={"doc": "Time for one decision (ms)."})
    bank_ms: int | None = field(default=None, metadata={
        "doc": "Extra time a seat may draw on over a match (ms); null: none."})
    start_ms: int = field(default=5000, metadata={"doc": "Time for a bot to start (ms)."})
    memory_mb: int | None = field(default=1024, metadata={
        "doc": "Memory cap of process and command bots (MB); null: none."})
    grace_ms: int = field(default=100, metadata={
        "doc": "Slack after a decision's time for pipes and scheduling; a later answer is a "
        "timeout (ms)."})
    cpu_s: int = field(default=3600, metadata={
        "doc": "CPU time cap of a bot process over its life (s)."})
    sandbox: bool = field(default=False, metadata={
        "doc": "Run process and command bots in their own namespaces (docs/security.md)."})
    lag_ms: int = field(default=500, metadata={
        "doc": "Most time past move time plus grace a decision may take when the delay was the "
        "machine's, not the bot's (fair clocks, docs/tournaments.md); 0 turns them off (ms)."})
    tmp_mb: int | None = field(default=None, metadata={
        "doc": "Size of a sandboxed bot's private /tmp and /dev/shm, each (MB); null: "
        "memory_mb's."})

    def __post_init__(self) -> None:
        for name in _NAMES:
            problem = Limits.problem(name, getattr(self, name))
            if problem is not None:
                raise LimitError(name, problem)

    @staticmethod
    def problem(name: str, value: object) -> str | None:
        """What is wrong with ``value`` for limit ``name`` (None: valid): the one check of
        every limit, which the dataclass, the tournament config and the CLI share."""
        if name == "sandbox":
            return None if isinstance(value, bool) else f"must be true or false, got {value!r}"
        whole = isinstance(value, int) and not isinstance(value, bool)
        least = _LEAST.get(name)
        if least is not None:  # may be null
            if value is None or (whole and value >= least):  # type: ignore[operator]
                return None
            return f"must be a whole number >= {least} or null, got {value!r}"
        if whole and value > 0:  # type: ignore[operator]
            return None
        return f"must be a whole number > 0, got {value!r}"

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
        values = {k: v for k, v in data.items() if v is not None or k in cls.NULLABLE}
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready limits, as written into records (a fresh dict each call)."""
        return {name: getattr(self, name) for name in _NAMES}


_NAMES = Limits.names()


class Deadline(NamedTuple):
    """The time of one call to a host, made once by the driver and passed down as an
    argument: when the host stops waiting, and how much the call was allowed. A named
    tuple: immutable, and made once a decision at a tuple's cost.

    ``at`` is the ``trio.current_time()`` past which the host stops waiting (``math.inf``:
    never, :data:`NO_DEADLINE`); below the host (a child process, its channel) only ``at``
    goes on. ``allowed_s`` is what the call was allowed, the figure its timeout fault
    quotes (:func:`arena.referee._faults.timeout_fault`): for a decision the seat's
    :meth:`Clock.allowed`, which ``at`` exceeds by the fair clocks' lag; for a start,
    ``start_ms``.
    """

    at: float
    allowed_s: float

    @classmethod
    def after(cls, now: float, seconds: float) -> Deadline:
        """A call allowed ``seconds`` from ``now``, and waited for as long."""
        return cls(now + seconds, seconds)


NO_DEADLINE = Deadline(math.inf, math.inf)
"""The deadline of a seat without a clock (a person at the table): never."""


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

    def allowed(self, seat: int) -> float:
        """Seconds the seat is allowed for this decision (budget plus grace): later, by its
        own time, is a timeout, and every timeout fault quotes this figure."""
        return self.budget(seat) + self._grace

    def ceiling(self, seat: int) -> float:
        """Seconds after which the referee stops waiting whatever the cause (allowed plus
        lag)."""
        return self.allowed(seat) + self._lag

    def deadline(self, seat: int, now: float) -> Deadline:
        """The :class:`Deadline` of the seat's decision asked at ``now`` (a
        ``trio.current_time()``): the referee waits :meth:`ceiling` seconds, the seat is
        :meth:`allowed` its own."""
        allowed = self.move_s + self._bank[seat] + self._grace  # allowed(), inlined
        return Deadline(now + allowed + self._lag, allowed)

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
        allowed = self.allowed(seat)
        if meter is not None and allowed < elapsed <= allowed + self._lag:
            spent = meter.own_time(elapsed)
        self.charged[seat] = spent
        if spent > allowed:
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
