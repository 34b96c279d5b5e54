"""The ``arena`` command line."""

from __future__ import annotations

import click


@click.group()
def main() -> None:
    """Run President bot matches and tournaments."""


# Each module defines its commands and adds them to `main`.
from arena.cli import _bots, _match, _ratings, _run  # noqa: E402, F401
