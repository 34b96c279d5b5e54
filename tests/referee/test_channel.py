"""The request/answer layer of the process hosts, over memory streams and bare pipes.

No process is started here: the peer is a trio task on the other end of
``trio.testing.memory_stream_pair()`` (or of an ``os.pipe``), saying what a
well-behaved or a hostile bot would say. Deadlines are the caller's cancel
scopes, under trio's autojump clock where the peer waits.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio
import trio.testing

from arena.referee import BotFault
from arena.referee.child._channel import Channel, PeerGone, PipeStream

REQUEST = {"type": "play", "id": 7, "time_ms": 900, "delta": {"deal": 0, "trick": 0,
                                                              "plays": [], "hand": "3C 4D"}}

Peer = Callable[[trio.abc.Stream], Awaitable[None]]


async def read_line(stream: trio.abc.Stream) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = await stream.receive_some()
        assert chunk, "the channel closed before a whole line"
        data += chunk
    return data


def ask(peer: Peer, *, max_line: int = 1 << 20, within: float = 5.0) -> tuple[Any, bool]:
    """The channel's answer to REQUEST from ``peer`` (or None) and whether the deadline hit."""

    async def main() -> tuple[Any, bool]:
        ours, theirs = trio.testing.memory_stream_pair()
        channel = Channel(ours, max_line=max_line)
        answer: Any = None
        error: Exception | None = None
        async with trio.open_nursery() as nursery:
            nursery.start_soon(peer, theirs)
            with trio.move_on_after(within) as scope:
                try:
                    answer = await channel.request(REQUEST)
                except Exception as exc:  # raised below, outside the nursery's group
                    error = exc
            nursery.cancel_scope.cancel()
        if error is not None:
            raise error
        return answer, scope.cancelled_caught

    return trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def answering(*lines: bytes) -> Peer:
    """A peer that reads one request and writes ``lines`` back, then stays silent."""

    async def peer(stream: trio.abc.Stream) -> None:
        await read_line(stream)
        for line in lines:
            await stream.send_all(line)
        await trio.sleep_forever()

    return peer


def test_a_well_behaved_peer_gets_one_json_line_and_its_answer_is_returned() -> None:
    seen: list[bytes] = []

    async def peer(stream: trio.abc.Stream) -> None:
        line = await read_line(stream)
        seen.append(line)
        request = json.loads(line)
        await stream.send_all(b'{"type":"move","id":%d,"move":"3C"}\n' % request["id"])

    assert ask(peer) == ("3C", False)
    assert len(seen) == 1 and seen[0].count(b"\n") == 1 and seen[0].endswith(b"\n")
    assert json.loads(seen[0]) == REQUEST


def test_an_answer_in_pieces_and_with_crlf_and_blank_lines_is_read() -> None:
    async def peer(stream: trio.abc.Stream) -> None:
        await read_line(stream)
        for piece in (b"\n\r\n", b'{"type":"mo', b've","id":7,', b'"move":"pass"}\r\n'):
            await stream.send_all(piece)
            await trio.sleep(0.01)

    assert ask(peer) == ("pass", False)


@pytest.mark.parametrize(
    "line, text",
    [(b"hello\n", "not JSON"),
     (b"\xff\xfe\n", "not JSON"),
     (b"[1, 2]\n", "not a JSON object"),
     (b'{"id": 7}\n', "without a string 'type'"),
     (b"[" * 100_000 + b"\n", "JSON"),
     (b'{"type":"exchange","id":7,"cards":[]}\n', "expected a 'move'"),
     (b'{"type":"move","id":7}\n', "without a 'move'")],
)
def test_garbage_is_a_malformed_fault(line: bytes, text: str) -> None:
    with pytest.raises(BotFault) as caught:
        ask(answering(line))
    assert caught.value.kind == "malformed" and text in caught.value.detail


def test_a_line_over_the_limit_is_refused_before_it_ends() -> None:
    async def flood(stream: trio.abc.Stream) -> None:
        await read_line(stream)
        while True:  # never a newline: the channel must not wait for one
            await stream.send_all(b"x" * 1000)

    with pytest.raises(BotFault) as caught:
        ask(flood, max_line=10_000)
    assert caught.value.kind == "malformed" and "longer than 10000 bytes" in caught.value.detail


def test_a_half_line_then_silence_waits_for_the_callers_deadline() -> None:
    assert ask(answering(b'{"type":"move","id":7,"mo'), within=2.0) == (None, True)


def test_an_answer_out_of_step_is_malformed() -> None:
    with pytest.raises(BotFault) as caught:
        ask(answering(b'{"type":"move","id":6,"move":"3C"}\n'))
    assert caught.value.kind == "malformed" and "does not match request id 7" in (
        caught.value.detail)


def test_an_error_answer_is_a_crash_naming_the_bots_message() -> None:
    with pytest.raises(BotFault) as caught:
        ask(answering(b'{"type":"error","id":7,"message":"out of ideas"}\n'))
    assert caught.value.kind == "crash" and "out of ideas" in caught.value.detail


def test_a_peer_that_closes_is_gone_not_a_referee_error() -> None:
    async def leaves(stream: trio.abc.Stream) -> None:
        await read_line(stream)
        await stream.send_all(b'{"type":"mo')
        await stream.aclose()

    with pytest.raises(PeerGone) as caught:
        ask(leaves)
    assert caught.value.what == "closed its output"


