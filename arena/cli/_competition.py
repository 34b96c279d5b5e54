"""``arena register`` and ``arena submit``: an entrant of a league open to submissions.

Both speak to the league's server over HTTP (docs/competition.md) with the standard
library's ``urllib``: no extra is needed to enter a competition.
"""

from __future__ import annotations

import json
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


@click.command("submit")
@click.argument("url")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--token", required=True, envvar="ARENA_TOKEN",
              help="Your entrant's token (from arena register; or $ARENA_TOKEN).")
@click.option("--label", default=None, help="The bot's label (default: your entrant's name).")
def submit_command(url: str, path: str, token: str, label: str | None) -> None:
    """Submit PATH, one Python file defining an arena.Bot, to the league served at URL.

    Each submission of a label is its next version. The server checks the file and keeps
    it; docs/competition.md says what happens next and what is not built yet.
    """
    query = f"?{urllib.parse.urlencode({'label': label})}" if label else ""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    request = urllib.request.Request(
        _endpoint(url, "/api/submissions" + query), data=data, method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "text/x-python"})
    answer = _call(request)
    click.echo(f"submitted {answer.get('label')} version {answer.get('version')} "
               f"(sha256 {str(answer.get('sha256'))[:12]}): {answer.get('state')}")
