"""Ratings and statistics from match records: leaderboards, head-to-head tables, A/B tests.

Everything here works from the records alone and returns plain data (frozen dataclasses with
``to_dict()``), so a notebook can use it as readily as the ``arena ratings`` and ``arena ab``
commands do. docs/ratings.md explains each statistic and how to read it. This layer plays
nothing: an A/B test is played by the tournament format ``sprt`` (``arena ab`` runs it),
whose stopping rule is :class:`Sprt` fed with :func:`set_score`; a league's leaderboard
(:class:`StrengthBoard`, Plackett-Luce strengths of its field) comes from its records alone.
"""

from ._defaults import CONFIDENCE, RESAMPLES, SEED
from ._head_to_head import HeadToHead, Pair, head_to_head
from ._json import finite
from ._leaderboard import BotRating, Leaderboard, rate, rate_files, rate_results
from ._league_board import (
    StrengthBoard,
    StrengthLine,
    league_counts,
    rate_league,
    strength_board,
)
from ._plackett_luce import PlackettLuceParams, rate_orders
from ._planted import expected_scores, simulate_records
from ._reader import read_many
from ._results import LeagueEntrant, LeagueField, RatingsError, Results
from ._sprt import (
    Sprt,
    SprtStatus,
    elo_to_score,
    score_to_elo,
    set_score,
    sprt_from_records,
)
from ._stages import StageCounts, stage_counts
from ._strength import StrengthFit, fit_strengths

__all__ = [
    "CONFIDENCE",
    "RESAMPLES",
    "SEED",
    "BotRating",
    "HeadToHead",
    "Leaderboard",
    "LeagueEntrant",
    "LeagueField",
    "Pair",
    "PlackettLuceParams",
    "RatingsError",
    "Results",
    "Sprt",
    "SprtStatus",
    "StageCounts",
    "StrengthBoard",
    "StrengthFit",
    "StrengthLine",
    "elo_to_score",
    "expected_scores",
    "finite",
    "fit_strengths",
    "head_to_head",
    "league_counts",
    "rate",
    "rate_files",
    "rate_league",
    "rate_orders",
    "rate_results",
    "read_many",
    "score_to_elo",
    "set_score",
    "simulate_records",
    "sprt_from_records",
    "stage_counts",
    "strength_board",
]

