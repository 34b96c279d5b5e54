"""``arena report``: the HTML report of a run, opened from the file system."""

from __future__ import annotations

import json
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.cli import InputError, main
from arena.records import TABLE_RECORDS, no_records_here

if TYPE_CHECKING:
    from arena.report import StandingsTally


@main.command("report")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--records", "records", multiple=True, type=click.Path(dir_okay=False),
              help="Records file(s) to report on (default: OUT/records.jsonl); repeat.")
@click.option("--open", "open_browser", is_flag=True, help="Open the report in a browser.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
@click.option("--lang", default="en", show_default=True, metavar="LANG",
              help="The language the report opens in: en, nl, da, pl, no or tr (its language "
                   "menu offers the others).")
@click.option("--people", is_flag=True,
              help="Report the people's tables of the served run OUT (OUT/tables/records.jsonl) "
                   "in OUT/tables/report/, apart from the run's.")
@click.option("--public", is_flag=True,
              help="Show each fault's detail as a served run does: the referee's words, "
                   "without the bots' own (their output, their exceptions). For a report "
                   "to publish.")
@click.option("--replays", type=click.IntRange(min=0), default=None, metavar="N",
              help="Replay the latest N matches (default 100,000); the older are listed "
                   "with their results, without their replay (arena show replays one).")
def report_command(out: str, records: tuple[str, ...], open_browser: bool, quiet: bool,
                   lang: str, people: bool, public: bool, replays: int | None) -> None:
    """Write OUT/report/: leaderboard, head to head, course, matches and replays of a run.

    OUT is the folder of a run (arena run --out), holding records.jsonl and config.yaml. The
    report is plain files: open OUT/report/index.html in a browser, no server or network
    needed. See docs/report.md. A served run's people's tables are reported apart, with
    --people. Faults are shown with their whole details (a bot's output and exceptions
    included), unless --public.
    """
    from arena.cli._people import people_note
    from arena.ratings import RatingsError
    from arena.report import LANGUAGES, REPLAYS, write_report
    from arena.tournament import default_jobs

    if lang not in LANGUAGES:
        raise InputError(f"--lang {lang[:20]!r}: the report speaks {', '.join(LANGUAGES)}")
    folder = Path(out)
    kept = REPLAYS if replays is None else replays
    if people:
        if records:
            raise InputError("--people reports OUT/tables/records.jsonl: give no --records")
        records = (str(folder / TABLE_RECORDS),)
        if not Path(records[0]).is_file():
            raise InputError(f"{folder}: no people's tables' matches here ({records[0]})")
        folder = folder / "tables"
    elif not records and not (folder / "records.jsonl").is_file():
        raise InputError(no_records_here(
            folder, " (give the folder of a run, or --records FILE)"))
    try:
        result = write_report(folder, records or None,
                              on_skip=lambda message: click.echo(f"warning: {message}", err=True),
                              jobs=default_jobs(),  # every core, as arena run plays
                              people=people, lang=lang, public=public,
                              replays=kept)
    except RatingsError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"{folder}: cannot write the report ({exc.strerror or exc})") from None
    for problem in result.unreplayable[:10]:
        click.echo(f"warning: not replayable: {problem}", err=True)
    if not quiet:
        what = "people's tables' matches" if people else "matches"
        click.echo(f"report of {result.matches} {what}: {result.index}")
        if result.unreplayed:
            click.echo(f"the oldest {result.unreplayed} are listed without their replay "
                       f"(--replays: the latest {kept:,} are replayed)")
    if not people and not records and not quiet:
        people_note([out], "arena report", "not in this report")
    if open_browser and not _open(result.index):
        click.echo(f"warning: could not open a browser (no display?): open {result.index} "
                   "yourself", err=True)


def _open(index: Path) -> bool:
    """Open the report in a browser; False when none could be started (no display)."""
    try:
        return webbrowser.open(index.resolve().as_uri())
    except webbrowser.Error:
        return False


def save_results(folder: Path, *, report: bool, quiet: bool,
                 tally: StandingsTally | None = None) -> dict[str, Any] | None:
    """At the end of ``arena run`` (also after Ctrl-C): standings.json and standings.csv beside
    the records, and with ``report`` the report; says where on stderr unless ``quiet``. The
    standings are those of the run's ``tally`` of the records it wrote when given (the run
    ended: every record it counted is written), else of the records read back.
    Returns the standings document written (None when none was).

    A failure here is reported in one line and never touches the records.
    """
    from arena.report import write_report, write_standings

    if not (folder / "records.jsonl").is_file():
        return None
    document: dict[str, Any] | None = None
    try:
        json_path, csv_path = write_standings(folder, tally=tally)
        document = json.loads(json_path.read_text(encoding="utf-8"))
        written = [f"standings: {json_path}, {csv_path.name}"]
        if report:
            result = write_report(folder, on_skip=lambda message: None)
            written.append(f"report: {result.index}")
    except (OSError, ValueError) as exc:
        click.echo(f"warning: cannot save the results in {folder}: {exc}", err=True)
        return document
    if not quiet:
        for line in written:
            click.echo(line, err=True)
    return document
