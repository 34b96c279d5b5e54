"""The bot protocol's codec: JSON lines in, JSON lines out, no I/O.

The codec is pure so that the same code frames messages for the referee's
trio streams, for the synchronous child runner, and for tests that use
``trio.testing.memory_stream_pair()`` instead of processes. docs/protocol.md
is the specification; this module is its single implementation.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from .._faults import BotFault

__all__ = [
    "MAX_BLANK_LINES",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "LineDecoder",
    "ProtocolError",
    "answer_value",
    "decode",
    "encode",
]

PROTOCOL_VERSION: Final = 1
"""Sent in every ``start`` message; raised when the message format changes."""

MAX_LINE: Final = 1 << 20
"""The longest line (bytes, newline excluded) either side may send: 1 MiB."""

MAX_BLANK_LINES: Final = 100
"""The most blank lines a peer may send in a row (they are skipped): one more is a
:class:`ProtocolError`, so that a flood of empty lines costs the peer a fault instead of
costing the reader its time."""

_ANSWER_FIELD: Final = {"start": None, "play": "move", "exchange": "cards"}
_ANSWER_TYPE: Final = {"start": "ready", "play": "move", "exchange": "exchange"}


class ProtocolError(ValueError):
    """A peer sent bytes that are not a protocol message (a ``malformed`` fault)."""


# msgspec's JSON codec, built once: it writes and reads a request line several times
# faster than the standard library (benchmarks/referee.py), and is strict JSON both ways.
_ENCODER: Final = msgspec.json.Encoder()
_DECODER: Final = msgspec.json.Decoder()


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line: compact JSON, UTF-8, ending in a newline."""
    return _ENCODER.encode(message) + b"\n"


def decode(line: bytes | str) -> dict[str, Any]:
    """Parse one line (without its newline) into a message object with a ``type``."""
    try:
        message = _DECODER.decode(line)
    except RecursionError:
        raise ProtocolError(f"JSON nested too deeply: {_excerpt(line)}") from None
    except Exception as exc:  # every byte is the peer's: nothing it sends may escape as a bug
        raise ProtocolError(f"not JSON: {_excerpt(line)}") from exc
    if not isinstance(message, dict):
        raise ProtocolError(f"not a JSON object: {_excerpt(line)}")
    if not isinstance(message.get("type"), str):
        raise ProtocolError(f"message without a string 'type': {_excerpt(line)}")
    return message


class LineDecoder:
    """Splits a byte stream into lines, however the bytes arrive.

    Feed it whatever a read returned; take complete lines with
    :meth:`next_line`. A line longer than ``max_line`` is refused with
    :class:`ProtocolError` instead of growing the buffer without bound,
    which is how a bot that floods its output is stopped; so is more than
    ``max_blank`` blank lines in a row.
    """

    __slots__ = ("_blank", "_buffer", "_max_blank", "_max_line", "_one", "_scan_from")

    def __init__(self, max_line: int = MAX_LINE, max_blank: int = MAX_BLANK_LINES) -> None:
        self._buffer = bytearray()
        self._max_line = max_line
        self._max_blank = max_blank
        self._blank = 0
        self._scan_from = 0
        self._one: bytes | None = None

    def feed(self, data: bytes) -> None:
        """Append bytes just read from the peer."""
        if (
            data
            and self._one is None
            and not self._buffer
            and data.find(b"\n") == len(data) - 1
            and len(data) <= self._max_line
        ):
            # The usual case: one read, one whole line. Keep it as it is.
            self._one = data
            return
        if self._one is not None:
            self._buffer += self._one
            self._one = None
        self._buffer += data

    def next_line(self) -> bytes | None:
        """The next complete line without its newline, or ``None`` if none is complete yet.

        Blank lines are skipped (up to ``max_blank`` in a row); a trailing ``\\r`` is
        dropped so CRLF peers work.
        """
        one = self._one
        if one is not None:
            self._one = None
            line = one[:-1].rstrip(b"\r")
            if line.strip():
                self._blank = 0
                return line
            self._skip_blank()
        while True:
            end = self._buffer.find(b"\n", self._scan_from)
            if end < 0:
                self._scan_from = len(self._buffer)
                if self._scan_from > self._max_line:
                    raise ProtocolError(f"line longer than {self._max_line} bytes")
                return None
            if end > self._max_line:
                raise ProtocolError(f"line longer than {self._max_line} bytes")
            line = bytes(self._buffer[:end]).rstrip(b"\r")
            del self._buffer[: end + 1]
            self._scan_from = 0
            if line.strip():
                self._blank = 0
                return line
            self._skip_blank()

    def _skip_blank(self) -> None:
        self._blank += 1
        if self._blank > self._max_blank:
            raise ProtocolError(f"more than {self._max_blank} blank lines in a row")

    @property
    def pending(self) -> bytes:
        """Bytes received after the last complete line (for error details)."""
        return bytes(self._buffer) if self._one is None else self._one


def answer_value(message: dict[str, Any], request: str, request_id: int | None) -> Any:
    """The payload of a bot's answer to a ``request`` (``start``, ``play``, ``exchange``).

    Returns the ``move`` field of a ``move`` answer, the ``cards`` field of
    an ``exchange`` answer, or the whole ``ready`` message. An ``error``
    message becomes a ``crash`` fault (the bot's code failed and said so);
    anything else is a :class:`ProtocolError` (``malformed``). The values
    themselves are judged by the referee, not here.
    """
    kind = message.get("type")
    answer_id = message.get("id")
    if answer_id is not None and request_id is not None and answer_id != request_id:
        raise ProtocolError(f"answer id {answer_id!r} does not match request id {request_id}")
    if kind == "error":
        detail = message.get("message")
        raise BotFault("crash", f"bot error: {detail if isinstance(detail, str) else message!r}",
                       reported=True)
    expected = _ANSWER_TYPE[request]
    if kind != expected:
        raise ProtocolError(f"expected a {expected!r} message, got type {kind!r}")
    field = _ANSWER_FIELD[request]
    if field is None:
        return message
    if field not in message:
        raise ProtocolError(f"{expected!r} message without a {field!r} field")
    return message[field]


def _excerpt(line: bytes | str, limit: int = 120) -> str:
    text = line.decode(errors="replace") if isinstance(line, bytes) else line
    return repr(text if len(text) <= limit else text[:limit] + "...")
