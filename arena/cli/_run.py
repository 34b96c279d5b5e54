"""``arena run`` and ``arena validate``: tournaments from a YAML config."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from arena.cli import main
from arena.cli._closing import closing_status, log_to_folder
from arena.cli._interrupt import interruptible
from arena.cli._report import save_results
from arena.cli._start_checks import (
    refuse_unstartable,
    refuse_unstartable_entrants,
    sandbox_header,
    sandbox_option,
)
from arena.ratings import SprtStatus
from arena.records import RECORDS
from arena.tournament import (
    ConfigError,
    LeagueStatus,
    Reporter,
    Reporters,
    Standings,
    TournamentConfig,
    TournamentError,
    TournamentResult,
    config_schema,
    load_config,
    output_dir,
    run_tournament,
    tournament_format,
)

if TYPE_CHECKING:  # rich is imported where something is drawn: a --quiet run never does
    from rich.console import Console, RenderableType
    from rich.live import Live
    from rich.progress import TaskID
    from rich.table import Table

    from arena.report import StandingsTally

_LIVE_ROWS = 12


def _config_error(exc: ConfigError) -> NoReturn:
    """A bad config: its one-line messages on stderr, exit status 2, no traceback."""
    for line in str(exc).splitlines():
        click.echo(line, err=True)
    sys.exit(2)


_STANDINGS_DROPPED_FIRST = ("points/match", "timeouts", "matches", "wins")
"""The standings' columns left out, in this order, until they fit the terminal: rank, bot,
match score and faults always stay (the standings files and ``--json`` have every one)."""


def standings_table(rows: list[dict[str, Any]], *, title: str = "Standings",
                    limit: int | None = None, console: Console | None = None) -> Table:
    """A rich table of standings rows (``Standings.to_list()``); given the ``console``, it
    fits its width (``_STANDINGS_DROPPED_FIRST``), a bot's label folded, never cut."""
    from arena.cli._leaderboard import fitted_table

    shown = rows if limit is None else rows[:limit]
    columns: dict[str, list[str]] = {name: [] for name in (
        "#", "bot", "matches", "match score", "wins", "points/match", "faults", "timeouts")}
    for row in shown:
        cells = (str(row["rank"]), row["label"], str(row["matches"]), f"{row['score']:.3f}",
                 f"{row['wins']} ({row['win_rate']:.0%})", f"{row['mean_points']:.2f}",
                 str(row.get("faults", 0)), str(row.get("timeouts", 0)))
        for cells_of, cell in zip(columns.values(), cells, strict=True):
            cells_of.append(cell)
    table = fitted_table(title, columns, console, _STANDINGS_DROPPED_FIRST)
    if limit is not None and len(rows) > limit:
        table.caption = "; ".join([f"top {limit} of {len(rows)}"]
                                  + ([str(table.caption)] if table.caption else []))
        table.caption_justify = "left"
    return table


class LiveReporter(Reporter):
    """A progress bar (done of total, elapsed, time left, matches per second) over live
    standings."""

    def __init__(self, console: Console, name: str, *, bounded: bool = False) -> None:
        from arena.cli.progress import RateMeter, RunProgress

        self.console = console
        self.name = name
        self.bounded = bounded
        self.meter = RateMeter()
        self.progress = RunProgress(self.meter, console)
        self.task: TaskID | None = None
        self.standings: Standings | None = None
        self.live: Live | None = None
        self.status: SprtStatus | None = None
        self.league_status: LeagueStatus | None = None

    def _render(self) -> RenderableType:
        from rich.console import Group
        from rich.text import Text

        from arena.cli.progress import sprt_line

        parts: list[RenderableType] = [self.progress]
        if self.status is not None:
            parts.append(Text(sprt_line(self.status), style="bold"))
        if self.league_status is not None:
            parts.append(Text(self.league_status.line(), style="bold"))
        if self.standings is not None:
            parts.append(standings_table(self.standings.to_list(), limit=_LIVE_ROWS,
                                         console=self.console))
        return Group(*parts)

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        """Show the bar, starting at the matches already recorded."""
        from rich.live import Live

        from arena.cli.progress import plan_lines

        self.standings = standings
        # A league's length is not known in advance (total 0): its bar counts without an end.
        self.task = self.progress.add_task(self.name, total=total or None)
        self.meter.start(done)
        if done:
            # Rates and time left count this run's matches only.
            self.progress.reset(self.task, total=total or None, completed=done)
        for line in plan_lines(total, done, jobs, bounded=self.bounded):
            self.console.print(line)
        self.live = Live(
            get_renderable=self._render, console=self.console, refresh_per_second=4,
            transient=True,
        )
        self.live.start()

    def sprt(self, status: SprtStatus) -> None:
        """Keep the test's latest status for the line under the bar."""
        self.status = status

    def league(self, status: LeagueStatus) -> None:
        """Keep the league's state (round, deals, the stopping rule's) for the line under the
        bar; the bar grows by the round's matches."""
        self.league_status = status

    def note(self, line: str) -> None:
        """Print the line above the live display."""
        self.console.print(line, soft_wrap=True, highlight=False)

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        """Advance the bar; the table is redrawn from the standings at each refresh."""
        if self.task is not None:
            self.progress.advance(self.task)
            self.meter.update(self.meter.done + 1)

    def stop(self) -> None:
        """Stop the live display (the final standings are printed by the command)."""
        if self.live is not None:
            self.live.stop()
            self.live = None


