"""The one confidence, number of resamples and seed of a run's published numbers.

``arena ratings``, ``standings.json``, the report (written or served) and ``/api/standings``
all rate a run's records with these, so one set of records has one set of numbers whoever
computes them (docs/ratings.md, "One set of numbers").
"""

from __future__ import annotations

CONFIDENCE = 0.95
"""Level of every interval."""
RESAMPLES = 1000
"""Bootstrap resamples per bot; a league's posterior draws."""
SEED = 0
"""Seed of the bootstrap and of the draws."""
