"""What the child-process hosts say and hear at a bot's start, and the one mapping of what
a call to a child raised to the seat's fault."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import trio

from arena.seeds import bot_seed

from .._faults import BotFault, timeout_fault
from ._protocol import PROTOCOL_VERSION
from ._wire import VIEW_ENCODINGS

if TYPE_CHECKING:
    from ..hosts._host import StartInfo
    from ._process import ChildProcess

__all__ = ["call_fault", "ready_options", "start_message"]

_BUFFERED_HINT = ("; if it did start, its output may be buffered: a bot must flush each "
                  "line it writes (docs/protocol.md)")


def call_fault(exc: Exception, proc: ChildProcess, call: str, doing: str,
           allowed: float) -> BotFault:
    """The one mapping, for a child-process host, of what a ``call`` (``start``, ``play``,
    ``exchange``, ``end_deal``) raised while ``doing`` (``send`` or ``receive``) to the
    seat's fault; ``allowed`` is what its deadline allowed (``Deadline.allowed_s``), and a
    decision's timeout is worded as a late answer's (:func:`timeout_fault`). Whatever it
    raised, a call after which the limit of the bot's memory cgroup killed one of its
    processes is a memory fault."""
    memory = proc.memory_fault()
    if memory is not None:
        return memory
    if isinstance(exc, BotFault):
        return exc
    if not isinstance(exc, trio.TooSlowError):  # ProtocolError, or anything the bytes caused
        reason = (str(exc) if isinstance(exc, ValueError)
                  else f"unreadable answer ({type(exc).__name__}: {exc})")
        return BotFault("malformed", reason)
    if proc.poll() is not None:  # it died, but something it left behind held the pipe open
        return proc.death_fault("exited without answering")
    note = proc.tail_note()
    if call == "start":
        return BotFault("timeout", f"did not start within {allowed * 1000:.0f} ms"
                        f"{note}{_BUFFERED_HINT}")
    if doing == "send":
        return BotFault("timeout", f"did not read its input in time{note}")
    return timeout_fault(allowed, note=note)


def start_message(info: StartInfo, request_id: int | None = None) -> dict[str, Any]:
    """The ``start`` request of docs/protocol.md for the seat of ``info``: the one start
    message. Without ``request_id`` it is what a person's seat is told, which answers no
    request and draws no random numbers: no ``id``, no ``seed``."""
    message: dict[str, Any] = {"type": "start"}
    if request_id is not None:
        message["id"] = request_id
    message.update(protocol=PROTOCOL_VERSION, seat=info.seat, players=info.players,
                   match_id=info.match_id, labels=list(info.labels),
                   rules=info.rules.to_dict(), limits=info.limits)
    if request_id is not None:
        message["seed"] = bot_seed(info.seed, info.seat)
    return message


def ready_options(ready: dict[str, Any]) -> tuple[str, bool, bool]:
    """The view encoding, ``legal_moves`` and ``end_deal`` a bot's ``ready`` chose; a bad
    one is a ``malformed`` fault."""
    views = ready.get("views", "full")
    if views not in VIEW_ENCODINGS:
        raise BotFault("malformed", f"'views' must be one of "
                       f"{', '.join(map(repr, VIEW_ENCODINGS))}, got {views!r}")
    flags = []
    for name, default in (("legal_moves", False), ("end_deal", True)):
        value = ready.get(name, default)
        if not isinstance(value, bool):
            raise BotFault("malformed", f"{name!r} must be true or false, got {value!r}")
        flags.append(value)
    return views, flags[0], flags[1]
