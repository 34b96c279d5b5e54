"""arena: a tournament engine for bots that play President."""

__version__ = "0.1.0"
