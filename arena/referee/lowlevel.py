"""The referee's machinery, for hosts, tools and tests that work beneath the match.

Child processes under limits (:class:`ChildProcess`), the bot protocol's
codec (:func:`encode`, :func:`decode`, :class:`LineDecoder`) and its views on
the wire (:class:`FullEncoder`, the delta encoding's :class:`DeltaEncoder` and
:class:`DeltaDecoder`, :func:`view_from_dict` for a Python bot that speaks the
protocol itself), the chess clock and its fair-clock meter, the sans-I/O match
loop the drivers feed, the host for cancel-scope style code
(:class:`ScopedHost`), loading bots by name, the sandbox's parts, and
:mod:`uecda <arena.referee.uecda._tables>`: the card tables of UECda protocol
20070 and what the reference server makes of them (``lowlevel.uecda.cards_table``
and the rest). The users' tier is :mod:`arena.referee`; the scripted host for
tests is :mod:`arena.referee.testing`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena._lazy import lazy_attribute

from ._limits import Clock
from ._loading import default_host, make_bot, resolve
from .child._protocol import (
    MAX_BLANK_LINES,
    MAX_LINE,
    PROTOCOL_VERSION,
    LineDecoder,
    ProtocolError,
    decode,
    encode,
)
from .child._wire import (
    DeltaDecoder,
    DeltaEncoder,
    FullEncoder,
    parse_move,
    view_from_dict,
    view_to_wire,
)
from .loop._loop import MatchLoop
from .loop._watch import Watch
from .sandbox._cgroup import CGROUP_ENV, memory_bound
from .sandbox._cputime import Meter
from .sandbox._layout import BOT_UID
from .sandbox._sandbox import WRITABLE_ENV, SandboxUnavailable, sandbox_argv, sandbox_fds
from .uecda import _tables as uecda

if TYPE_CHECKING:
    from .child._process import ChildProcess
    from .child._talk import start_message
    from .hosts._scoped import ScopedHost

# Imported when first read: they bring trio, which a run of inline bots never needs.
_LAZY = {"ChildProcess": "arena.referee.child._process",
         "start_message": "arena.referee.child._talk",
         "ScopedHost": "arena.referee.hosts._scoped"}


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, _LAZY, name)

__all__ = [
    "BOT_UID",
    "CGROUP_ENV",
    "MAX_BLANK_LINES",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "WRITABLE_ENV",
    "ChildProcess",
    "Clock",
    "DeltaDecoder",
    "DeltaEncoder",
    "FullEncoder",
    "LineDecoder",
    "MatchLoop",
    "Meter",
    "ProtocolError",
    "SandboxUnavailable",
    "ScopedHost",
    "Watch",
    "decode",
    "default_host",
    "encode",
    "make_bot",
    "memory_bound",
    "parse_move",
    "resolve",
    "sandbox_argv",
    "sandbox_fds",
    "start_message",
    "uecda",
    "view_from_dict",
    "view_to_wire",
]
