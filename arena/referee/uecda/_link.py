"""The bytes of a UECda client at an arena table: its process and its loopback connection.

:class:`UecdaLink` starts the client's command, accepts its connection (or reports that it
exited first), queues what the server sends until the client must answer, reads its tables,
and, once the connection can no longer be trusted, kills the client and faults every later
turn. The game (what the server sends, and when) is the host's (``_host``).

A client late with a table keeps its seat: the referee judges that turn (a ``timeout``, and
the rules' ``on_fault``), the server's messages for the turn go out as for any turn, and the
table, when it comes, is read and dropped before the client's next one. A client that owes
a table for longer than :data:`SILENT_MOVES` times its ``move_ms`` is silent, not slow: it
is stopped, and its later turns are faults.
"""

from __future__ import annotations

import contextlib
import subprocess

import trio

from .._faults import BotFault
from .._limits import Limits
from ..child._process import ChildProcess
from ._tables import TABLE_BYTES, CardTable, unpack_table

__all__ = ["SILENT_MOVES", "UecdaLink"]

SILENT_MOVES = 10
"""How many times its ``move_ms`` a client may owe a late table before it is stopped."""


class UecdaLink:
    """One UECda client's process and connection, for the host of its seat."""

    def __init__(self, limits: Limits) -> None:
        self._limits = limits
        self._child: ChildProcess | None = None
        self._stream: trio.SocketStream | None = None
        self._buffer = bytearray()
        self._out = bytearray()
        self.pids: list[int] = []
        """Every process id the client was started as, in order."""
        self.broken: str | None = None
        """Why the client's later turns fault, once its connection is not to be trusted."""
        self._cut: str | None = None
        """Why a send was cut short by the referee's deadline (a ``crash``), until taken."""
        self._owed = 0
        """Tables the client still owes for turns judged without them (it was late)."""
        self._owed_since: float | None = None
        """When the oldest table it owes was due (trio's clock)."""

    # -- start and stop ---------------------------------------------------------------------

    def spawn(self, argv: list[str]) -> None:
        """Start the client's command (in its own process group, under the limits)."""
        limits = self._limits
        try:
            self._child = ChildProcess(argv, stdio=False, pipes=False,
                                       memory_mb=limits.memory_mb, cpu_s=limits.cpu_s)
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            raise BotFault("crash", f"start failed: cannot start {argv[0]!r}: {exc}") from None
        self.pids.append(self._child.pid)

    async def accept(self, listener: trio.SocketListener) -> None:
        """Take the client's connection, or fault if the client exits before it connects."""
        async with trio.open_nursery() as nursery:
            result: list[trio.SocketStream] = []

            async def accept() -> None:
                result.append(await listener.accept())
                nursery.cancel_scope.cancel()

            nursery.start_soon(accept)
            while not result:
                assert self._child is not None
                if self._child.poll() is not None:
                    raise BotFault("crash", f"start failed: the client exited with status "
                                   f"{self._child.returncode} before connecting"
                                   f"{self.tail_note()}")
                await trio.sleep(0.01)
        self._stream = result[0]

    async def aclose(self, finished: bool) -> None:
        """Close the connection and kill the client's group; a client told that all games
        are over (``finished``) gets a moment to leave by itself first."""
        stream, self._stream = self._stream, None
        if stream is not None:
            with contextlib.suppress(Exception):
                await stream.aclose()
        child, self._child = self._child, None
        if child is not None:
            # A client told that all games are over leaves by itself (the kit's exits 0);
            # give it a moment to finish its own bookkeeping before its group is killed.
            with trio.move_on_after(1.0 if finished else 0):
                while child.poll() is None:
                    await trio.sleep(0.005)
            child.kill()

    def tail_note(self) -> str:
        """The end of what the client wrote on stderr, as a note for a fault's detail."""
        return "" if self._child is None else self._child.tail_note()

    def take_cut(self) -> str | None:
        """Why a send was cut short by a deadline, once (then ``None``)."""
        cut, self._cut = self._cut, None
        return cut

    # -- bytes ------------------------------------------------------------------------------

    def queue(self, data: bytes) -> None:
        """Messages go out together when the client must answer or a call ends: fewer
        writes, and fewer wake-ups of the client for each turn."""
        self._out += data

    async def flush(self) -> None:
        """Send what is queued."""
        if not self._out:
            return
        data, self._out = bytes(self._out), bytearray()
        await self._send(data)

    async def _send(self, data: bytes) -> None:
        if self.broken is not None:
            raise BotFault("crash", self.broken)
        if self._stream is None:
            raise BotFault("crash", "the client is not connected")
        try:
            await self._stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self._break("the client closed the connection")
        except trio.Cancelled:  # the referee's deadline, with the client not reading
            self._cut = self._stop("the client stopped reading what the server sends")
            raise

    async def read(self, size: int) -> bytes:
        """``size`` bytes from the client."""
        if self._stream is None:
            raise BotFault("crash", "the client is not connected")
        buffer = self._buffer
        while len(buffer) < size:
            try:
                chunk = await self._stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                chunk = b""
            if not chunk:
                self._break("the client closed the connection")
            buffer += chunk
        data = bytes(buffer[:size])
        del buffer[:size]
        return data

    def _break(self, why: str) -> None:
        """Stop a client whose connection can no longer be trusted; its later turns fault."""
        raise BotFault("crash", self._stop(why))

    def _stop(self, why: str) -> str:
        """Kill the client and fault its later turns; the detail of this fault."""
        detail = why + self.tail_note()
        self.broken = f"{detail} (earlier in the match)"
        if self._child is not None:
            self._child.kill()
        return detail

    async def read_table(self) -> CardTable:
        """Send what is queued, then read the client's next table, past the late ones it
        owes (dropped: their turns are judged)."""
        await self.flush()
        if self.broken is not None:
            raise BotFault("crash", self.broken)
        try:
            while self._owed:
                await self.read(TABLE_BYTES)
                self._owed -= 1
            self._owed_since = None
            return unpack_table(await self.read(TABLE_BYTES))
        except trio.Cancelled:  # the referee's deadline: the table is owed, the turn judged
            self._owe(trio.current_time())
            raise

    def _owe(self, now: float) -> None:
        """Count a table the client owes; stop a client silent past the bound."""
        self._owed += 1
        if self._owed_since is None:
            self._owed_since = now
        silent = now - self._owed_since
        if silent > SILENT_MOVES * self._limits.move_ms / 1000:
            self.broken = (f"stopped after {silent:.1f} s without the table it owed "
                           "(earlier in the match)")
            if self._child is not None:
                self._child.kill()
