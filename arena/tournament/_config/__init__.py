"""The tournament config: models (:mod:`._models`; each format's is in its module of
:mod:`arena.tournament._formats`, installed through :mod:`._formats`), YAML
read once and bounded (:mod:`._yaml`), the one validation path (:mod:`._checks`) and its
one-line errors (:mod:`._errors`). See docs/tournaments.md, "The config"."""

from arena.tournament._config._checks import (
    load_config,
    parse_config,
    read_config,
    validate_config,
)
from arena.tournament._config._errors import ConfigError, ConfigIssue
from arena.tournament._config._formats import FormatSettings
from arena.tournament._config._models import (
    BotConfig,
    DaskExecutorConfig,
    LimitsConfig,
    LocalExecutorConfig,
    SubmissionsConfig,
    TournamentConfig,
    config_schema,
)

__all__ = [
    "BotConfig",
    "ConfigError",
    "ConfigIssue",
    "DaskExecutorConfig",
    "FormatSettings",
    "LimitsConfig",
    "LocalExecutorConfig",
    "SubmissionsConfig",
    "TournamentConfig",
    "config_schema",
    "load_config",
    "parse_config",
    "read_config",
    "validate_config",
]
