"""The referee: plays matches between bots under time limits, whatever the bots do.

One match at a time, on trio. Bot code runs in a *host*: ``inline`` (the
referee's process), ``process`` (a Python child process per seat, speaking
the JSON-lines protocol of docs/protocol.md over dedicated pipes),
``command`` (any executable speaking the same protocol on stdin/stdout),
or ``uecda`` (a UECda client). Misbehaviour becomes a recorded fault of
kind ``timeout``, ``crash``, ``illegal`` or ``malformed``, never an
exception.

This is the tier for users: match specs, hosts, playing matches, self-play.
The machinery under it (child processes, the protocol codec, the clock, the
sandbox's parts) is :mod:`arena.referee.lowlevel`, as trio keeps its own in
``trio.lowlevel``; the scripted host for tests is :mod:`arena.referee.testing`.
Behind these three faces the referee's rooms are private: ``loop`` (the match
loop and its drivers), ``hosts``, ``child`` (child processes and the protocol),
``sandbox`` and ``uecda`` (docs/architecture.md, "The referee's rooms").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena._lazy import lazy_attribute

from ._faults import BotFault, timeout_fault
from ._kinds import HOST_KINDS, HostKind
from ._limits import NO_DEADLINE, Deadline, Limits
from ._loading import BotRef
from ._referee import make_host, play_match, process_pool, run_match
from ._selfplay import Places, compare, play_bots, play_on
from ._spec import CopyLabels, MatchSpec, MatchSpecError, Seat
from .hosts._host import Host, InlineHost, StartInfo

if TYPE_CHECKING:
    from ._trial import try_starts
    from .hosts._process import CommandHost, ProcessHost, ProcessPool
    from .sandbox._sandbox import mechanism as sandbox_mechanism
    from .sandbox._sandbox import unavailable_reason as sandbox_unavailable_reason

# Imported when first read: the process hosts and the sandbox bring trio and the sandbox's
# machinery, which a run of inline bots never uses (docs/architecture.md, "Start-up").
_LAZY = {"try_starts": "arena.referee._trial",
         "CommandHost": "arena.referee.hosts._process",
         "ProcessHost": "arena.referee.hosts._process",
         "ProcessPool": "arena.referee.hosts._process",
         "sandbox_mechanism": "arena.referee.sandbox._sandbox:mechanism",
         "sandbox_unavailable_reason": "arena.referee.sandbox._sandbox:unavailable_reason"}


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, _LAZY, name)

__all__ = [
    "HOST_KINDS",
    "NO_DEADLINE",
    "BotFault",
    "BotRef",
    "CommandHost",
    "CopyLabels",
    "Deadline",
    "Host",
    "HostKind",
    "InlineHost",
    "Limits",
    "MatchSpec",
    "MatchSpecError",
    "Places",
    "ProcessHost",
    "ProcessPool",
    "Seat",
    "StartInfo",
    "compare",
    "make_host",
    "play_bots",
    "play_match",
    "play_on",
    "process_pool",
    "run_match",
    "sandbox_mechanism",
    "sandbox_unavailable_reason",
    "timeout_fault",
    "try_starts",
]
