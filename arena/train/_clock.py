"""The CPU seconds a training run spends, stage by stage, kept across resumed runs."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["Clock"]


class Clock:
    """CPU seconds per stage, kept in ``cpu.json`` across resumed runs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.spent: dict[str, float] = json.loads(path.read_text()) if path.exists() else {}

    def stage(self, name: str) -> Callable[..., None]:
        """A function that adds the CPU time spent since its last call (or now) to ``name``,
        and the seconds it is given (spent by other processes)."""
        since = [time.process_time()]

        def spent(elsewhere: float = 0.0) -> None:
            self.add(name, since[0], elsewhere)
            since[0] = time.process_time()

        return spent

    def add(self, stage: str, since: float, elsewhere: float = 0.0) -> None:
        self.spent[stage] = (self.spent.get(stage, 0.0) + time.process_time() - since
                             + elsewhere)
        self.path.write_text(json.dumps(self.spent, indent=1, sort_keys=True))