def test_a_peer_that_stops_reading_holds_the_request_until_the_callers_deadline() -> None:
    async def main() -> bool:
        ours, theirs = trio.testing.lockstep_stream_pair()  # a send waits for its reader
        channel = Channel(ours)
        with trio.move_on_after(3) as scope:
            await channel.request(REQUEST)
        del theirs  # it never read a byte
        return scope.cancelled_caught

    assert trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_a_reader_that_closed_its_end_makes_the_peer_gone() -> None:
    async def main() -> None:
        ours, theirs = trio.testing.memory_stream_pair()
        await theirs.aclose()
        await Channel(ours).send(REQUEST)

    with pytest.raises(PeerGone) as caught:
        trio.run(main)
    assert caught.value.what == "closed its input"


def pipes() -> tuple[PipeStream, int, int]:
    """A PipeStream over two fresh pipes, and the peer's ends (read requests, write answers)."""
    to_peer_r, to_peer_w = os.pipe()
    from_peer_r, from_peer_w = os.pipe()
    return PipeStream(to_peer_w, from_peer_r, owns=True), to_peer_r, from_peer_w


def test_the_pipe_stream_carries_a_request_and_its_answer() -> None:
    stream, peer_in, peer_out = pipes()

    async def main() -> Any:
        channel = Channel(stream)
        await channel.send(REQUEST)
        line = os.read(peer_in, 65536)
        assert json.loads(line) == REQUEST and line.endswith(b"\n")
        os.write(peer_out, b'{"type":"move","id":7,"move":"4D"}\n')
        return await channel.receive()

    try:
        assert trio.run(main) == {"type": "move", "id": 7, "move": "4D"}
    finally:
        stream.close()
        os.close(peer_in)
        os.close(peer_out)


def read_from_a_writer(chunk: bytes, pause: float,
                       main: Callable[[PipeStream], Awaitable[float]]) -> float:
    """``main(stream)`` while a thread writes ``chunk`` into the stream's pipe every ``pause``
    seconds; the thread is stopped and every descriptor closed afterwards."""
    stream, peer_in, peer_out = pipes()
    stop = threading.Event()

    def write() -> None:
        os.set_blocking(peer_out, True)
        with contextlib.suppress(OSError):
            while not stop.wait(pause):
                os.write(peer_out, chunk)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        return trio.run(main, stream)
    finally:
        stop.set()
        stream.close()  # the writer's next write fails: the read end is gone
        writer.join(5)
        os.close(peer_in)
        os.close(peer_out)
        assert not writer.is_alive()


def test_a_peer_flooding_blank_lines_is_a_malformed_fault_long_before_its_deadline() -> None:
    """Blank lines are skipped, but a flood of them costs the peer a fault (MAX_BLANK_LINES),
    not the reader its time until the deadline."""
    async def main(stream: PipeStream) -> float:
        start = trio.current_time()
        with pytest.raises(BotFault, match="more than 100 blank lines in a row"):
            await Channel(stream).receive(start + 30)
        return trio.current_time() - start

    assert read_from_a_writer(b"\n" * 65536, 0, main) < 10


def test_a_peer_writing_a_line_in_endless_pieces_cannot_keep_the_reader_past_its_deadline(
        ) -> None:
    async def main(stream: PipeStream) -> float:
        start = trio.current_time()
        with pytest.raises(trio.TooSlowError):
            await Channel(stream).receive(start + 0.3)
        return trio.current_time() - start

    assert 0.3 <= read_from_a_writer(b" " * 512, 0.001, main) < 5


def test_a_stream_deadline_stops_a_wait_for_an_answer_and_for_room_to_write() -> None:
    stream, peer_in, peer_out = pipes()

    async def main() -> list[float]:
        waited = []
        for wait in ("answer", "room"):
            if wait == "room":  # a peer that does not read: fill its pipe first
                with contextlib.suppress(BlockingIOError):
                    while True:
                        os.write(stream._write_fd, b"x" * 65536)
            start = trio.current_time()
            with pytest.raises(trio.TooSlowError):
                if wait == "answer":
                    await stream.receive_by(start + 0.2)
                else:
                    await stream.send_by(b"more\n", start + 0.2)
            waited.append(trio.current_time() - start)
        with trio.move_on_after(0.1) as scope:  # no deadline: the caller's scopes alone apply
            await stream.receive_by(math.inf)
        assert scope.cancelled_caught
        return waited

    try:
        assert all(0.2 <= w < 1.0 for w in trio.run(main))
    finally:
        stream.close()
        os.close(peer_in)
        os.close(peer_out)


def test_the_stream_calls_before_wait_only_when_it_must_wait_for_the_peer() -> None:
    """An answer already there is read without the hook (a quick decision reads no fair-clock
    accounting); one that is not there yet calls it before the wait in the event loop."""
    stream, peer_in, peer_out = pipes()
    calls: list[float] = []
    stream.before_wait = lambda: calls.append(trio.current_time())

    async def main() -> list[bytes]:
        os.write(peer_out, b"there\n")
        got = [await stream.receive_by(math.inf)]
        assert calls == []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.to_thread.run_sync, _write_later, peer_out, b"later\n")
            got.append(await stream.receive_by(trio.current_time() + 10))
        return got

    try:
        assert trio.run(main) == [b"there\n", b"later\n"]
        assert len(calls) == 1
    finally:
        stream.close()
        os.close(peer_in)
        os.close(peer_out)


def _write_later(fd: int, data: bytes) -> None:
    time.sleep(0.05)
    os.write(fd, data)
