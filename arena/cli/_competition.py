"""``arena register`` and ``arena submit``: an entrant of a league open to submissions.

Both speak to the league's server over HTTP (docs/competition.md) with the standard
library's ``urllib``: no extra is needed to enter a competition.
"""

from __future__ import annotations

import io
import json
import os
import stat
import tarfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import click

from arena.cli import InputError

_TIMEOUT_S = 60


def _endpoint(url: str, path: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"URL: {url!r} is not the address of an arena server (http://HOST:PORT)")
    return url.rstrip("/") + path


def _call(request: urllib.request.Request) -> dict[str, Any]:
    """The server's JSON answer; its one-line error, or why it could not be reached, as an
    :class:`InputError`."""
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as answer:
            data = json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        try:
            message = str(json.loads(exc.read()).get("error") or exc.reason)
        except (ValueError, AttributeError):
            message = str(exc.reason)
        raise InputError(f"the server refused ({exc.code}): {message}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputError(f"cannot reach {request.full_url}: {reason}") from None
    except ValueError:
        raise InputError(f"{request.full_url} did not answer JSON: is it an arena server?"
                         ) from None
    if not isinstance(data, dict):
        raise InputError(f"{request.full_url} did not answer an object")
    return data


@click.command("register")
@click.argument("url")
@click.argument("name")
def register_command(url: str, name: str) -> None:
    """Register NAME as an entrant of the league served at URL; print its token.

    The token is shown this once (the server keeps only its hash): keep it, it is what
    submits your bots (arena submit URL --token TOKEN PATH).
    """
    request = urllib.request.Request(
        _endpoint(url, "/api/entrants"), data=json.dumps({"name": name}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    answer = _call(request)
    click.echo(f"registered {answer.get('name')}; your token (shown once, keep it):",
               err=True)
    click.echo(str(answer.get("token")))


_SKIPPED = frozenset({".git", "__pycache__", ".venv", "build", "dist"})


def pack_folder(folder: Path) -> bytes:
    """``folder``'s files as a tar.gz (fixed order, owners and times; ``.git``,
    ``__pycache__``, ``.venv``, ``build`` and ``dist`` left out); an :class:`InputError`
    for a link or anything but files and folders in it, which no submission may hold."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED)
            for name in [*dirnames, *sorted(filenames)]:
                path = Path(dirpath, name)
                found = os.lstat(path)
                if not (stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode)):
                    raise InputError(f"{path}: a submission holds only files and folders "
                                     "(this is a link or a special file)")
                info = tarfile.TarInfo(str(path.relative_to(folder)))
                info.mtime, info.mode = 0, 0o755 if found.st_mode & stat.S_IXUSR else 0o644
                if stat.S_ISDIR(found.st_mode):
                    info.type = tarfile.DIRTYPE
                    tar.addfile(info)
                else:
                    info.size = found.st_size
                    with path.open("rb") as data:
                        tar.addfile(info, data)
    return out.getvalue()


@click.command("submit")
@click.argument("url")
@click.argument("path", type=click.Path(exists=True))
@click.option("--token", required=True, envvar="ARENA_TOKEN",
              help="Your entrant's token (from arena register; or $ARENA_TOKEN).")
@click.option("--label", default=None, help="The bot's label (default: your entrant's name).")
def submit_command(url: str, path: str, token: str, label: str | None) -> None:
    """Submit PATH to the league served at URL: one Python file defining an arena.Bot, or
    a folder or archive (zip, tar.gz) of a Python package with an arena.bots entry point or
    of a program with its arena.toml. A folder is sent as a tar.gz.

    Each submission of a label is its next version. The server checks it and keeps it,
    then builds and tries it (docs/competition.md).
    """
    query = f"?{urllib.parse.urlencode({'label': label})}" if label else ""
    try:
        data = pack_folder(Path(path)) if Path(path).is_dir() else Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    request = urllib.request.Request(
        _endpoint(url, "/api/submissions" + query), data=data, method="POST",
        headers={"Authorization": f"Bearer {token}",
                 "Content-Type": "application/octet-stream"})
    answer = _call(request)
    click.echo(f"submitted {answer.get('label')} version {answer.get('version')}, a "
               f"{answer.get('kind')} (sha256 {str(answer.get('sha256'))[:12]}): "
               f"{answer.get('state')}")
