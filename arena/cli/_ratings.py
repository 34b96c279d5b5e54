"""``arena ratings`` (leaderboard from record files) and ``arena ab`` (sequential A/B test)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich import box
from rich.console import Console
from rich.table import Table

from arena.cli import InputError, main
from arena.cli._closing import sandbox_option
from arena.ratings import (
    Leaderboard,
    RatingsError,
    Sprt,
    finite,
    rate_files,
    read_many,
    sprt_from_records,
)
from arena.referee import Limits, bot_spec, seat_specs
from arena.seeds import SEED_LIMIT

if TYPE_CHECKING:
    from arena.tournament import TournamentConfig

_MATRIX_LIMIT = 12  # above this many bots the head-to-head is printed as a pair list


@click.command("ratings")
@click.argument("records", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print plain JSON data instead of tables.")
@click.option("--confidence", default=0.95, show_default=True, type=click.FloatRange(0.5, 0.999),
              help="Confidence level of the intervals.")
@click.option("--resamples", default=1000, show_default=True, type=click.IntRange(0, 100_000),
              help="Bootstrap resamples per bot.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, SEED_LIMIT - 1),
              help="Seed of the bootstrap (results are reproducible).")
def ratings_command(
    records: tuple[str, ...], as_json: bool, confidence: float, resamples: int, seed: int
) -> None:
    """Rate every bot in RECORDS files (JSON lines written by arena run / match / ab).

    A RECORDS may be an output folder of arena run (its records.jsonl) or a gzip-compressed
    file (.jsonl.gz).

    Prints the leaderboard (OpenSkill rating, mean score with its interval, rank range and
    per-bot counts) and the head-to-head table. See docs/ratings.md for how to read them.
    """
    skipped = SkippedLines()
    try:
        board = rate_files(*records, confidence=confidence, resamples=resamples, seed=seed,
                           on_skip=skipped)
    except RatingsError as exc:
        skipped.warn()
        raise InputError(str(exc)) from None
    skipped.warn()
    if not board.bots:
        raise InputError("no finished deals in these records"
                         + (f" ({skipped.count} lines skipped)" if skipped.count else ""))
    if as_json:
        click.echo(json.dumps(finite(board.to_dict()), indent=2))
        return
    print_leaderboard(board, _console(), never_played(board, records))


def never_played(board: Leaderboard, records: Sequence[str]) -> dict[str, str]:
    """The bots of ``board`` that never made a move of their own, each with its first fault
    line (``arena.records.FaultLog``). The records are read a second time, whole, only when
    some bot faulted in as many deals as it played (one that never started does)."""
    from arena.records import FaultLog

    if not any(line.faults and line.faults >= line.deals for line in board.bots):
        return {}
    log = FaultLog()
    for record in read_many(records, lambda message: None):
        log.add(record)
    return {label: log.bots[label].line() or "no fault recorded" for label in log.silent()}


class SkippedLines:
    """Collects the reader's skipped-line messages; one warning line on stderr for them all."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.warned = False

    @property
    def count(self) -> int:
        """How many lines were skipped."""
        return len(self.messages)

    def __call__(self, message: str) -> None:
        self.messages.append(message)

    def warn(self) -> None:
        """The first message, and how many more lines (in which files) were skipped."""
        if not self.messages or self.warned:
            return
        line = f"warning: {self.messages[0]}"
        if self.count > 1:
            where = (re.match(r"(.+?):\d+: ", m) for m in self.messages)
            files = ", ".join(sorted({w.group(1) for w in where if w is not None}))
            more = self.count - 1
            line += f" (and {more} more line{'s' if more > 1 else ''} skipped in {files})"
        click.echo(line, err=True)
        self.warned = True


