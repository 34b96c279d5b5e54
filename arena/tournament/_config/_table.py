"""The formats installed in the config: what the config and the schedule ask of a format.

The table of formats (:mod:`arena.tournament._formats`) installs each one here at import
(:func:`install_formats`): its settings model joins the tagged union ``format`` is validated
as, and :func:`format_of` finds it by ``format.type`` for the checks, the schedule and the
output folder. What a format is beyond the config (its plan) is
:class:`arena.tournament._formats._base.TournamentFormat`, which extends
:class:`ConfigFormat`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Protocol

from pydantic import Field

from arena.tournament._config._formats import FORMAT_MODELS, FormatSettings, Problems
from arena.tournament._config._models import TournamentConfig


class ConfigFormat(Protocol):
    """A tournament format, as the config, the schedule and the command line see it."""

    name: str
    """Its ``format.type``."""
    settings: type[FormatSettings]
    """Its settings model (the keys under ``format:``)."""
    topics: tuple[str, ...]
    """The served run's topics of its own status (``sprt``, ``league``), besides the
    standings and matches every run has."""
    bot_keys: tuple[str, ...]
    """Keys of a bot entry that only this format reads (a league's ``version``...)."""
    takes_submissions: bool
    """Whether entrants may submit bots to a run of it (``submissions:``, a field that grows
    round by round: docs/competition.md)."""
    bounded: bool
    """Whether :meth:`total` is a bound the format may stop short of (an sprt test)."""

    def issues(self, config: TournamentConfig, seen: Mapping[str, int]) -> Problems:
        """What the schema cannot see: the format's keys against the field, the table's
        size, teams (``seen``: each label's first index)."""
        ...

    def duplicate(self, config: TournamentConfig) -> bool:
        """Whether a table is a duplicate set (some formats always play sets)."""
        ...

    def total(self, config: TournamentConfig) -> int:
        """Matches in the tournament, known before any is played (0: chosen as it goes)."""
        ...

    def describe(self, config: TournamentConfig) -> str:
        """What ``arena validate`` says after the table size: ``, N matches``..."""
        ...

    def set_size(self, config: TournamentConfig, seats: int) -> int:
        """Matches of one duplicate set at a table of ``seats`` (1 where tables are no sets):
        a set's hands are shown once that many of its matches are recorded."""
        ...

    def resume_identity(self, config: TournamentConfig) -> dict[str, Any]:
        """What a resumed run must share with the run it resumes."""
        ...

    def closing(self, outcome: Mapping[str, Any]) -> list[str]:
        """Lines a run prints at its end about the format's own result (``outcome``, the
        plan's summary)."""
        ...


FORMATS: dict[str, ConfigFormat] = {}
"""Every format installed, by its ``type``."""


def format_of(settings: FormatSettings) -> ConfigFormat:
    """The format whose settings these are (a config's ``format``)."""
    return FORMATS[settings.type]


def install_formats(formats: Sequence[ConfigFormat]) -> None:
    """Make ``formats`` the config's: their settings models become the tagged union
    ``format`` is validated as, and the checks find each by its ``type``."""
    for fmt in formats:
        FORMATS[fmt.name] = fmt
        FORMAT_MODELS[fmt.name] = fmt.settings
    union = functools.reduce(operator.or_, FORMAT_MODELS.values())
    tagged = Annotated[union, Field(discriminator="type")]  # type: ignore[valid-type]
    TournamentConfig.model_rebuild(force=True, _types_namespace={"Format": tagged})
