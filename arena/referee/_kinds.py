"""The kinds of host, where a seat's bot runs: one table that every use of a kind reads.

A seat's ``host`` (:class:`~arena.referee.Seat`), a tournament config's ``host:`` values,
a match record's ``seats[].host`` (the ``kind`` of the host that played the seat, which
must be the seat's) and :func:`~arena.referee.make_host` all come from :data:`HOST_KINDS`.
A kind the referee makes has a maker; a kind without one is handed to
:func:`~arena.referee.play_match` by its caller (a person at a served table, a person at
the terminal, a test's scripted host). A new kind is its :class:`~arena.referee.Host`
subclass, whose ``kind`` names it, and its line here (docs/architecture.md, "A new host
kind").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ._limits import Limits
from .hosts._host import Host, InlineHost

if TYPE_CHECKING:  # the makers import their hosts: trio's, which inline seats never need
    from .hosts._process import ProcessPool

__all__ = ["HOST_KINDS", "HostKind"]

Maker = Callable[[str, dict[str, Any], Limits, "ProcessPool | None", Sequence[str]], Host]
"""Makes a seat's host from what the seat gives (its bot name or its command line), its
``params``, the match's limits, the pool of processes to reuse and the paths to hide."""


@dataclass(frozen=True, slots=True)
class HostKind:
    """One kind of host: its name, what a seat of the kind gives, and how its host is made."""

    name: str
    """The word for it in a seat, a config's ``host:`` and a record's ``seats[].host``."""
    gives: Literal["name", "command"]
    """What its seat names: a bot (``name``, registered or ``module:Class``) or a program
    (``command``, a command line)."""
    make: Maker | None
    """How the referee makes its host; None: its caller hands the host in."""
    summary: str
    """What it is, in a few words (docs and error messages)."""
    config: bool = False
    """Whether a tournament config's ``host:`` may name it."""
    protocol: str | None = None
    """The ``protocol:`` that picks it for a ``command`` (``uecda``); None: it speaks
    arena's own protocol, or none."""


def _inline(name: str, params: dict[str, Any], limits: Limits, pool: ProcessPool | None,
            private: Sequence[str]) -> Host:
    return InlineHost(name, params)


def _process(name: str, params: dict[str, Any], limits: Limits, pool: ProcessPool | None,
             private: Sequence[str]) -> Host:
    from .hosts._process import ProcessHost

    return ProcessHost(name, params, limits=limits, pool=pool, private=private)


def _command(command: str, params: dict[str, Any], limits: Limits, pool: ProcessPool | None,
             private: Sequence[str]) -> Host:
    from .hosts._process import CommandHost

    return CommandHost(command, limits=limits, pool=pool, private=private)


def _uecda(command: str, params: dict[str, Any], limits: Limits, pool: ProcessPool | None,
           private: Sequence[str]) -> Host:
    from .uecda._host import UecdaHost

    return UecdaHost(command, limits=limits)


HOST_KINDS: Mapping[str, HostKind] = {kind.name: kind for kind in (
    HostKind("inline", "name", _inline, "in the referee's own process (trusted code)",
             config=True),
    HostKind("process", "name", _process, "a Python child process of its own, sandboxed",
             config=True),
    HostKind("command", "command", _command,
             "any program speaking the arena protocol on stdin and stdout", config=True),
    HostKind("uecda", "command", _uecda, "a UECda 20070 client program, arena its server",
             protocol="uecda"),
    HostKind("web", "name", None, "a person at a served table (arena.web)"),
    HostKind("human", "name", None, "a person at the terminal (arena play)"),
    HostKind("memory", "name", None, "a scripted bot for tests (arena.referee.testing)"),
)}
"""Every kind of host, by name, in the order docs and messages list them."""

CONFIG_HOSTS: tuple[str, ...] = tuple(kind.name for kind in HOST_KINDS.values() if kind.config)
"""The values of a tournament config's ``host:``."""

PROTOCOLS: Mapping[str, str] = {kind.protocol: kind.name for kind in HOST_KINDS.values()
                                if kind.protocol is not None}
"""The kind a seat's ``protocol:`` picks, by protocol (``arena``, the default, picks none)."""
