"""Files answered from memory: the package's pages, scripts and styles, and a served report's.

Starlette's ``FileResponse`` stats, opens, reads and closes a file each in a worker thread:
four or five trips between the event loop and a thread for a file of a few kilobytes, each
of them turns of the loop the tables share. The package's files are a hundred kilobytes in
all and do not change while the server runs: each is read once (again when its size or
time changes, one ``stat`` a request) and answered from memory, with an ``ETag`` a browser
revalidates by (a 304 without the body). A served report's files change when it is rebuilt:
they are kept the same way (:class:`KeptFiles`), read again when the file in their place or
the report's build is another, and only so many bytes of them.
"""

from __future__ import annotations

import mimetypes
from collections import OrderedDict
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

__all__ = ["KeptFiles", "package_file"]


class KeptFiles:
    """Files read once and kept: read again when the file at the path is another (its
    device and inode, time or size: one ``stat`` a read) or the caller's ``generation`` is
    (a report's build); past ``limit`` bytes (None: no bound) the least recently read are
    forgotten first, and a file larger than a quarter of it is read each time, not kept."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.size = 0
        """The bytes kept."""
        self._kept: OrderedDict[Path, tuple[tuple[int, ...], bytes, str]] = OrderedDict()

    def read(self, path: Path, generation: int = 0) -> tuple[bytes, str]:
        """``path``'s bytes and their ``ETag``; ``OSError`` when it cannot be read."""
        stat = path.stat()
        key = (generation, stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)
        kept = self._kept.get(path)
        if kept is not None and kept[0] == key:
            self._kept.move_to_end(path)
            return kept[1], kept[2]
        # Read after the stat: a file replaced between them is newer than its key, and the
        # next read's stat, the new file's, reads it again.
        content = path.read_bytes()
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        if kept is not None:
            del self._kept[path]
            self.size -= len(kept[1])
        if self.limit is None or len(content) <= self.limit // 4:
            self._kept[path] = (key, content, etag)
            self.size += len(content)
            while self.limit is not None and self.size > self.limit:
                _, (_, old, _) = self._kept.popitem(last=False)
                self.size -= len(old)
        return content, etag


_PACKAGE = KeptFiles()
"""The package's files, all of them kept."""


def package_file(request: Request, path: Path, media_type: str | None = None
                 ) -> Response | None:
    """The answer of the package's file ``path`` to ``request`` (a GET), or None when it
    cannot be read."""
    try:
        content, etag = _PACKAGE.read(path)
    except OSError:
        return None
    headers = {"ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(content, headers=headers,
                    media_type=media_type or mimetypes.guess_type(path.name)[0] or "text/plain")
