"""The ``arena`` command line."""

from __future__ import annotations

import click


class InputError(click.ClickException):
    """Bad input (a file, a name, an option): one line on stderr, exit status 2."""

    exit_code = 2


@click.group()
def main() -> None:
    """Run President bot matches and tournaments."""


# Each module defines its commands and adds them to `main`.
from arena.cli import _bots, _match, _ratings, _run, _uecda_client  # noqa: E402, F401
