"""The protocol codec, without processes: framing, decoding, answers."""

from __future__ import annotations

import json

import pytest
import trio
import trio.testing

from arena.referee import BotFault
from arena.referee.child._protocol import answer_value
from arena.referee.lowlevel import LineDecoder, ProtocolError, decode, encode


def test_encode_is_one_compact_line() -> None:
    data = encode({"type": "move", "id": 3, "move": "5H 5S"})
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert json.loads(data) == {"type": "move", "id": 3, "move": "5H 5S"}


def test_decode_roundtrips_encode() -> None:
    message = {"type": "play", "id": 1, "view": {"hand": ["3C", "JK"], "pile": None}}
    assert decode(encode(message).rstrip(b"\n")) == message


@pytest.mark.parametrize(
    "line, reason",
    [(b"hello", "not JSON"), (b"[1, 2]", "not a JSON object"), (b'{"move": "pass"}', "type"),
     (b'{"type": 3}', "type"), (b"\xff\xfe", "not JSON")],
)
def test_decode_refuses_non_messages(line: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        decode(line)


def test_line_decoder_joins_split_lines_and_splits_joined_ones() -> None:
    decoder = LineDecoder()
    decoder.feed(b'{"type":"a"}\n{"ty')
    assert decoder.next_line() == b'{"type":"a"}'
    assert decoder.next_line() is None
    decoder.feed(b'pe":"b"}\r\n\n\n{"type":"c"}\n')
    assert decoder.next_line() == b'{"type":"b"}'
    assert decoder.next_line() == b'{"type":"c"}'
    assert decoder.next_line() is None


def test_line_decoder_refuses_a_line_longer_than_its_limit() -> None:
    decoder = LineDecoder(max_line=10)
    decoder.feed(b"x" * 11)
    with pytest.raises(ProtocolError, match="longer than 10"):
        decoder.next_line()
    decoder = LineDecoder(max_line=10)
    decoder.feed(b"y" * 20 + b"\n")
    with pytest.raises(ProtocolError, match="longer than 10"):
        decoder.next_line()


def test_answer_value_takes_the_field_of_the_expected_answer() -> None:
    assert answer_value({"type": "move", "id": 4, "move": "pass"}, "play", 4) == "pass"
    assert answer_value({"type": "move", "move": "3C"}, "play", 4) == "3C"  # id is optional
    assert answer_value({"type": "exchange", "id": 2, "cards": ["3C"]}, "exchange", 2) == ["3C"]
    ready = {"type": "ready", "id": 1, "name": "x"}
    assert answer_value(ready, "start", 1) == ready


@pytest.mark.parametrize(
    "message, request_kind, match",
    [({"type": "move", "id": 5, "move": "pass"}, "play", "does not match"),
     ({"type": "exchange", "cards": []}, "play", "expected a 'move'"),
     ({"type": "move", "id": 4}, "play", "without a 'move'"),
     ({"type": "ready"}, "exchange", "expected a 'exchange'")],
)
def test_answer_value_refuses_answers_out_of_step(
    message: dict[str, object], request_kind: str, match: str
) -> None:
    with pytest.raises(ProtocolError, match=match):
        answer_value(message, request_kind, 4)


def test_an_error_message_is_a_crash_with_its_text() -> None:
    with pytest.raises(BotFault) as info:
        answer_value({"type": "error", "id": 1, "message": "ValueError: boom"}, "play", 1)
    assert info.value.kind == "crash" and "ValueError: boom" in info.value.detail
    assert info.value.reported  # the bot said so itself: its process is still in step


def test_codec_over_trio_memory_streams_in_odd_chunks() -> None:
    """Bytes cut anywhere by the transport still decode to the same messages."""
    messages = [{"type": "play", "id": i, "view": {"hand": ["3C"] * i}} for i in range(20)]

    async def main() -> list[dict[str, object]]:
        left, right = trio.testing.memory_stream_pair()
        received: list[dict[str, object]] = []

        async def writer() -> None:
            blob = b"".join(encode(m) for m in messages)
            for start in range(0, len(blob), 7):
                await left.send_all(blob[start : start + 7])
            await left.aclose()

        async def reader() -> None:
            decoder = LineDecoder()
            while data := await right.receive_some(5):
                decoder.feed(data)
                while (line := decoder.next_line()) is not None:
                    received.append(decode(line))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer)
            nursery.start_soon(reader)
        return received

    assert trio.run(main) == messages


def test_line_decoder_takes_one_whole_line_per_read_as_it_is() -> None:
    """The usual read holds exactly one line; blank ones, CRLF and a following part still work."""
    decoder = LineDecoder(max_line=20)
    decoder.feed(b'{"type":"a"}\r\n')
    assert decoder.next_line() == b'{"type":"a"}'
    decoder.feed(b"\n")
    assert decoder.next_line() is None
    decoder.feed(b'{"type":"b"}\n')
    decoder.feed(b'{"ty')
    assert decoder.pending == b'{"type":"b"}\n{"ty'
    assert decoder.next_line() == b'{"type":"b"}'
    assert decoder.next_line() is None
    decoder.feed(b'pe":"c"}\n')
    assert decoder.next_line() == b'{"type":"c"}'
    decoder.feed(b"z" * 25 + b"\n")
    with pytest.raises(ProtocolError, match="longer than 20"):
        decoder.next_line()


@pytest.mark.parametrize("reads", ["one read", "a read a line"])
def test_line_decoder_skips_blank_lines_up_to_a_bound_then_refuses_the_flood(reads: str) -> None:
    """Blank lines between messages are skipped and counted: ``max_blank`` in a row are fine,
    one more is a ProtocolError; a message in between starts the count again."""
    decoder = LineDecoder(max_blank=3)

    def feed(lines: bytes) -> None:
        if reads == "one read":
            decoder.feed(lines)
        else:
            for line in lines.splitlines(keepends=True):
                decoder.feed(line)

    feed(b"\n \r\n\n" + b'{"type":"a"}\n' + b"\n\n\n" + b'{"type":"b"}\n')
    got = []
    while (line := decoder.next_line()) is not None:
        got.append(line)
    assert got == [b'{"type":"a"}', b'{"type":"b"}']
    feed(b"\n\n\n\n")
    with pytest.raises(ProtocolError, match="more than 3 blank lines in a row"):
        while decoder.next_line() is not None:
            pass
