"""``arena serve OUT``: the pages, API and live updates of the run in OUT (docs/web.md)."""

from __future__ import annotations

from pathlib import Path

import click
import trio

from arena.cli import InputError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def warn_if_public(host: str) -> None:
    """A host reachable from other machines: say so, on stderr."""
    from arena.web import is_loopback

    if not is_loopback(host):
        click.echo(f"warning: serving on {host}: anyone who can reach this machine can watch "
                   "(and play at any table opened here)", err=True)


def parse_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as ``(host, port)``; the host defaults to 127.0.0.1."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise InputError(f"--serve {text}: expected [HOST:]PORT with a port from 0 to 65535")
    return host, int(port)


@click.command("serve")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on (another than 127.0.0.1 lets other machines in).")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: a free one).")
def serve_command(out: Path, host: str, port: int) -> None:
    """Serve the run in OUT: standings, matches, replays and matches in play, live."""
    if not out.is_dir():
        raise InputError(f"{out}: no such folder (a run's --out folder)")
    warn_if_public(host)
    trio.run(_serve, out, host, port)


async def _serve(out: Path, host: str, port: int) -> None:
    from arena.web import Hub, create_app, serve_app

    hub = Hub()
    hub.bind()
    app = create_app(out, hub)
    async with trio.open_nursery() as nursery:
        try:
            url = await nursery.start(serve_app, app, host, port)
        except OSError as exc:
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        click.echo(f"serving {out} on {url}/ (Ctrl-C stops)")
