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
memory host for tests, the sandbox's parts) is :mod:`arena.referee.lowlevel`,
as trio keeps its own in ``trio.lowlevel``.
"""

from typing import Any

from ._faults import BotFault
from ._host import Host, InlineHost, StartInfo
from ._limits import Limits
from ._loading import BotRef
from ._process_host import CommandHost, ProcessHost, ProcessPool
from ._referee import make_host, play_match, process_pool, run_match
from ._sandbox import mechanism as sandbox_mechanism
from ._sandbox import unavailable_reason as sandbox_unavailable_reason
from ._seats import CopyLabels, bot_spec, seat_specs
from ._selfplay import Places, compare, play_bots, play_on
from ._spec import HOST_KINDS, HostKind, MatchSpec, MatchSpecError, Seat
from ._trial import try_starts

__all__ = [
    "HOST_KINDS",
    "BotFault",
    "BotRef",
    "CommandHost",
    "CopyLabels",
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
    "bot_spec",
    "compare",
    "make_host",
    "play_bots",
    "play_match",
    "play_on",
    "process_pool",
    "run_match",
    "sandbox_mechanism",
    "sandbox_unavailable_reason",
    "seat_specs",
    "try_starts",
]


def __getattr__(name: str) -> Any:
    """The names that moved to :mod:`arena.referee.lowlevel` stay importable from here, for
    code written against the one flat namespace this package had; they are not public here."""
    import importlib

    lowlevel = importlib.import_module("arena.referee.lowlevel")
    if name in lowlevel.__all__:
        return getattr(lowlevel, name)
    raise AttributeError(f"module 'arena.referee' has no attribute {name!r}")
