"""The tournament formats: one module each, registered in one table.

Each module of :data:`TABLE` defines a format's settings model and a ``FORMAT`` object
implementing :class:`~arena.tournament._formats._base.TournamentFormat` (docs/architecture.md,
"A tournament format"). Importing this package installs them all in the config
(:func:`~arena.tournament._config._table.install_formats`): a config's ``format.type`` is
one of their names, and everything else asks the format found by it
(:func:`tournament_format`). A new format is one new module and
its line here.
"""

from __future__ import annotations

import importlib

from arena.tournament._config._table import install_formats
from arena.tournament._formats._base import BaseFormat, ConfigFile, TournamentFormat

TABLE = (
    "arena.tournament._formats._round_robin",
    "arena.tournament._formats._swiss",
    "arena.tournament._formats._gauntlet",
    "arena.tournament._formats._sprt",
    "arena.tournament._formats._league",
    "arena.tournament._formats._knockout",
)
"""The modules of the formats, in the order the docs list them."""

FORMATS: dict[str, TournamentFormat] = {
    fmt.name: fmt for fmt in (importlib.import_module(module).FORMAT for module in TABLE)}
"""Every format, by its ``type``."""

install_formats(list(FORMATS.values()))


def tournament_format(name: str) -> TournamentFormat:
    """The format registered as ``name`` (a config's ``format.type``); ``KeyError`` for
    none."""
    return FORMATS[name]


def format_topics() -> frozenset[str]:
    """The served run's topics of every format's own status (``sprt``, ``league``)."""
    return frozenset(topic for fmt in FORMATS.values() for topic in fmt.topics)


__all__ = ["FORMATS", "TABLE", "BaseFormat", "ConfigFile", "TournamentFormat",
           "format_topics", "tournament_format"]
