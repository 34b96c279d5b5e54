"""The tournament config: models (:mod:`._models`, the formats' in :mod:`._formats`), YAML
read once and bounded (:mod:`._yaml`), the one validation path (:mod:`._checks`) and its
one-line errors (:mod:`._errors`). See docs/tournaments.md, "The config"."""

from arena.tournament._config._checks import (
    load_config,
    parse_config,
    read_config,
    validate_config,
)
from arena.tournament._config._errors import ConfigError, ConfigIssue
from arena.tournament._config._formats import (
    GauntletFormat,
    LeagueFormat,
    RoundRobinFormat,
    SprtFormat,
    SwissFormat,
)
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
    "GauntletFormat",
    "LeagueFormat",
    "LimitsConfig",
    "LocalExecutorConfig",
    "RoundRobinFormat",
    "SprtFormat",
    "SubmissionsConfig",
    "SwissFormat",
    "TournamentConfig",
    "config_schema",
    "load_config",
    "parse_config",
    "read_config",
    "validate_config",
]