def _console() -> Console:
    """stdout console; when piped, wide enough that a table is not folded into columns of 3
    (unless ``COLUMNS`` says how wide)."""
    console = Console(file=sys.stdout, soft_wrap=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(file=sys.stdout, soft_wrap=False, width=160)
    return console




_DROPPED_FIRST = ("ordinal", "timeouts", "deals", "points", "1st", "mu ± sigma", "place",
                  "matches")
"""The leaderboard's columns left out, in this order, until it fits the terminal: rank, bot,
deal score, its interval and faults always stay (docs/ratings.md says what each one means)."""


def print_leaderboard(board: Leaderboard, console: Console,
                      silent: Mapping[str, str] | None = None) -> None:
    """The leaderboard and head-to-head tables, for people.

    The leaderboard fits the console's width: the least important columns are left out
    (``_DROPPED_FIRST``) and a line says which. ``silent``: the bots that never made a move,
    with their first fault line (:func:`never_played`), marked in the table and listed under
    it.
    """
    silent = silent or {}
    unit = {"set": "duplicate sets", "match": "matches", "mixed": "sets and matches"}
    title = (
        f"{board.matches} matches, {board.deals} deals; intervals: {board.confidence:.0%} "
        f"bootstrap over {board.clusters} {unit[board.cluster_kind]}"
    )
    interval = f"{board.confidence:.0%} interval"
    columns: dict[str, list[str]] = {name: [] for name in (
        "rank", "bot", "deal score", interval, "mu ± sigma", "ordinal", "matches", "deals",
        "place", "points", "1st", "faults", "timeouts")}
    for line in board.bots:
        row = {
            "rank": (f"{line.rank}" if line.rank_best == line.rank_worst
                     else f"{line.rank} ({line.rank_best}-{line.rank_worst})"),
            "bot": line.label + (" (never played)" if line.label in silent else ""),
            "deal score": f"{line.score:.3f}",
            interval: f"{line.score_low:.3f}-{line.score_high:.3f}",
            "mu ± sigma": f"{line.mu:.1f} ± {line.sigma:.1f}",
            "ordinal": f"{line.ordinal:.1f}",
            "matches": str(line.matches),
            "deals": str(line.deals),
            "place": f"{line.mean_place:.2f}",
            "points": f"{line.mean_points:.2f}",
            "1st": f"{line.first_rate:.0%}",
            "faults": str(line.faults) if line.faults else "-",
            "timeouts": str(line.timeouts) if line.timeouts else "-",
        }
        for name, cell in row.items():
            columns[name].append(cell)
    dropped: list[str] = []
    table = _board_table(title, columns)
    unbounded = console.options.update_width(10_000)
    for name in _DROPPED_FIRST:
        if console.measure(table, options=unbounded).maximum <= console.width:
            break
        dropped.append(name)
        del columns[name]
        table = _board_table(title, columns)
    if dropped:
        table.caption = f"left out at this width: {', '.join(dropped)} (see --json)"
        table.caption_justify = "left"
    console.print(table)
    for label, fault in silent.items():
        console.print(f"{label} never played a move: {fault.removeprefix(label + ': ')}",
                      soft_wrap=True, highlight=False, markup=False)
    if board.duplicates:
        console.print(f"({board.duplicates} records repeated a match id and were counted once)")
    h2h = board.head_to_head
    if len(h2h.labels) < 2:
        return
    if len(h2h.labels) <= _MATRIX_LIMIT:
        grid = Table(
            title="head to head: share of shared deals the row bot finished ahead (deals)",
            header_style="bold",
            title_justify="left",
            box=box.SIMPLE_HEAD,
        )
        grid.add_column("")
        for label in h2h.labels:
            grid.add_column(label, justify="right")
        for i, row_label in enumerate(h2h.labels):
            cells = []
            for j in range(len(h2h.labels)):
                won, lost = h2h.ahead[i][j], h2h.ahead[j][i]
                cells.append("" if i == j or won + lost == 0
                             else f"{won / (won + lost):.0%} ({won + lost})")
            grid.add_row(row_label, *cells)
        console.print(grid)
        return
    pairs = Table(title="head to head (pairs that shared a table)", header_style="bold",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for name in ("bot", "opponent", "ahead", "behind", "shared", "rate"):
        pairs.add_column(name, justify="left" if name in ("bot", "opponent") else "right")
    for pair in h2h.pairs():
        pairs.add_row(pair.a, pair.b, str(pair.a_ahead), str(pair.b_ahead), str(pair.shared),
                      f"{pair.a_rate:.1%}")
    console.print(pairs)


def _board_table(title: str, columns: Mapping[str, list[str]]) -> Table:
    table = Table(title=title, header_style="bold", title_justify="left", box=box.SIMPLE_HEAD)
    for name, cells in columns.items():
        # Where space is short, headers wrap and labels fold past 20 characters; the
        # other cells (numbers) never do.
        widest = max(map(len, cells), default=0)
        table.add_column(name, justify="left" if name == "bot" else "right", overflow="fold",
                         min_width=min(20, widest) if name == "bot" else widest)
    for row in zip(*columns.values(), strict=True):
        table.add_row(*row)
    return table


# Where a config key of ab_config came from on the command line.
_AB_OPTIONS = {"players": "--players", "seed": "--seed", "rules": "--preset",
               "limits": "--move-ms", "bots": "--field", "format.challenger": "CHALLENGER",
               "format.baseline": "BASELINE"}


def _ab_option(path: str, bots: Sequence[str]) -> str:
    """The argument or option behind a key path of :func:`ab_config`'s mapping."""
    match = re.match(r"bots\[(\d+)\]", path)
    if match:
        index = int(match.group(1))
        return ("CHALLENGER", "BASELINE")[index] if index < 2 else f"--field {bots[index]}"
    if path.startswith("format."):
        key = path.split(".")[1]
        if f"format.{key}" in _AB_OPTIONS:
            return _AB_OPTIONS[f"format.{key}"]
        return "--" + key.replace("_", "-")
    return _AB_OPTIONS.get(path.split(".")[0].split("[")[0], path)


@click.command("ab")
@click.argument("challenger")
@click.argument("baseline")
@click.option("--field", "field_bots", multiple=True, metavar="BOT",
              help="A bot for the other seats (repeat); seats left over get baseline copies.")
@click.option("--elo0", default=0.0, show_default=True, help="H0: challenger at most this strong.")
@click.option("--elo1", default=20.0, show_default=True,
              help="H1: challenger at least this strong.")
@click.option("--alpha", default=0.05, show_default=True, help="Chance of accepting H1 wrongly.")
@click.option("--beta", default=0.05, show_default=True, help="Chance of accepting H0 wrongly.")
@click.option("--max-sets", default=1000, show_default=True, type=click.IntRange(1),
              help="Stop without a decision after this many duplicate sets.")
@click.option("--preset", default="standard", show_default=True, help="Rules preset.")
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 8),
              help="Seats at the table.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, SEED_LIMIT - 1),
              help="Seed of the deals.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(1),
              help="Matches played at once in worker processes (default: the number of cores, "
                   "as for arena run).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Output folder, as of arena run (records.jsonl, config.yaml, arena.log...); "
                   "the same command again resumes there. Without it nothing is kept.")
