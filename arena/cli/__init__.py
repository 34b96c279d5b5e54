"""The ``arena`` command line."""

from __future__ import annotations

import click


@click.group()
def main() -> None:
    """Run President bot matches and tournaments."""


from arena.cli import _bots  # noqa: E402, F401
from arena.cli import _match  # noqa: E402, F401
from arena.cli import _ratings  # noqa: E402, F401
from arena.cli import _run  # noqa: E402, F401
