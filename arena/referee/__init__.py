"""The referee: plays matches between bots under time limits, whatever the bots do.

One match at a time, on trio. Bot code runs in a *host*: ``inline`` (the
referee's process), ``process`` (a Python child process per seat, speaking
the JSON-lines protocol of docs/protocol.md over dedicated pipes),
``command`` (any executable speaking the same protocol on stdin/stdout),
or, for tests, ``memory``. Misbehaviour becomes a recorded fault of kind
``timeout``, ``crash``, ``illegal`` or ``malformed``, never an exception.
"""

from ._child_process import ChildProcess
from ._cputime import Meter
from ._faults import BotFault
from ._host import Host, InlineHost, MemoryHost, StartInfo
from ._limits import Clock, Limits
from ._loading import BotRef, make_bot, resolve
from ._process_host import CommandHost, ProcessHost, ProcessPool
from ._protocol import PROTOCOL_VERSION, LineDecoder, ProtocolError, decode, encode
from ._referee import make_host, play_match, process_pool, run_match
from ._sandbox import WRITABLE_ENV, SandboxUnavailable, sandbox_argv
from ._sandbox import mechanism as sandbox_mechanism
from ._seats import CopyLabels, bot_spec, seat_specs
from ._selfplay import Places, compare, play_bots, play_on
from ._spec import HOST_KINDS, HostKind, MatchSpec, MatchSpecError, Seat

__all__ = [
    "HOST_KINDS",
    "PROTOCOL_VERSION",
    "BotFault",
    "BotRef",
    "ChildProcess",
    "Clock",
    "CommandHost",
    "CopyLabels",
    "Host",
    "HostKind",
    "InlineHost",
    "Limits",
    "LineDecoder",
    "MatchSpec",
    "MatchSpecError",
    "MemoryHost",
    "Meter",
    "Places",
    "ProcessHost",
    "ProcessPool",
    "ProtocolError",
    "Seat",
    "StartInfo",
    "bot_spec",
    "compare",
    "decode",
    "encode",
    "make_bot",
    "make_host",
    "play_bots",
    "play_match",
    "play_on",
    "process_pool",
    "resolve",
    "run_match",
]
__all__ += ["WRITABLE_ENV", "SandboxUnavailable", "sandbox_argv", "sandbox_mechanism"]
__all__ += ["seat_specs"]
