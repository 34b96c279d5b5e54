"""Helpers shared by the tournament tests (records without their timings)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def without_timings(record: dict[str, Any]) -> dict[str, Any]:
    """A record minus what depends on the clock: wall_s and each move's ms."""
    out = {key: value for key, value in record.items() if key != "wall_s"}
    out["deals"] = [
        {**deal, "moves": [{k: v for k, v in m.items() if k != "ms"} for m in deal["moves"]]}
        for deal in record.get("deals", [])
    ]
    return out


def load_records(path: Path) -> list[dict[str, Any]]:
    """Every record of a records.jsonl, in file order, timings removed."""
    with path.open(encoding="utf-8") as file:
        return [without_timings(json.loads(line)) for line in file]