@main.command("run")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Output folder (default: the config's 'out', else runs/<name>).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the config's 'jobs', else the number of cores).")
@click.option("--quiet", "-q", is_flag=True, help="No output but errors.")
@click.option("--json", "as_json", is_flag=True,
              help="No progress; print the result (standings included) as JSON.")
@click.option("--dask", "dask", metavar="ADDRESS", default=None,
              help="Play the matches on a Dask cluster: its scheduler (tcp://host:8786), or "
                   "local[:N] for N worker processes here (see docs/distributed.md).")
@click.option("--report", "report", is_flag=True,
              help="Write OUT/report/ (see arena report) at the end, and refresh it every 30 s.")
@click.option("--serve", "serve", metavar="[HOST:]PORT", default=None,
              help="Serve the run's pages and API while it runs, then until Ctrl-C "
                   "(127.0.0.1 unless HOST is given; see docs/web.md).")
@click.option("--live", "live", is_flag=True,
              help="Write OUT/live/ (the matches in play) for an 'arena serve OUT' beside.")
@sandbox_option
@interruptible
def run_command(config: str, out: str | None, jobs: int | None, quiet: bool,
                as_json: bool, dask: str | None, report: bool, serve: str | None, live: bool,
                sandbox: bool | None) -> None:
    """Run (or resume) the tournament that CONFIG describes.

    Records go to OUT/records.jsonl, one line per finished match, beside a
    copy of the config. Running the same command again after an
    interruption resumes where it stopped.
    """
    try:
        cfg = load_config(config)
    except ConfigError as exc:
        _config_error(exc)
    console, reporter = _reporter(cfg, quiet or as_json)
    folder = output_dir(cfg, out)
    header = sandbox_header(cfg, sandbox)
    if console is not None:
        console.print(header, highlight=False)
    # Before any match: an entrant that cannot start would fault in every match it plays.
    refuse_unstartable_entrants(cfg, sandbox, private=[folder, Path(config)])
    log = log_to_folder(folder)
    if report:
        from arena.report import ReportRefresher

        reporter = Reporters([reporter, ReportRefresher(folder)])
    from arena.report import StandingsTally

    tally = StandingsTally()  # the standings document, counted as the records are written
    finish = functools.partial(_finish, console, folder, time.perf_counter(), as_json=as_json,
                               quiet=quiet, report=report, tally=tally)
    try:
        result = _play(config, folder, serve, live, reporter, finish, out=out, jobs=jobs,
                       dask=dask, sandbox=sandbox, tally=tally.add)
    except ConfigError as exc:
        _config_error(exc)
    except TournamentError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        records = folder / RECORDS
        save_results(folder, report=report, quiet=quiet)
        count = _count_lines(records)
        click.echo(
            f"\ninterrupted: {count} matches recorded in {records}; "
            "run the same command again to resume",
            err=True,
        )
        sys.exit(130)
    status = closing_status(result, log, quiet=quiet or as_json)
    if status:
        sys.exit(status)


def _reporter(cfg: TournamentConfig, silent: bool) -> tuple[Console | None, Reporter | None]:
    """The console and the progress reporter of a run (none when ``silent``): the live table
    on a terminal, lines in a log file."""
    if silent:
        return None, None
    from rich.console import Console

    from arena.cli.progress import LineReporter

    console = Console()
    if not console.is_terminal:  # a log file: the standings' columns unfolded, as in ratings
        console = Console(width=max(console.width, 120))
    shown = LiveReporter if console.is_terminal else LineReporter
    return console, shown(console, cfg.name, bounded=tournament_format(cfg.format.type).bounded)


def _play(config: str, folder: Path, serve: str | None, live: bool, reporter: Reporter | None,
          finish: Callable[[TournamentResult], None], **options: Any) -> TournamentResult:
    """Run the tournament, served (``--serve``) or writing the live folder (``--live``) when
    asked; ``finish(result)`` prints and saves the result."""
    if serve is None and not live:
        result = run_tournament(config, reporter=reporter, **options)
        finish(result)
        return result
    from arena.cli._serve import run_tournament_served

    return run_tournament_served(config, folder=folder, address=serve, reporter=reporter,
                                 after=finish, **options)


