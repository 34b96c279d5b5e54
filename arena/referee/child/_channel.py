"""Protocol messages over a byte stream, and the thin stream over a child's two pipes.

:class:`Channel` is the request/answer layer of the ``process`` and
``command`` hosts: one JSON object per line each way (docs/protocol.md),
over any ``trio`` send and receive stream, so that it is tested over
``trio.testing.memory_stream_pair()`` without processes. It takes no
timeouts of its own: each call takes the caller's deadline as an argument
(a ``trio.current_time()``; ``math.inf`` for none), past which it raises
``trio.TooSlowError``. Every byte read is the peer's and hostile: whatever goes wrong while
reading it is a :class:`BotFault` (``malformed``) or :class:`PeerGone`,
never another exception.

:class:`PipeStream` is the stream the hosts use over a child's pipes. It
differs from ``trio.lowlevel.FdStream`` in what makes it cheap: a read or
write that the kernel can serve at once costs one system call and no trip
through the event loop, and after a request to a bot that answered quickly
last time, it waits for the answer in the kernel for up to ``WAIT_S``
before it waits in the event loop.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final

import trio

from .._faults import BotFault
from ._protocol import MAX_LINE, LineDecoder, ProtocolError, answer_value, decode, encode

__all__ = ["WAIT_S", "Channel", "PeerGone", "PipeStream"]

WAIT_S: Final = 0.001
"""How long a :class:`PipeStream` waits in the kernel for a quick bot's answer before it
waits in the event loop instead.

Most bots answer within tens of microseconds, and a trip through trio's
event loop (register the pipe, wait, be rescheduled) costs several times a
pipe round trip. So after a request to a bot whose last answer came within
this time, the stream blocks in ``poll(2)`` on the pipe for up to this
long, as a plain blocking read would: the CPU is free for the bot
meanwhile, unlike with a busy poll, which on a machine with more runnable
processes than cores makes every answer several times slower
(benchmarks/referee.py). The event loop is held for at most this long; a
slower bot is waited for in the loop, where the caller's cancel scope
applies.
"""

_READ_SIZE: Final = 1 << 16
_HUNG_UP: Final = select.POLLHUP | select.POLLERR
_WAIT_MS: Final = max(1, round(WAIT_S * 1000))


class PeerGone(Exception):
    """The peer closed its end of the stream (or the stream broke): ``what`` says which way."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class PipeStream(trio.abc.Stream):
    """A two-way trio stream over two non-blocking file descriptors (a child's pipes).

    ``send_all`` and ``receive_some`` return without a checkpoint when the
    kernel serves them at once; otherwise they wait in the event loop,
    where the caller's cancel scope applies. :class:`Channel` adds a
    checkpoint wherever a peer could keep it busy without end. The stream
    closes neither descriptor on :meth:`aclose` unless it ``owns`` them.
    """

    def __init__(self, write_fd: int, read_fd: int, *, owns: bool = False) -> None:
        self._write_fd = write_fd
        self._read_fd = read_fd
        self._owns = owns
        os.set_blocking(write_fd, False)
        os.set_blocking(read_fd, False)
        self._sent_at = 0.0
        self._quick = False
        self._poller = select.poll()
        self._poller.register(read_fd, select.POLLIN)
        self.closed = False
        self.before_wait: Callable[[], object] | None = None
        """Called each time a read must wait in the event loop (the peer has not answered
        yet): the process host starts a decision's fair-clock meter there, so that a quick
        answer costs no reading of the kernel's accounting."""

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.send_by(data, math.inf)

    async def send_by(self, data: bytes | bytearray | memoryview, deadline: float) -> None:
        """``send_all``, raising ``trio.TooSlowError`` if it must still wait at ``deadline``
        (a ``trio.current_time()``): the deadline is entered only around a wait."""
        view = memoryview(data)
        self._sent_at = time.perf_counter()
        while view:
            try:
                written = os.write(self._write_fd, view)
            except BlockingIOError:
                with trio.fail_at(deadline):
                    await trio.lowlevel.wait_writable(self._write_fd)
                continue
            except OSError as exc:  # EPIPE: the peer closed its input or died
                raise trio.BrokenResourceError(str(exc)) from None
            view = view[written:]

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.wait_writable(self._write_fd)

    def hung_up(self) -> bool:
        """Whether the peer's end of the read pipe is closed (it exited, or closed it),
        asked of the kernel without waiting: one ``poll(2)``."""
        polled = self._poller.poll(0)  # the read pipe is its only descriptor
        return bool(polled) and bool(polled[0][1] & _HUNG_UP)

    def receive_now(self) -> bytes | None:
        """What the peer has written so far (``b""`` at its end), or ``None`` if nothing yet."""
        try:
            return os.read(self._read_fd, _READ_SIZE)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.receive_by(math.inf)

    async def receive_by(self, deadline: float) -> bytes:
        """``receive_some``, raising ``trio.TooSlowError`` if it must still wait at
        ``deadline`` (a ``trio.current_time()``): like ``send_by``, the deadline is entered
        only around a wait, so bytes that are there are returned without reading the clock
        (:class:`Channel` stops a peer whose bytes keep coming past it)."""
        # poll(2) first for a quick peer: it returns at once when the answer is there, and
        # spares the failed read (and its exception) when it is not there yet.
        data = self.receive_now() if not self._quick or self._poller.poll(_WAIT_MS) else None
        while data is None:
            if self.before_wait is not None:
                self.before_wait()
            with trio.fail_at(deadline):
                await trio.lowlevel.wait_readable(self._read_fd)
            data = self.receive_now()
        self._quick = time.perf_counter() - self._sent_at < WAIT_S
        return data

    def close(self) -> None:
        """Forget the descriptors (closing them if the stream owns them). Safe to repeat."""
        if self.closed:
            return
        self.closed = True
        if self._owns:
            for fd in (self._write_fd, self._read_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)

    async def aclose(self) -> None:
        self.close()
        await trio.lowlevel.checkpoint()


