"""A click group whose commands are imported only when they run.

Each command lives in a module that may import heavy libraries (numpy, pydantic, trio,
rich); importing them all costs most of a second, so ``arena --help`` and ``arena bots``
would wait for what they never use. The group knows each command by name, the
``module:attribute`` that defines it and its one-line help, and imports the module when
the command is called (or its own ``--help`` is asked for).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import click


@dataclass(frozen=True)
class LazyCommand:
    """Where a command is defined, and the line ``arena --help`` shows for it."""

    target: str
    """``module:attribute`` of the click command."""
    short_help: str
    """The start of the command's help, for the command list of ``arena --help``."""


class LazyGroup(click.Group):
    """A group that imports each registered command's module on first use."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_commands: dict[str, LazyCommand] = {}

    def lazy(self, name: str, target: str, short_help: str) -> None:
        """Register command ``name``, defined at ``target`` (``module:attribute``)."""
        self.lazy_commands[name] = LazyCommand(target, short_help)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            return self.load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def load(self, name: str) -> click.Command:
        """Import the command ``name`` and keep it."""
        module_name, _, attribute = self.lazy_commands[name].target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_commands[name].target} is not a click command")
        self.commands[name] = command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help``, from the registered lines: nothing is imported."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(name) for name in names), default=0)
        rows = []
        for name in names:
            if name in self.commands:
                command = self.commands[name]
                if command.hidden:
                    continue
                text = command.get_short_help_str(limit=limit)
            else:
                stand_in = click.Command(name, help=self.lazy_commands[name].short_help)
                text = stand_in.get_short_help_str(limit=limit)
            rows.append((name, text))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
