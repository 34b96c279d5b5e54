"""``arena ratings`` (leaderboard from record files) and ``arena ab`` (sequential A/B test)."""

from __future__ import annotations

import contextlib
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from arena.cli import InputError, main
from arena.cli._interrupt import interruptible
from arena.cli._leaderboard import print_leaderboard, stdout_console
from arena.cli._people import people_note, people_records
from arena.cli._seats import bot_spec, seat_specs
from arena.cli._start_checks import sandbox_option
from arena.ratings import (
    CONFIDENCE,
    RESAMPLES,
    SEED,
    Leaderboard,
    RatingsError,
    Sprt,
    finite,
    rate_files,
    read_many,
    sprt_from_records,
)
from arena.referee import Limits
from arena.seeds import SEED_LIMIT

if TYPE_CHECKING:
    from arena.tournament import TournamentConfig


@click.command("ratings")
@click.argument("records", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print plain JSON data instead of tables.")
@click.option("--confidence", default=CONFIDENCE, show_default=True,
              type=click.FloatRange(0.5, 0.999),
              help="Confidence level of the intervals.")
@click.option("--resamples", default=RESAMPLES, show_default=True, type=click.IntRange(0, 100_000),
              help="Bootstrap resamples per bot (a league's: posterior draws).")
@click.option("--seed", default=SEED, show_default=True,
              type=click.IntRange(0, SEED_LIMIT - 1),
              help="Seed of the bootstrap and draws (results are reproducible).")
@click.option("--people", is_flag=True,
              help="Rate the people's tables of the served run(s) in RECORDS (folders: their "
                   "tables/records.jsonl), a board of their own.")
def ratings_command(
    records: tuple[str, ...], as_json: bool, confidence: float, resamples: int, seed: int,
    people: bool,
) -> None:
    """Rate every bot in RECORDS files (JSON lines written by arena run / match / ab).

    A RECORDS may be an output folder of arena run (its records.jsonl) or a gzip-compressed
    file (.jsonl.gz).

    Prints the leaderboard (OpenSkill rating, mean score with its interval, rank range and
    per-bot counts) and the head-to-head table; a league's records print the league's own
    leaderboard (Plackett-Luce strengths) first, and --json ranks its bots by it. See
    docs/ratings.md for how to read them.

    A served run's people's tables (OUT/tables/records.jsonl) are never mixed in: --people
    rates them alone, on a board of their own.
    """
    named = records
    if people:
        records = people_records(records)
    skipped = SkippedLines()
    try:
        board = rate_files(*records, confidence=confidence, resamples=resamples, seed=seed,
                           on_skip=skipped)
    except RatingsError as exc:
        skipped.warn()
        raise InputError(str(exc)) from None
    skipped.warn()
    if not board.bots:
        raise InputError(f"no finished deals in these records: {', '.join(records)}"
                         + (f" ({skipped.count} lines skipped)" if skipped.count else ""))
    if as_json:
        click.echo(json.dumps(finite({**board.to_dict(), **({"people": True} if people else {})}),
                              indent=2))
    else:
        if people:
            click.echo(f"People's tables: {', '.join(records)}\n")
        print_leaderboard(board, stdout_console(), never_played(board, records))
    if not people:
        people_note(named, "arena ratings", "not rated here")


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
@click.option("--host", type=click.Choice(["inline", "process"]), default=None,
              help="Where installed bots run (default: inline for the built-in bots, "
              "process for a third-party plugin's: inline runs its code in arena's own "
              "process, a trust decision; docs/security.md).")
@click.option("--move-ms", default=Limits().move_ms, show_default=True, type=click.IntRange(1),
              help="Time limit per decision.")
@click.option("--from", "from_records", multiple=True, type=click.Path(),
              metavar="RECORDS",
              help="Play nothing: replay the test on these records (e.g. of arena run). "
                   "BASELINE '*' compares with every other seat.")
@click.option("--json", "as_json", is_flag=True, help="No progress; print the result as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress, no header.")
@sandbox_option
@interruptible
def ab_command(
    challenger: str, baseline: str, field_bots: tuple[str, ...], elo0: float, elo1: float,
    alpha: float, beta: float, max_sets: int, preset: str, players: int, seed: int,
    jobs: int | None,
    out: str | None, host: str | None, move_ms: int, from_records: tuple[str, ...], as_json: bool,
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
    from arena.cli._closing import closing_status, log_to_folder
    from arena.cli._report import save_results
    from arena.cli._run import LiveReporter, final_sprt, played_line
    from arena.cli._start_checks import refuse_unstartable_entrants, sandbox_header
    from arena.cli.progress import LineReporter
    from arena.records import RECORDS
    from arena.tournament import TournamentError, run_tournament

    progress = Console(stderr=True)
    header = sandbox_header(config, sandbox)
    reporter = None
    if not quiet and not as_json:
        progress.print(header, highlight=False)
        shown = LiveReporter if progress.is_terminal else LineReporter
        reporter = shown(progress, config.name, bounded=True)
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
