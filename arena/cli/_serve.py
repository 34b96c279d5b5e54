"""``arena serve OUT``: the pages, API and live updates of the run in OUT (docs/web.md)."""

from __future__ import annotations

import dataclasses
import errno
import functools
import json
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import click
import trio

from arena.cli import InputError
from arena.cli._interrupt import interruptible
from arena.cli._start_checks import sandbox_option, sandboxed

if TYPE_CHECKING:
    from arena.competition import Competition
    from arena.tournament import Reporter, TournamentResult
    from arena.web import ServerSetup

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
@click.option("--table", "tables_on", is_flag=True,
              help="Let people play at tables (the page /tables opens them; records go to "
                   "OUT/tables/records.jsonl).")
@click.option("--preset", default="standard", show_default=True,
              help="With --people: the rules preset of the table opened at once.")
@click.option("--bots", "_bots_flag", is_flag=True,
              help="Optional marker before the table's BOTS: --bots greedy mc (the seats "
                   "after the people's).")
@click.option("--people", type=click.IntRange(1, 8),
              help="Open one table at once with this many people; print its link, then "
                   "each one's own.")
@click.option("--rounds", type=click.IntRange(min=1), help="With --people: deals in the match.")
@click.option("--seat-ms", type=click.IntRange(min=1000),
              help="The people's time per decision (ms); no clock by default.")
@click.option("--absence-s", type=click.FloatRange(min=1), default=120.0, show_default=True,
              help="How long a person's seat may be left while the match waits for it (then "
                   "its stand-in plays), and a table with nobody at it goes on.")
@click.option("--stand-in", "stand_in", default="greedy", show_default=True,
              help="The built-in bot that plays for a person away past --absence-s, until "
                   "they are back ('none': the absence is a timeout fault).")
@click.option("--table-bots", "offered", metavar="NAMES",
              help="The bots a browser may seat at a table, comma-separated, in the order "
                   "the table page offers them. Default: the built-ins, greedy first.")
@click.option("--tables-per-client", "per_client", type=click.IntRange(min=1), metavar="N",
              help="Tables one address may have playing at once (4 by default; behind a "
                   "proxy every person is one address).")
@click.option("--name", "names", multiple=True, metavar="HOST",
              help="A host name people reach the server by (repeatable); requests naming "
                   "any other host are refused. The address it listens on is always one.")
@sandbox_option
@click.argument("bots", nargs=-1)
@interruptible
def serve_command(out: Path, host: str, port: int, tables_on: bool, preset: str,
                  _bots_flag: bool, people: int | None, rounds: int | None,
                  seat_ms: int | None, absence_s: float, stand_in: str, offered: str | None,
                  per_client: int | None, names: tuple[str, ...], sandbox: bool | None,
                  bots: tuple[str, ...]) -> None:
    """Serve the run in OUT: standings, matches, replays and matches in play, live.

    With --table, people play at tables too: arena serve OUT --table --preset runs
    --bots greedy mc --people 2 opens one and prints its link (the one to share), then each
    person's own, a line each."""
    web_available()
    table = _table_options(tables_on, preset, bots, people, rounds, seat_ms)
    if offered is not None and not tables_on:
        raise InputError("--table-bots offers bots at tables: add --table")
    if per_client is not None and not tables_on:
        raise InputError("--tables-per-client bounds tables: add --table")
    bounds = _bounds(offered, per_client) if tables_on else None
    if tables_on:
        from arena.tournament import make_run_folder

        make_run_folder(out)  # its user's alone, as a run's
    if not out.is_dir():
        raise InputError(f"{out}: no such folder (a run's --out folder)")
    warn_if_public(host)
    tables = None
    if tables_on:
        tables = _TableSetup(table, absence_s, bounds, sandboxed(sandbox),
                             "" if stand_in == "none" else stand_in)
        if not tables.sandbox:
            click.echo("warning: the tables' bots run NOT sandboxed: they can read the "
                       "server's files and memory, seat links included (docs/security.md)",
                       err=True)
    try:
        trio_run(_serve, out, host, port, tables, names)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    except OSError as exc:
        raise listen_error(host, port, exc) from None


def listen_error(host: str, port: int, exc: OSError) -> Exception:
    """The one-line error of a socket that cannot listen (a port in use, no such address),
    or ``exc`` itself for any other OSError."""
    if exc.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES) or isinstance(
            exc, socket.gaierror):  # a host name that does not resolve
        return InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    return exc


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


class _TableSetup(NamedTuple):
    """What ``arena serve --table`` opens tables with."""

    table: Any
    absence_s: float
    bounds: Any
    sandbox: bool
    stand_in: str


def _bounds(offered: str | None, per_client: int | None = None) -> Any:
    """The tables' bounds (an ``arena.web.TableBounds``) with the bots ``--table-bots``
    offers, each installed (else InputError naming it), and ``--tables-per-client``."""
    from arena.plugins import registry
    from arena.web import TableBounds

    bounds = TableBounds() if per_client is None else TableBounds(per_client=per_client)
    if offered is None:
        return bounds
    names = tuple(dict.fromkeys(name.strip() for name in offered.split(",") if name.strip()))
    for name in names:
        try:
            registry().get(name)
        except LookupError as exc:
            raise InputError(f"--table-bots: {exc}") from None
    return dataclasses.replace(bounds, bots=names)