@click.option("--host", type=click.Choice(["inline", "process"]), default="inline",
              show_default=True, help="Where installed bots run.")
@click.option("--move-ms", default=Limits().move_ms, show_default=True, type=click.IntRange(1),
              help="Time limit per decision.")
@click.option("--from", "from_records", multiple=True, type=click.Path(),
              metavar="RECORDS",
              help="Play nothing: replay the test on these records (e.g. of arena run). "
                   "BASELINE '*' compares with every other seat.")
@click.option("--json", "as_json", is_flag=True, help="No progress; print the result as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress, no header.")
@sandbox_option
def ab_command(
    challenger: str, baseline: str, field_bots: tuple[str, ...], elo0: float, elo1: float,
    alpha: float, beta: float, max_sets: int, preset: str, players: int, seed: int,
    jobs: int | None,
    out: str | None, host: str, move_ms: int, from_records: tuple[str, ...], as_json: bool,
    quiet: bool, sandbox: bool | None,
) -> None:
    """Is CHALLENGER stronger than BASELINE? Play duplicate sets until a sequential test knows.

    Bots are NAME (an installed bot), LABEL=NAME, or [LABEL=]cmd:COMMAND, as in arena match.
    The run is a tournament of format sprt (docs/tournaments.md): each set plays one seed
    once per rotation of the seats (and of their mirrored order); the test (a generalized SPRT
    on per-set scores, see docs/ratings.md) stops when its log-likelihood ratio leaves its
    bounds or at --max-sets. Progress goes to stderr; the verdict to stdout.
    """
    from arena.records import configure_logging
    from arena.tournament import ConfigError, ab_config, validate_config

    if quiet:
        configure_logging("ERROR")
    if from_records:
        _ab_from_records(from_records, challenger, baseline, elo0, elo1, alpha, beta, max_sets,
                         as_json)
        return
    texts = (challenger, baseline, *field_bots)
    try:
        seats = seat_specs(texts, host)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    mapping = ab_config(seats, players=players, preset=preset, seed=seed, move_ms=move_ms,
                        elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, max_sets=max_sets)
    try:
        config = validate_config(mapping, source="arena ab")
    except ConfigError as exc:
        for issue in exc.issues:
            where = f"{_ab_option(issue.path, texts)}: " if issue.path else ""
            click.echo(f"Error: {where}{issue.message}", err=True)
        sys.exit(2)
    with contextlib.ExitStack() as stack:
        kept = out is not None
        folder = Path(out) if out is not None else Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-ab-")))
        status = _run_ab(config, folder, kept=kept, jobs=jobs, as_json=as_json, quiet=quiet,
                         sandbox=sandbox)
    if status:
        sys.exit(status)


