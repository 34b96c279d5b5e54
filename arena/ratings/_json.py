"""Ratings as JSON: the statistics use NaN for "no value", which JSON cannot hold."""

from __future__ import annotations

import math
from typing import Any


def finite(value: Any) -> Any:
    """``value`` with every NaN replaced by ``None`` (JSON's null), all the way down."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value
