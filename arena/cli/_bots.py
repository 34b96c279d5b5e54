"""``arena bots``: list the installed bots and the plugins that provide them."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.table import Table

from arena.cli import InputError, main
from arena.plugins import BotRegistry, registry

_NOT_IMPORTED = ("({}; not imported: a third-party plugin's code runs only in its bot's "
                 "process, sandboxed)")


def warn_plugin_errors(reg: BotRegistry) -> None:
    """Print one warning line on stderr per plugin that failed to load."""
    for line in reg.error_lines():
        click.echo(f"warning: {line}", err=True)


@click.command("bots")
@click.argument("names", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object for machines.")
def bots_command(names: tuple[str, ...], as_json: bool) -> None:
    """List every installed bot with its plugin, version and description.

    A third-party plugin is listed from its package's metadata, never imported: its
    description and whether it is stochastic are known only to its code, which runs in
    the bot's own process. Give NAMES to show only those bots; an unknown name is an
    error.
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
            "plugins": sorted(
                [{"name": n, "version": v, "imported": True} for n, v in reg.plugins.items()]
                + [{"name": p.name, "version": p.version, "imported": False,
                    "distribution": p.distribution} for p in reg.listed.values()],
                key=lambda plugin: str(plugin["name"])),
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
            ("yes" if entry.stochastic else "no") if entry.imported else "?",
            entry.description if entry.imported else _NOT_IMPORTED.format(entry.distribution),
        )
    console = Console(file=sys.stdout)
    if not console.is_terminal:
        console.width = 200  # piped into grep or a file: do not wrap descriptions
    console.print(table)


main.add_command(bots_command)