def _table_options(tables_on: bool, preset: str, bots: tuple[str, ...], people: int | None,
                   rounds: int | None, seat_ms: int | None) -> Any:
    """The table to open at once (an ``arena.web.TableRequest``), or None."""
    from arena.web import TableRequest

    if not tables_on:
        if people is not None or bots:
            raise InputError("--people and BOTS open a table: add --table")
        return None
    if people is None:
        if bots:
            raise InputError("BOTS need --people (how many people sit at the table)")
        return None
    names = list(bots)
    if not 2 <= people + len(names) <= 8:
        raise InputError(f"a table has 2 to 8 seats, got {people} people and "
                         f"{len(names)} bots")
    from arena.game import Rules
    from arena.plugins import registry

    try:  # before the server listens: a mistake is told alone, no URL printed above it
        Rules.preset(preset, **({} if rounds is None else {"rounds": rounds}))
        for name in names:
            registry().get(name)
    except (LookupError, ValueError) as exc:
        raise InputError(str(exc)) from None
    return TableRequest.of(preset=preset, bots=names, people=people, rounds=rounds,
                           seat_ms=seat_ms)


async def _serve(out: Path, host: str, port: int, tables_with: _TableSetup | None,
                 names: tuple[str, ...]) -> None:
    from arena.web import Hub, RunWeb, TableError, Tables

    hub = Hub()
    try:
        tables = None if tables_with is None else Tables(
            out, hub, base_url="", absence_s=tables_with.absence_s, bounds=tables_with.bounds,
            sandbox=tables_with.sandbox, stand_in=tables_with.stand_in)
    except TableError as exc:
        raise InputError(str(exc)) from None
    web = RunWeb(out, hub, tables=tables)
    async with trio.open_nursery() as nursery:
        url = await nursery.start(functools.partial(web.serve, host, port, names=names))
        click.echo(f"serving {out} on {url}/ (Ctrl-C stops)")
        if tables is not None:
            tables.base_url = url
            click.echo(f"tables: {url}/tables (records: {tables.records_path})", err=True)
            if tables_with is not None and tables_with.table is not None:
                try:
                    links = await tables.open(tables_with.table)
                except TableError as exc:
                    raise InputError(str(exc)) from None
                click.echo("the table's link, to share, then each person's own:", err=True)
                for link in links:
                    click.echo(link)


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
    ``address`` served while it runs, then until Ctrl-C after ``after(result)``.

    The run goes on in this thread, as without a server (Ctrl-C stops it here at once); the
    server serves from a process of its own (:class:`arena.web.RunServer`), started with
    the run, listening from the run's start (once its workers are started).
    """
    web_available()
    from arena.tournament import Reporters, run_tournament
    from arena.web import LiveMatch, RunServer, WebReporter

    if address is None:
        result = run_tournament(config, reporter=Reporters([WebReporter(folder), reporter]),
                                match_fn=LiveMatch(str(folder)), **options)
        after(result)
        return result
    host, port = parse_address(address)
    warn_if_public(host)
    sandbox = options.get("sandbox")
    competition = _competition(config, folder, sandbox)  # its mistakes told here, at once
    server = RunServer(folder, host, port, setup=f"{__name__}:served_beside" if competition
                       else "", setup_args=(config, json.dumps(sandbox)))
    server.launch()  # its imports beside the run's own start

    def begin() -> None:
        try:
            url = server.start()
        except OSError as exc:
            raise listen_error(host, port, exc) from None
        click.echo(f"serving {folder} on {url}/ while the run goes on", err=True)

    web = Reporters([WebReporter(folder, server, poke=server.poke, begin=begin), reporter])
    try:
        result = run_tournament(config, reporter=web, match_fn=LiveMatch(str(folder)),
                                **options)
    except BaseException:  # Ctrl-C too: the run's own handling follows
        server.stop()
        raise
    try:  # the run is over: Ctrl-C stops the server
        server.step()
        after(result)
        click.echo(f"the run is over; serving on {server.url}/ until Ctrl-C", err=True)
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return result


def served_beside(folder: str, config: str, sandbox: str) -> ServerSetup:
    """What the server of ``arena run CONFIG --serve`` serves beside the run, in its own
    process (:class:`arena.web.RunServer`): the competition's endpoints and tables when the
    config opens submissions (``sandbox``: the command line's choice, as JSON)."""
    from arena.web import ServerSetup

    competition = _competition(config, Path(folder), json.loads(sandbox))
    if competition is None:
        return ServerSetup()
    return ServerSetup(competition.routes(), competition.body_bounds(),
                       competition.tables if competition.limits.tables else None)

def _competition(config: str, folder: Path, sandbox: bool | None) -> Competition | None:
    """The competition's endpoints when the config opens submissions (docs/competition.md);
    an :class:`InputError` when the run's bots would play unsandboxed (``sandbox``: the
    command line's choice)."""
    from arena.competition import (
        COMPETITION_DIR,
        BuildLimits,
        Competition,
        CompetitionError,
        Limits,
        TrialQueue,
    )
    from arena.tournament import load_config

    cfg = load_config(config)
    if cfg.submissions is None or not cfg.submissions.open:
        return None
    if sandbox is False or (sandbox is None and cfg.limits.sandbox is False):
        raise InputError("submissions: entrants' bots run only in the sandbox, and this run "
                         "is unsandboxed (--no-sandbox or limits.sandbox: false)")
    trials = TrialQueue(folder / COMPETITION_DIR, players=cfg.players,
                        rules=cfg.rules_mapping(),
                        private=[str(folder.resolve()), str(Path(config).resolve())],
                        build=BuildLimits(cfg.submissions.build_s, cfg.submissions.build_mb))
    try:
        return Competition(folder, Limits(
            max_bytes=cfg.submissions.max_bytes, per_day=cfg.submissions.per_day,
            kinds=tuple(cfg.submissions.kinds), taken=frozenset(cfg.labels),
            tables=cfg.submissions.tables), trials)
    except CompetitionError as exc:
        raise InputError(f"submissions: {exc}") from None