def _run_ab(
    config: TournamentConfig, folder: Path, *, kept: bool, jobs: int | None, as_json: bool,
    quiet: bool, sandbox: bool | None,
) -> int:
    """Run the A/B tournament in ``folder`` as arena run does; print the verdict; the exit
    status its closing lines call for."""
    from arena.cli._closing import (
        closing_status,
        log_to_folder,
        refuse_unstartable_entrants,
        sandbox_header,
    )
    from arena.cli._progress import LineReporter
    from arena.cli._report import save_results
    from arena.cli._run import LiveReporter, final_sprt, played_line
    from arena.records import RECORDS
    from arena.tournament import TournamentError, run_tournament

    progress = Console(stderr=True)
    header = sandbox_header(config, sandbox)
    reporter = None
    if not quiet and not as_json:
        progress.print(header, highlight=False)
        shown = LiveReporter if progress.is_terminal else LineReporter
        reporter = shown(progress, config.name, sprt=True)
    refuse_unstartable_entrants(config, sandbox, private=[folder])
    log = log_to_folder(folder) if kept else None
    try:
        result = run_tournament(config, out=folder, jobs=jobs, reporter=reporter,
                                sandbox=sandbox)
    except TournamentError as exc:
        click.echo(f"error: {exc}", err=True)
        return 1
    except KeyboardInterrupt:
        if kept:
            save_results(folder, report=False, quiet=quiet)
            click.echo(f"\ninterrupted: the matches played so far are in {folder / RECORDS}; "
                       "run the same command again to resume", err=True)
        else:
            click.echo("\ninterrupted: nothing was kept (give --out to keep the records and "
                       "resume)", err=True)
        return 130
    status = final_sprt(result)
    assert status is not None  # format sprt
    if as_json:
        data = result.to_dict()
        data["status"] = result.sprt
        if not kept:
            data["out"] = data["records"] = None
        click.echo(json.dumps(finite(data), indent=2))
    else:
        click.echo(status.summary())
        if kept and not quiet:
            click.echo(played_line(result, result.elapsed_s))
    if kept:
        save_results(folder, report=False, quiet=quiet or as_json)
    return closing_status(result, log, quiet=quiet or as_json)


def _ab_from_records(
    paths: tuple[str, ...], challenger: str, baseline: str, elo0: float, elo1: float,
    alpha: float, beta: float, max_sets: int, as_json: bool,
) -> None:
    """``arena ab --from``: the test a live run would have reached on existing records."""
    try:
        Sprt(elo0, elo1, alpha, beta, max_sets)
        label = bot_spec(challenger)["label"]
        reference = None if baseline == "*" else bot_spec(baseline)["label"]
        skipped = SkippedLines()
        records = read_many(paths, on_skip=skipped)
        status = sprt_from_records(records, label, reference, elo0=elo0, elo1=elo1,
                                   alpha=alpha, beta=beta, max_sets=max_sets)
    except ValueError as exc:
        skipped.warn()
        raise InputError(str(exc)) from None
    skipped.warn()
    if as_json:
        click.echo(json.dumps(finite({"status": status.to_dict()}), indent=2))
        return
    if status.sets == 0:
        against = "any other seat" if reference is None else repr(reference)
        raise InputError(f"no set in these records where {label!r} met {against}")
    click.echo(status.summary())


main.add_command(ratings_command)
main.add_command(ab_command)