async def _send_within(stream: trio.abc.SendStream, data: bytes, deadline: float) -> None:
    with trio.fail_at(deadline):
        await stream.send_all(data)


async def _receive_within(stream: trio.abc.ReceiveStream, deadline: float) -> bytes:
    with trio.fail_at(deadline):
        return bytes(await stream.receive_some(_READ_SIZE))


def _unreadable(exc: Exception) -> BotFault:
    """The one mapping of what reading a peer's bytes raised to its fault."""
    if isinstance(exc, ProtocolError):
        return BotFault("malformed", str(exc))
    return BotFault("malformed", f"unreadable answer ({type(exc).__name__})")


_GONE: Final = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)
"""What a stream raises when its peer has gone."""


class Channel:
    """Requests out, answers in: protocol messages over a send and a receive stream.

    ``receive`` may be omitted when ``send`` is a two-way stream. ``trace``
    hears every line: ``(">", line)`` sent, ``("<", line)`` received. Each
    call takes the caller's ``deadline`` (a ``trio.current_time()``,
    ``math.inf`` for none) and raises ``trio.TooSlowError`` past it; over a
    :class:`PipeStream` the deadline is entered only around a wait in the
    event loop, so a quick answer costs no cancel scope. A call stopped in
    the middle of a line leaves the channel out of step with its peer: drop
    both.
    """

    def __init__(
        self,
        send: trio.abc.SendStream,
        receive: trio.abc.ReceiveStream | None = None,
        *,
        max_line: int = MAX_LINE,
    ) -> None:
        if receive is None:
            if not isinstance(send, trio.abc.ReceiveStream):
                raise TypeError("a one-way send stream needs a receive stream beside it")
            receive = send
        self._send_by: Callable[[bytes, float], Awaitable[None]] = (
            send.send_by if isinstance(send, PipeStream) else partial(_send_within, send))
        self._receive_by: Callable[[float], Awaitable[bytes]] = (
            receive.receive_by if isinstance(receive, PipeStream)
            else partial(_receive_within, receive))
        self._decoder = LineDecoder(max_line)
        self.trace: Callable[[str, bytes], None] | None = None

    async def send(self, message: dict[str, Any], deadline: float = math.inf) -> None:
        """Write one message; raises :class:`PeerGone` if the peer no longer reads."""
        data = encode(message)
        if self.trace is not None:
            self.trace(">", data)
        try:
            await self._send_by(data, deadline)
        except _GONE:
            raise PeerGone("closed its input") from None

    async def receive(self, deadline: float = math.inf) -> dict[str, Any]:
        """Read one message: a :class:`BotFault` (``malformed``) for bytes that are not
        one, :class:`PeerGone` at the end of the stream."""
        decoder = self._decoder
        fed = False
        while True:
            try:
                line = decoder.next_line()
                if line is not None:
                    if self.trace is not None:
                        self.trace("<", line)
                    return decode(line)
            except Exception as exc:  # every byte is the peer's: nothing may escape as a bug
                raise _unreadable(exc) from None
            if fed:
                # A line in pieces: a peer could keep this loop busy without end, so let
                # the caller's deadline in, also when its bytes keep coming past it.
                await trio.lowlevel.checkpoint()
                if deadline != math.inf and trio.current_time() >= deadline:
                    raise trio.TooSlowError
            try:
                data = await self._receive_by(deadline)
            except _GONE:
                data = b""
            if not data:
                raise PeerGone("closed its output")
            decoder.feed(data)
            fed = True

    async def request(self, message: dict[str, Any], deadline: float = math.inf) -> Any:
        """Send a request with a ``type`` and ``id`` and return the payload of its answer
        (:func:`arena.referee.child._protocol.answer_value`)."""
        await self.send(message, deadline)
        answer = await self.receive(deadline)
        try:
            return answer_value(answer, message["type"], message.get("id"))
        except ProtocolError as exc:
            raise _unreadable(exc) from None
