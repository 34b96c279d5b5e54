"""``arena report``: the HTML report of a run, opened from the file system."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import click

from arena.cli import InputError, main
from arena.records import no_records_here


@main.command("report")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--records", "records", multiple=True, type=click.Path(dir_okay=False),
              help="Records file(s) to report on (default: OUT/records.jsonl); repeat.")
@click.option("--open", "open_browser", is_flag=True, help="Open the report in a browser.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
def report_command(out: str, records: tuple[str, ...], open_browser: bool, quiet: bool) -> None:
    """Write OUT/report/: leaderboard, head to head, course, matches and replays of a run.

    OUT is the folder of a run (arena run --out), holding records.jsonl and config.yaml. The
    report is plain files: open OUT/report/index.html in a browser, no server or network
    needed. See docs/report.md.
    """
    from arena.ratings import RatingsError
    from arena.report import write_report
    from arena.tournament import default_jobs

    folder = Path(out)
    if not records and not (folder / "records.jsonl").is_file():
        raise InputError(no_records_here(
            folder, " (give the folder of a run, or --records FILE)"))
    try:
        result = write_report(folder, records or None,
                              on_skip=lambda message: click.echo(f"warning: {message}", err=True),
                              jobs=default_jobs())  # every core, as arena run plays
    except RatingsError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"{folder}: cannot write the report ({exc.strerror or exc})") from None
    for problem in result.unreplayable[:10]:
        click.echo(f"warning: not replayable: {problem}", err=True)
    if not quiet:
        click.echo(f"report of {result.matches} matches: {result.index}")
    if open_browser and not _open(result.index):
        click.echo(f"warning: could not open a browser (no display?): open {result.index} "
                   "yourself", err=True)


def _open(index: Path) -> bool:
    """Open the report in a browser; False when none could be started (no display)."""
    try:
        return webbrowser.open(index.resolve().as_uri())
    except webbrowser.Error:
        return False


def save_results(folder: Path, *, report: bool, quiet: bool) -> None:
    """At the end of ``arena run`` (also after Ctrl-C): standings.json and standings.csv beside
    the records, and with ``report`` the report; says where on stderr unless ``quiet``.

    A failure here is reported in one line and never touches the records.
    """
    from arena.report import write_report, write_standings

    if not (folder / "records.jsonl").is_file():
        return
    try:
        json_path, csv_path = write_standings(folder)
        written = [f"standings: {json_path}, {csv_path.name}"]
        if report:
            result = write_report(folder, on_skip=lambda message: None)
            written.append(f"report: {result.index}")
    except (OSError, ValueError) as exc:
        click.echo(f"warning: cannot save the results in {folder}: {exc}", err=True)
        return
    if not quiet:
        for line in written:
            click.echo(line, err=True)
