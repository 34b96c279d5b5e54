"""Tournaments from YAML: formats, duplicate deals, parallel execution, resume.

A config (:class:`TournamentConfig`, from YAML by :func:`load_config`) says
who plays, under which rules and in which format; a :class:`Schedule` turns
it into plain match specs; an :class:`Executor` runs them (in local worker
processes by default) and :func:`run_tournament` streams the records to
``records.jsonl``, resuming from what is already there. See
docs/tournaments.md.

The names below are what a user of the Python API needs; pairing, seating
designs, seeds and resume live in the private modules that use them.
"""

from . import _formats  # noqa: F401  # installs every format in the config
from ._ab import AB_NAME, ab_config
from ._config import (
    BotConfig,
    ConfigError,
    ConfigIssue,
    LimitsConfig,
    TournamentConfig,
    config_schema,
    load_config,
    parse_config,
    validate_config,
)
from ._dask import ClusterError, DaskExecutor
from ._dryrun import dry_run_match
from ._executor import (
    Executor,
    LocalExecutor,
    MatchFailed,
    MatchFn,
    SerialExecutor,
    default_jobs,
    fork_worker_init,
    referee_match,
)
from ._formats import TournamentFormat, format_topics, tournament_format
from ._formats._gauntlet import GauntletFormat
from ._formats._league import LeagueFormat
from ._formats._round_robin import RoundRobinFormat
from ._formats._sprt import SprtFormat
from ._formats._swiss import SwissFormat, SwissHistory
from ._output import make_run_folder
from ._reporter import Reporters
from ._runner import (
    SECRET_SEED,
    Reporter,
    TournamentError,
    TournamentResult,
    output_dir,
    run_tournament,
)
from ._schedule import Schedule, Table
from ._sprt import SprtFeed, SprtPlan
from ._standings import Standing, Standings

__all__ = [
    "AB_NAME",
    "SECRET_SEED",
    "BotConfig",
    "ClusterError",
    "ConfigError",
    "ConfigIssue",
    "DaskExecutor",
    "Executor",
    "GauntletFormat",
    "LeagueFormat",
    "LimitsConfig",
    "LocalExecutor",
    "MatchFailed",
    "MatchFn",
    "Reporter",
    "Reporters",
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
    "TournamentFormat",
    "TournamentResult",
    "ab_config",
    "config_schema",
    "dry_run_match",
    "format_topics",
    "load_config",
    "make_run_folder",
    "output_dir",
    "parse_config",
    "referee_match",
    "run_tournament",
    "tournament_format",
    "validate_config",
]
from arena.tournament._league_plan import LEAGUE_LOG
from arena.tournament._league_status import LeagueStatus

__all__ += ["LeagueStatus"]  # a league's state before each round (live standings, result)
__all__ += ["LEAGUE_LOG"]  # a league's journal: each round's field (a competition reads it)
__all__ += ["default_jobs"]  # the one default number of worker processes (the report's too)
__all__ += ["fork_worker_init"]  # a forked worker ends with its parent (the report's too)
