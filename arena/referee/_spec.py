"""The match spec: what a tournament (or the command line) hands to the referee, typed.

One frozen object per match, made and checked once where a match is decided
(the tournament's schedule, ``arena match``, ``arena play``), carried to a
worker as it is (it pickles small), and played by the referee without a
second check. ``MatchSpec.from_dict`` reads the plain-data form that
docs/records.md documents ("the match spec"), for tools and notebooks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from arena.game import Rules
from arena.seeds import SEED_LIMIT

from ._limits import Limits
from ._loading import default_host

__all__ = ["HOST_KINDS", "CopyLabels", "HostKind", "MatchSpec", "MatchSpecError", "Seat"]

HostKind = Literal["inline", "process", "command", "uecda"]
"""Where a seat's bot runs: see docs/protocol.md and docs/uecda.md."""

HOST_KINDS: tuple[str, ...] = get_args(HostKind)


class MatchSpecError(ValueError):
    """A match spec that cannot be played: the message names the bad field."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat's bot: a registered bot (``name``) or a program (``command``), and its host.

    ``name`` is a registered bot (``arena bots``) or a ``module:Class``
    reference, run by the ``inline`` or ``process`` host; ``command`` is a
    command line run by the ``command`` host (the arena protocol) or the
    ``uecda`` host (a UECda 20070 client). ``params`` go to the bot's factory.
    """

    label: str
    name: str | None = None
    command: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    host: HostKind = "inline"

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not self.label:
            raise MatchSpecError(f"a seat needs a label, got {self.label!r}")
        if self.host not in HOST_KINDS:
            raise MatchSpecError(f"seat {self.label!r}: unknown host {self.host!r} "
                                 f"(expected one of {', '.join(HOST_KINDS)})")
        if not isinstance(self.params, Mapping):
            raise MatchSpecError(f"seat {self.label!r}: params must be a mapping, "
                                 f"got {self.params!r}")
        if self.host in ("command", "uecda"):
            if not isinstance(self.command, str) or not self.command.strip():
                raise MatchSpecError(f"seat {self.label!r}: a {self.host!r} host needs a "
                                     f"'command' line")
            if self.name is not None:
                raise MatchSpecError(f"seat {self.label!r}: a {self.host!r} host runs a "
                                     f"'command', not a bot 'name'")
        else:
            if not isinstance(self.name, str) or not self.name:
                raise MatchSpecError(f"seat {self.label!r}: a {self.host!r} host needs a bot "
                                     f"'name'")
            if self.command is not None:
                raise MatchSpecError(f"seat {self.label!r}: a {self.host!r} host runs a bot "
                                     f"'name', not a 'command'")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seat:
        """A seat from plain data (a BotSpec of docs/records.md)."""
        if not isinstance(data, Mapping):
            raise MatchSpecError(f"a seat must be a BotSpec mapping, got {data!r}")
        known = {"label", "name", "command", "params", "host", "protocol"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise MatchSpecError(f"unknown seat field {unknown[0]!r} "
                                 f"(known: {', '.join(sorted(known))})")
        name, command = data.get("name"), data.get("command")
        host = data.get("host") or (default_host(name) if isinstance(name, str) else "command")
        if data.get("protocol") == "uecda":
            host = "uecda"
        elif data.get("protocol") not in (None, "arena"):
            raise MatchSpecError(f"unknown protocol {data.get('protocol')!r} "
                                 f"(expected 'arena' or 'uecda')")
        label = data.get("label") or name or command
        return cls(label=str(label or ""), name=name, command=command,
                   params=dict(data.get("params") or {}), host=cast(HostKind, host))

    def to_dict(self) -> dict[str, Any]:
        """The plain-data BotSpec."""
        data: dict[str, Any] = {"label": self.label, "name": self.name,
                                "command": self.command, "params": dict(self.params),
                                "host": self.host}
        if self.host == "uecda":
            data["protocol"] = "uecda"
        return data


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything the referee needs to play one match, and what its record repeats.

    ``seed`` decides the deals and the bots' generators (never sent to a
    bot). ``tournament``, ``set`` and ``round`` are written into the record
    for standings and duplicate sets. ``private`` lists paths that sandboxed
    bots must not see (the run's output folder, its config); it is not
    recorded.
    """

    match_id: str
    seed: int
    seats: tuple[Seat, ...]
    rules: Rules = field(default_factory=Rules)
    limits: Limits = field(default_factory=Limits)
    tournament: str | None = None
    set: str | None = None
    round: int | None = None
    private: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not (
            0 <= self.seed < SEED_LIMIT
        ):
            raise MatchSpecError(f"match seed must be an integer from 0 to 2**63-1, "
                                 f"got {self.seed!r}")
        if not isinstance(self.seats, tuple) or not all(isinstance(s, Seat) for s in self.seats):
            raise MatchSpecError("seats must be a tuple of Seat")
        if not 2 <= len(self.seats) <= 8:
            raise MatchSpecError(f"a match needs 2 to 8 seats, got {len(self.seats)}")
        labels = [seat.label for seat in self.seats]
        for label in labels:
            if labels.count(label) > 1:
                raise MatchSpecError(f"label {label!r} is given to more than one seat")
        if not isinstance(self.rules, Rules):
            raise MatchSpecError(f"rules must be arena.game.Rules, got {self.rules!r}")
        if not isinstance(self.limits, Limits):
            raise MatchSpecError(f"limits must be arena.referee.Limits, got {self.limits!r}")
        try:
            self.rules.check_table(len(self.seats))
        except ValueError as exc:
            raise MatchSpecError(f"bad rules: {exc}") from None

    def identity(self) -> dict[str, Any]:
        """What every record of this match repeats of its spec, in record order: ``match_id``,
        ``tournament``, ``seed``, ``set``, ``round`` (docs/records.md)."""
        return {"match_id": self.match_id, "tournament": self.tournament, "seed": self.seed,
                "set": self.set, "round": self.round}

    @property
    def labels(self) -> list[str]:
        """The seats' labels, in seat order."""
        return [seat.label for seat in self.seats]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchSpec:
        """A spec from its plain-data form (docs/records.md); raises :class:`MatchSpecError`."""
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(data) - known)
        if unknown:
            raise MatchSpecError(f"unknown match spec field {unknown[0]!r}")
        try:
            rules = Rules.from_dict(data.get("rules") or {})
        except (TypeError, ValueError) as exc:
            raise MatchSpecError(f"bad rules: {exc}") from None
        try:
            limits = Limits.from_dict(data.get("limits"))
        except (TypeError, ValueError) as exc:
            raise MatchSpecError(f"bad limits: {exc}") from None
        private = data.get("private") or ()
        if not isinstance(private, Sequence) or isinstance(private, str) or not all(
            isinstance(p, str) for p in private
        ):
            raise MatchSpecError(f"'private' must be a list of paths, got {private!r}")
        seats = data.get("seats") or ()
        if not isinstance(seats, Sequence) or isinstance(seats, str):
            raise MatchSpecError(f"'seats' must be a list of BotSpecs, got {seats!r}")
        return cls(
            match_id=str(data.get("match_id", "match")),
            seed=data.get("seed", 0),
            seats=tuple(Seat.from_dict(seat) for seat in seats),
            rules=rules,
            limits=limits,
            tournament=data.get("tournament"),
            set=data.get("set"),
            round=data.get("round"),
            private=tuple(private),
        )

    def to_dict(self) -> dict[str, Any]:
        """The plain-data form (JSON-ready)."""
        return {
            "match_id": self.match_id,
            "tournament": self.tournament,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "seats": [seat.to_dict() for seat in self.seats],
            "limits": self.limits.to_dict(),
            "set": self.set,
            "round": self.round,
            "private": list(self.private),
        }


class CopyLabels:
    """Labels for the copies of a bot at one table: the first keeps the name, the second is
    ``NAME-2``, the third ``NAME-3``; the one rule of ``arena match``, ``arena ab``,
    ``arena play`` and self-play."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def __call__(self, name: str) -> str:
        """The label of the next copy of ``name``."""
        count = self._seen[name] = self._seen.get(name, 0) + 1
        return name if count == 1 else f"{name}-{count}"
