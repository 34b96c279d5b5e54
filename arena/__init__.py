"""arena: a tournament engine for bots that play President."""

from arena.bot import Bot as Bot
from arena.bot import MatchInfo as MatchInfo
from arena.hookspecs import hookimpl as hookimpl
from arena.tournament import TournamentConfig as TournamentConfig
from arena.tournament import load_config as load_config
from arena.tournament import run_tournament as run_tournament

__version__ = "0.1.0"
