"""arena: a tournament engine for bots that play President.

The names below are the public API. The heavier layers (tournaments, ratings) load on first
use, so ``import arena.game`` stays cheap for bots and simulations.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

# One BLAS thread unless the environment says otherwise, set before numpy loads: arena's
# matrices are small (a league's fit solves systems of one row per entrant), and a
# tournament's machine is busy with its matches; OpenBLAS's threads, which spin while they
# wait, made a 200-entrant league's fit 20 times slower on a loaded 2-core machine
# (docs/league.md, "Bounds"). OPENBLAS_NUM_THREADS (or OMP_NUM_THREADS) set by the caller wins.
if "OMP_NUM_THREADS" not in os.environ:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from arena.bot import Bot as Bot
from arena.bot import MatchInfo as MatchInfo
from arena.hookspecs import hookimpl as hookimpl

if TYPE_CHECKING:
    from arena.ratings import Sprt as Sprt
    from arena.ratings import head_to_head as head_to_head
    from arena.ratings import rate as rate
    from arena.ratings import rate_files as rate_files
    from arena.ratings import sprt_from_records as sprt_from_records
    from arena.records import RecordWriter as RecordWriter
    from arena.records import read_records as read_records
    from arena.referee import play_match as play_match
    from arena.referee import run_match as run_match
    from arena.tournament import TournamentConfig as TournamentConfig
    from arena.tournament import load_config as load_config
    from arena.tournament import run_tournament as run_tournament

from arena._lazy import lazy_attribute
from arena._version import __version__ as __version__

# Public name -> the module that defines it, imported when the name is first used.
_LAZY = {
    "TournamentConfig": "arena.tournament",
    "load_config": "arena.tournament",
    "run_tournament": "arena.tournament",
    "RecordWriter": "arena.records",
    "read_records": "arena.records",
    "play_match": "arena.referee",
    "run_match": "arena.referee",
    "Sprt": "arena.ratings",
    "head_to_head": "arena.ratings",
    "rate": "arena.ratings",
    "rate_files": "arena.ratings",
    "sprt_from_records": "arena.ratings",
}


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["Bot", "MatchInfo", "TournamentConfig", "hookimpl", "load_config", "run_tournament"]
__all__ += ["RecordWriter", "play_match", "read_records", "run_match"]
__all__ += ["Sprt", "head_to_head", "rate", "rate_files", "sprt_from_records"]
