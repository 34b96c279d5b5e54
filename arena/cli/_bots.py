"""``arena bots``: list the installed bots and the plugins that provide them."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.table import Table

from arena.cli import InputError, main
from arena.plugins import BotRegistry, registry


def warn_plugin_errors(reg: BotRegistry) -> None:
    """Print one warning line on stderr per plugin that failed to load."""
    for line in reg.error_lines():
        click.echo(f"warning: {line}", err=True)


@click.command("bots")
@click.argument("names", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object for machines.")
def bots_command(names: tuple[str, ...], as_json: bool) -> None:
    """List every installed bot with its plugin, version and description.

    Give NAMES to show only those bots; an unknown name is an error.
    """
    reg = registry()
    warn_plugin_errors(reg)
    if names:
        try:
            entries = [reg.get(name) for name in names]
        except LookupError as exc:
            raise InputError(str(exc)) from None
    else:
        entries = list(reg)
    if as_json:
        payload = {
            "bots": [entry.to_dict() for entry in entries],
            "plugins": [{"name": n, "version": v} for n, v in sorted(reg.plugins.items())],
            "errors": [{"plugin": p, "message": m} for p, m in reg.errors],
        }
        click.echo(json.dumps(payload, indent=2))
        return
    if not entries:
        click.echo("no bots installed (see docs/writing-a-bot.md)")
        return
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("bot", "plugin", "version", "stochastic", "description"):
        table.add_column(column, overflow="fold")
    for entry in entries:
        table.add_row(
            entry.name,
            entry.plugin,
            entry.version or "-",
            "yes" if entry.stochastic else "no",
            entry.description,
        )
    console = Console(file=sys.stdout)
    if not console.is_terminal:
        console.width = 200  # piped into grep or a file: do not wrap descriptions
    console.print(table)


main.add_command(bots_command)
