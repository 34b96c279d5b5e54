"""The one reader of a JSON-lines file's tail: the whole lines a writer added since the last
read, and the torn last line a killed writer leaves, cut off.

A writer (records, live events, a plan's journal) appends one line at a time, each ending in
a newline. A reader that follows the file (the web server) takes the whole lines only: a
last line without its newline is being written, or was torn by a kill, and waits for the
next read. A run that resumes cuts a torn last line off first (:func:`cut_torn_line`), so
its file ends as that of a run never interrupted.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["READ_BYTES", "TailReader", "cut_torn_line"]

READ_BYTES = 4 << 20
"""The most of a growing file one read takes in (a long run's records file is read over
several: the server answering between them, the memory a few of these at most)."""


class TailReader:
    """A JSON-lines file read as it grows: :meth:`lines` gives the whole lines added since
    its last call; :meth:`restarted` notices the file replaced or cut (read it again)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.offset = 0
        """Bytes read so far: the end of the last whole line."""
        self._identity: tuple[int, int] | None = None

    def restarted(self) -> bool:
        """Whether the file was replaced or cut since it was last read (the next
        :meth:`lines` reads it from its start)."""
        try:
            stat = self.path.stat()
        except OSError:
            return False
        identity = (stat.st_ino, stat.st_dev)
        if identity != self._identity or stat.st_size < self.offset:
            was_read = self._identity is not None
            self._identity, self.offset = identity, 0
            return was_read
        return False

    def lines(self, max_bytes: int | None = None) -> list[bytes]:
        """The whole lines added since the last call, each with its newline (blank ones
        too: a caller counting lines counts them); with ``max_bytes``, about that many bytes
        of them at most (one longer line whole), the rest at the next calls. A missing file
        has none; any other ``OSError`` is raised."""
        try:
            with self.path.open("rb") as file:
                file.seek(self.offset)
                if max_bytes is None:
                    data = file.read()
                else:
                    data = file.read(max_bytes)
                    while data and b"\n" not in data[-max_bytes:]:  # one long line: whole
                        more = file.read(max_bytes)
                        if not more:
                            break
                        data += more
        except FileNotFoundError:
            return []
        end = data.rfind(b"\n") + 1
        self.offset += end
        return data[:end].splitlines(keepends=True)


def cut_torn_line(path: str | os.PathLike[str]) -> int:
    """Cut a torn last line (no newline) off ``path``; returns the bytes removed."""
    path = Path(path)
    if not path.exists():
        return 0
    with path.open("r+b") as file:
        size = file.seek(0, os.SEEK_END)
        if size == 0:
            return 0
        file.seek(size - 1)
        if file.read(1) == b"\n":
            return 0
        end = size
        chunk = 1 << 16
        while end > 0:
            start = max(0, end - chunk)
            file.seek(start)
            data = file.read(end - start)
            newline = data.rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            end = start
        else:
            keep = 0
        file.truncate(keep)
        return size - keep