def _finish(console: Console | None, folder: Path, started: float, result: TournamentResult,
            *, as_json: bool, quiet: bool, report: bool, tally: StandingsTally) -> None:
    """Save the standings (of the run's ``tally`` of its records) and the report, then print
    the result: as JSON, or the final standings, a league's read from the standings document
    just written."""
    elapsed = time.perf_counter() - started
    document = save_results(folder, report=report, quiet=quiet or as_json, tally=tally)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    elif not quiet and console is not None:
        _print_final(console, result, elapsed, document)


def _print_final(console: Console, result: TournamentResult, elapsed: float,
                 document: Mapping[str, Any] | None = None) -> None:
    console.print(standings_table(result.standings, title=f"Final standings: {result.name}",
                                  console=console))
    outcome = result.outcome or {}
    if "ratings" in outcome:  # strengths (a league's): ranked as arena ratings does
        from arena.cli._leaderboard import strengths_table

        console.print(strengths_table(_league_lines(document, outcome["ratings"]), title=(
            f"League standings: {result.name}, Plackett-Luce strengths, 95% intervals"),
            console=console))
    if result.outcome is not None:
        for line in tournament_format(result.format).closing(result.outcome):
            console.print(line, soft_wrap=True, highlight=False)
    console.print(played_line(result, elapsed), soft_wrap=True)


def _league_lines(document: Mapping[str, Any] | None, last: list[dict[str, Any]]
                  ) -> list[dict[str, Any]]:
    """The league's leaderboard of every record: its entrants in the standings document
    (``standings.json``, as ``arena ratings`` gives them: docs/ratings.md, "One set of
    numbers"); ``last``, the league's last status (before its last round), when there is
    none."""
    league = ((document or {}).get("ratings") or {}).get("league")
    if not isinstance(league, Mapping) or not isinstance(league.get("entrants"), list):
        return list(last)
    return [dict(line) for line in league["entrants"]]


def final_sprt(result: TournamentResult) -> SprtStatus | None:
    """An sprt tournament's final status (``None`` for other formats)."""
    if result.sprt is None:
        return None
    fields: dict[str, Any] = {
        key: float("nan") if value is None else value for key, value in result.sprt.items()
    }
    return SprtStatus(**fields)


def played_line(result: TournamentResult, elapsed: float) -> str:
    """``N matches played in T s (R/s), M resumed; records: PATH``."""
    rate = result.played / elapsed if elapsed > 0 and result.played else 0.0
    return (f"{result.played} matches played in {elapsed:.1f} s ({rate:.1f}/s), "
            f"{result.resumed} resumed; records: {result.records}")


def _count_lines(path: Any) -> int:
    try:
        with open(path, "rb") as file:
            return sum(1 for line in file if line.endswith(b"\n"))
    except OSError:
        return 0


def _try_out_packages(cfg: TournamentConfig, config: Path) -> None:
    """Start each entrant from a third-party package once, as ``arena run`` does before its
    first match: in a process of its own (the only place its module may be imported),
    sandboxed as the config says, the config file hidden; exit 2 naming one that cannot."""
    from dataclasses import replace

    from arena.game import Rules
    from arena.plugins import registry

    reg = registry()
    packages = [replace(bot.seat(), host="process") for bot in cfg.bots
                if bot.name is not None and bot.name in reg and not reg.get(bot.name).imported]
    if packages:
        refuse_unstartable(packages, rules=Rules.from_dict(cfg.rules_mapping()),
                           limits=cfg.limits.limits(), players=cfg.players,
                           private=[str(config.resolve())])


@main.command("validate")
@click.argument("config", type=click.Path(dir_okay=False), required=False)
@click.option("--schema", is_flag=True, help="Print the config's JSON Schema and exit.")
def validate_command(config: str | None, schema: bool) -> None:
    """Check CONFIG without running it: every error with its key path and line."""
    if schema:
        click.echo(json.dumps(config_schema(), indent=2))
        return
    if config is None:
        raise click.UsageError("give a CONFIG file (or --schema)")
    try:
        cfg = load_config(config)
    except ConfigError as exc:
        _config_error(exc)
    _try_out_packages(cfg, Path(config))
    fmt = cfg.format.type.replace("_", " ")
    matches = tournament_format(cfg.format.type).describe(cfg)
    if cfg.submissions is not None and cfg.submissions.open:
        sub = cfg.submissions
        matches += (f"; submissions open ({', '.join(sub.kinds)}, at most {sub.max_bytes} "
                    f"bytes, {sub.per_day} a day per entrant"
                    f"{'; people may open tables against them' if sub.tables else ''})")
    click.echo(
        f"{config}: ok: {cfg.name}, {len(cfg.bots)} bots, {fmt}, tables of {cfg.players}"
        f"{matches}"
    )
