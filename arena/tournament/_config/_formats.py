"""The formats' place in the config: the base of every format's settings, and the table of
the formats installed.

A format's settings model (its keys under ``format:``, their defaults and descriptions) is
declared in the format's own module (:mod:`arena.tournament._formats`); that package's table
installs every format (:mod:`._table`), so the config validates ``format`` as a tagged union
of their models, and its checks ask the format found by ``format.type``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

Problems = list[tuple[tuple[str | int, ...], str]]
"""Issues as (key path, message), before their lines are looked up."""

STRICT = ConfigDict(extra="forbid", strict=True)


class FormatSettings(BaseModel):
    """The keys under ``format:`` of one format; ``type`` names it."""

    model_config = STRICT

    type: str


FORMAT_MODELS: dict[str, type[FormatSettings]] = {}
"""Every format's settings model, by its ``type`` (filled by
:func:`arena.tournament._config._table.install_formats`)."""
