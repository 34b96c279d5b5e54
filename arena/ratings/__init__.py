"""Ratings and statistics from match records: leaderboards, head-to-head tables, A/B tests.

Everything here works from the records alone and returns plain data (frozen dataclasses with
``to_dict()``), so a notebook can use it as readily as the ``arena ratings`` and ``arena ab``
commands do. docs/ratings.md explains each statistic and how to read it.
"""

from ._ab import AbConfig, AbResult, bot_spec, run_ab
from ._head_to_head import HeadToHead, Pair, head_to_head
from ._json import finite
from ._leaderboard import BotRating, Leaderboard, rate, rate_files, rate_results
from ._plackett_luce import PlackettLuceParams, rate_orders
from ._planted import expected_scores, simulate_records
from ._reader import read_many
from ._results import RatingsError, Results
from ._sprt import (
    Sprt,
    SprtStatus,
    elo_to_score,
    score_to_elo,
    set_score,
    sprt_from_records,
)

__all__ = [
    "AbConfig",
    "AbResult",
    "BotRating",
    "HeadToHead",
    "Leaderboard",
    "Pair",
    "PlackettLuceParams",
    "RatingsError",
    "Results",
    "Sprt",
    "SprtStatus",
    "bot_spec",
    "elo_to_score",
    "expected_scores",
    "finite",
    "head_to_head",
    "rate",
    "rate_files",
    "rate_orders",
    "rate_results",
    "read_many",
    "run_ab",
    "score_to_elo",
    "set_score",
    "simulate_records",
    "sprt_from_records",
]

