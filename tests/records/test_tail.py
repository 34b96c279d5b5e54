"""The one reader of a JSON-lines file's tail."""

from __future__ import annotations

import os
from pathlib import Path

from arena.records import TailReader, cut_torn_line


def test_whole_lines_only_and_a_replaced_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    tail = TailReader(path)
    assert tail.lines() == []  # no file yet
    path.write_bytes(b'{"a": 1}\n{"b": ')
    assert not tail.restarted()
    assert tail.lines() == [b'{"a": 1}\n']  # the line being written waits
    with path.open("ab") as file:
        file.write(b'2}\n\n')
    assert tail.lines() == [b'{"b": 2}\n', b"\n"]
    assert tail.lines() == []
    replaced = tmp_path / "y.jsonl"
    replaced.write_bytes(b'{"c": 3}\n')
    os.replace(replaced, path)
    assert tail.restarted()
    assert tail.lines() == [b'{"c": 3}\n']


def test_a_torn_last_line_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": ')
    assert cut_torn_line(path) == len(b'{"b": ')
    assert path.read_bytes() == b'{"a": 1}\n'
    assert cut_torn_line(path) == 0


def test_a_bounded_read_takes_whole_lines_and_leaves_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    long = b'{"long": "' + b"x" * 100 + b'"}\n'
    path.write_bytes(b'{"a": 1}\n' + long + b'{"b": 2}\n')
    tail = TailReader(path)
    assert tail.lines(max_bytes=12) == [b'{"a": 1}\n']  # the next line is longer
    assert tail.lines(max_bytes=12) == [long]  # one longer line, whole
    assert tail.lines(max_bytes=12) == [b'{"b": 2}\n']
    assert tail.lines(max_bytes=12) == []
