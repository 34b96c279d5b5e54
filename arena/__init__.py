"""arena: a tournament engine for bots that play President."""

from arena.bot import Bot as Bot
from arena.bot import MatchInfo as MatchInfo
from arena.hookspecs import hookimpl as hookimpl

__version__ = "0.1.0"
