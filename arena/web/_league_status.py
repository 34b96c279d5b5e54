"""A league's last status in a run's live folder (``OUT/live/league.json``): the run's
reporter writes it (``_live_run.py``), the API and the spectators' socket read it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ._live import LIVE_DIR

__all__ = ["LEAGUE_STATUS", "read_league_status", "write_league_status"]

LEAGUE_STATUS = "league.json"
"""``OUT/live/league.json``: a league's last status (LeagueStatus), for any server."""


def read_league_status(folder: Path) -> dict[str, Any] | None:
    """The league status the run in ``folder`` last wrote, or None."""
    try:
        data = json.loads((folder / LIVE_DIR / LEAGUE_STATUS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_league_status(folder: Path, data: dict[str, Any]) -> None:
    """``folder/league.json``, replaced whole (a reader never sees half of it)."""
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{LEAGUE_STATUS}.new"
    partial.write_text(json.dumps(data), encoding="utf-8")
    os.replace(partial, folder / LEAGUE_STATUS)
