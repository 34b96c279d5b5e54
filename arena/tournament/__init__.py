"""Tournaments from YAML: formats, duplicate deals, parallel execution, resume.

A config (:class:`TournamentConfig`, from YAML by :func:`load_config`) says
who plays, under which rules and in which format; a :class:`Schedule` turns
it into plain match specs; an :class:`Executor` runs them (in local worker
processes by default) and :func:`run_tournament` streams the records to
``records.jsonl``, resuming from what is already there. See
docs/tournaments.md.
"""

from ._config import (
    BotConfig,
    ConfigError,
    ConfigIssue,
    GauntletFormat,
    LimitsConfig,
    RoundRobinFormat,
    SprtFormat,
    SwissFormat,
    TournamentConfig,
    config_schema,
    load_config,
    parse_config,
    validate_config,
)
from ._dask import ClusterError, DaskExecutor
from ._design import equitable_seats, full_round_robin, rotation_classes, sampled_round_robin
from ._dryrun import dry_run_match
from ._executor import (
    Executor,
    LocalExecutor,
    MatchFailed,
    MatchFn,
    SerialExecutor,
    default_jobs,
    referee_match,
)
from ._recordlog import RecordFileError, repair_tail, resume_records
from ._runner import (
    CONFIG_COPY,
    RECORDS,
    Reporter,
    TournamentError,
    TournamentResult,
    output_dir,
    run_tournament,
)
from ._schedule import Schedule, SwissHistory, Table
from ._seeds import match_seed
from ._sprt import SprtFeed, SprtPlan
from ._standings import Standing, Standings
from ._swiss import choose_byes, pair_round, table_sizes

__all__ = [
    "CONFIG_COPY",
    "RECORDS",
    "BotConfig",
    "ClusterError",
    "ConfigError",
    "ConfigIssue",
    "DaskExecutor",
    "Executor",
    "GauntletFormat",
    "LimitsConfig",
    "LocalExecutor",
    "MatchFailed",
    "MatchFn",
    "RecordFileError",
    "Reporter",
    "RoundRobinFormat",
    "Schedule",
    "SerialExecutor",
    "SprtFeed",
    "SprtFormat",
    "SprtPlan",
    "Standing",
    "Standings",
    "SwissFormat",
    "SwissHistory",
    "Table",
    "TournamentConfig",
    "TournamentError",
    "TournamentResult",
    "choose_byes",
    "config_schema",
    "default_jobs",
    "dry_run_match",
    "equitable_seats",
    "full_round_robin",
    "load_config",
    "match_seed",
    "output_dir",
    "pair_round",
    "parse_config",
    "referee_match",
    "repair_tail",
    "resume_records",
    "rotation_classes",
    "run_tournament",
    "sampled_round_robin",
    "table_sizes",
    "validate_config",
]
