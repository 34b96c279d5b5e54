"""The ``arena`` command line."""

from __future__ import annotations

import click

from arena.cli._lazy import LazyGroup


class InputError(click.ClickException):
    """Bad input (a file, a name, an option): one line on stderr, exit status 2."""

    exit_code = 2


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from arena._version import __version__
    from arena.game import engine

    click.echo(f"arena, version {__version__}\nengine: {engine()}")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version,
              help="Show the version and which engine runs (compiled or pure Python), and exit.")
def main() -> None:
    """Run President bot matches and tournaments."""


# Each command: its name, the `module:command` that defines it (imported only when the
# command runs) and the start of its help, which `arena --help` lists without importing it.
assert isinstance(main, LazyGroup)
main.lazy("ab", "arena.cli._ratings:ab_command", "Is CHALLENGER stronger than BASELINE?")
main.lazy("bots", "arena.cli._bots:bots_command", "List every installed bot.")
main.lazy("match", "arena.cli._match:match_command", "Play one match between BOTs.")
main.lazy("ratings", "arena.cli._ratings:ratings_command", "Rate every bot in RECORDS files.")
main.lazy("run", "arena.cli._run:run_command",
          "Run (or resume) the tournament that CONFIG describes.")
main.lazy("validate", "arena.cli._run:validate_command", "Check CONFIG without running it.")
main.lazy("register", "arena.cli._competition:register_command",
          "Register NAME as an entrant of the league served at URL; print its token.")
main.lazy("submit", "arena.cli._competition:submit_command",
          "Submit PATH to the league served at URL: one Python file defining an arena.Bot, or")
main.lazy("report", "arena.cli._report:report_command",
          "Write OUT/report/: leaderboard, head to head, course, matches and replays")
main.lazy("serve", "arena.cli._serve:serve_command",
          "Serve the run in OUT: standings, matches, replays and matches in play, live.")
main.lazy("show", "arena.cli._show:show_command",
          "Print match MATCH_ID of the RECORDS file move by move")
main.lazy("play", "arena.cli._play:play_command",
          "Play a match yourself against BOTS (1 to 7 installed bots)")
main.lazy("new-bot", "arena.cli._newbot:new_bot_command",
          "Write a ready bot package NAME")
main.lazy("uecda-client", "arena.cli._uecda_client:uecda_client_command",
          "Connect BOT (an installed bot or module:Class) to a UECda server")
