"""The package's pages, scripts and styles answered from memory.

Starlette's ``FileResponse`` stats, opens, reads and closes a file each in a worker thread:
four or five trips between the event loop and a thread for a file of a few kilobytes, each
of them turns of the loop the tables share. The package's files are a hundred kilobytes in
all and do not change while the server runs: each is read once (again when its size or
time changes, one ``stat`` a request) and answered from memory, with an ``ETag`` a browser
revalidates by (a 304 without the body).
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

__all__ = ["package_file"]

_KEPT: dict[Path, tuple[tuple[int, int], bytes, str]] = {}
"""A file's path -> ((mtime_ns, size) when read, its bytes, its ETag)."""


def package_file(request: Request, path: Path, media_type: str | None = None
                 ) -> Response | None:
    """The answer of the package's file ``path`` to ``request`` (a GET), or None when it
    cannot be read."""
    try:
        stat = path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        kept = _KEPT.get(path)
        if kept is None or kept[0] != key:
            kept = _KEPT[path] = (key, path.read_bytes(), f'"{key[0]:x}-{key[1]:x}"')
    except OSError:
        return None
    headers = {"ETag": kept[2]}
    if request.headers.get("if-none-match") == kept[2]:
        return Response(status_code=304, headers=headers)
    return Response(kept[1], headers=headers,
                    media_type=media_type or mimetypes.guess_type(path.name)[0] or "text/plain")
