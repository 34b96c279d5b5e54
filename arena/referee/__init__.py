"""The referee: plays matches between bots under time limits, whatever the bots do.

One match at a time, on trio. Bot code runs in a *host*: ``inline`` (the
referee's process), ``process`` (a Python child process per seat, speaking
the JSON-lines protocol of docs/protocol.md over dedicated pipes),
``command`` (any executable speaking the same protocol on stdin/stdout),
or, for tests, ``memory``. Misbehaviour becomes a recorded fault of kind
``timeout``, ``crash``, ``illegal`` or ``malformed``, never an exception.
"""

from ._child_process import ChildProcess, group_members, process_alive
from ._faults import FAULT_KINDS, BotFault
from ._host import Host, InlineHost, MemoryHost, StartInfo
from ._limits import Clock, Limits
from ._loading import BotRef, make_bot, resolve
from ._process_host import CommandHost, ProcessHost, ProcessPool
from ._protocol import PROTOCOL_VERSION, LineDecoder, ProtocolError, decode, encode
from ._referee import HOST_KINDS, MatchSpecError, make_host, play_match, process_pool, run_match
from ._sandbox import WRITABLE_ENV, SandboxUnavailable, sandbox_argv
from ._sandbox import mechanism as sandbox_mechanism
from ._seats import bot_spec, seat_specs

__all__ = [
    "FAULT_KINDS",
    "HOST_KINDS",
    "PROTOCOL_VERSION",
    "BotFault",
    "BotRef",
    "ChildProcess",
    "Clock",
    "CommandHost",
    "Host",
    "InlineHost",
    "Limits",
    "LineDecoder",
    "MatchSpecError",
    "MemoryHost",
    "ProcessHost",
    "ProcessPool",
    "ProtocolError",
    "StartInfo",
    "bot_spec",
    "decode",
    "encode",
    "group_members",
    "make_bot",
    "make_host",
    "play_match",
    "process_alive",
    "process_pool",
    "resolve",
    "run_match",
]
__all__ += ["WRITABLE_ENV", "SandboxUnavailable", "sandbox_argv", "sandbox_mechanism"]
__all__ += ["seat_specs"]
