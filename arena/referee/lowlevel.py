"""The referee's machinery, for hosts, tools and tests that work beneath the match.

Child processes under limits (:class:`ChildProcess`), the bot protocol's
codec (:func:`encode`, :func:`decode`, :class:`LineDecoder`), the chess
clock and its fair-clock meter, the sans-I/O match loop the drivers feed,
the host for cancel-scope style code (:class:`ScopedHost`), the scripted
host for tests (:class:`MemoryHost`), loading bots by name, and the
sandbox's parts. The users' tier is :mod:`arena.referee`.
"""

from ._cgroup import CGROUP_ENV, memory_bound
from ._child_process import ChildProcess
from ._child_talk import start_message
from ._cputime import Meter
from ._host import MemoryHost
from ._limits import Clock
from ._loading import default_host, make_bot, resolve
from ._loop import MatchLoop
from ._protocol import (
    MAX_BLANK_LINES,
    MAX_LINE,
    PROTOCOL_VERSION,
    LineDecoder,
    ProtocolError,
    decode,
    encode,
)
from ._sandbox import WRITABLE_ENV, SandboxUnavailable, sandbox_argv, sandbox_fds
from ._scoped import ScopedHost
from ._watch import Watch

__all__ = [
    "CGROUP_ENV",
    "MAX_BLANK_LINES",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "WRITABLE_ENV",
    "ChildProcess",
    "Clock",
    "LineDecoder",
    "MatchLoop",
    "MemoryHost",
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
    "resolve",
    "sandbox_argv",
    "sandbox_fds",
    "start_message",
]
