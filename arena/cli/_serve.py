"""``arena serve OUT``: the pages, API and live updates of the run in OUT (docs/web.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import trio

from arena.cli import InputError

if TYPE_CHECKING:
    from arena.tournament import Reporter, TournamentResult

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
    web_available()
    warn_if_public(host)
    try:
        trio_run(_serve, out, host, port)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)


def trio_run(fn: Callable[..., Awaitable[object]], *args: object) -> None:
    """``trio.run(fn, *args)``, raising the one error a nursery's group holds (a port in use,
    a bad config, Ctrl-C) as itself, for the command's one-line handling."""
    try:
        trio.run(fn, *args)
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        for kind in (KeyboardInterrupt, click.ClickException):
            found = [leaf for leaf in leaves if isinstance(leaf, kind)]
            if found:
                raise found[0] from None
        if len(leaves) == 1:
            raise leaves[0] from None
        raise


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    found: list[BaseException] = []
    for exc in group.exceptions:
        found += _leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc]
    return found


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


def web_available() -> None:
    """Raise InputError when the web extra is not installed."""
    try:
        import arena.web  # noqa: F401
    except ImportError as exc:
        raise InputError(f"the web needs the 'web' extra ({exc.name} is missing): "
                         "pip install 'arena-president[web]'") from None


def run_tournament_served(
    config: str, *, folder: Path, address: str | None, reporter: Reporter | None,
    after: Callable[[TournamentResult], None], **options: Any,
) -> TournamentResult:
    """``run_tournament(config, **options)`` writing the live folder (``--live``), and with an
    ``address`` served while it runs, then until Ctrl-C after ``after(result)``: the runner
    in a thread of the server's trio run (the matches in its worker processes)."""
    web_available()
    from arena.tournament import run_tournament
    from arena.web import LiveMatch, WebReporter

    if address is None:
        result = run_tournament(config, reporter=WebReporter(folder, inner=reporter),
                                match_fn=LiveMatch(str(folder)), **options)
        after(result)
        return result
    host, port = parse_address(address)
    warn_if_public(host)
    done: list[TournamentResult] = []
    try:
        trio_run(_run_served, config, folder, host, port, reporter, after, options, done)
    except KeyboardInterrupt:
        if not done:  # interrupted while the run went on
            raise
    return done[0]


async def _run_served(config: str, folder: Path, host: str, port: int,
                      reporter: Reporter | None, after: Callable[[TournamentResult], None],
                      options: dict[str, Any], done: list[TournamentResult]) -> None:
    from arena.tournament import run_tournament
    from arena.web import Hub, LiveMatch, WebReporter, create_app, serve_app

    hub = Hub()
    hub.bind()
    folder.mkdir(parents=True, exist_ok=True)
    app = create_app(folder, hub)
    follower = app.state.follower
    async with trio.open_nursery() as nursery:
        try:
            url = await nursery.start(serve_app, app, host, port)
        except OSError as exc:
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        click.echo(f"serving {folder} on {url}/ while the run goes on", err=True)
        web = WebReporter(folder, hub, inner=reporter, poke=follower.poke)
        result: TournamentResult = await trio.to_thread.run_sync(
            lambda: run_tournament(config, reporter=web, match_fn=LiveMatch(str(folder)),
                                   **options), abandon_on_cancel=True)
        await follower.step()
        done.append(result)
        after(result)
        click.echo(f"the run is over; serving on {url}/ until Ctrl-C", err=True)
        await trio.sleep_forever()
