"""Where a league stands before a round: what the live standings and the result show."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LeagueStatus:
    """Where a league stands before a round (what the live standings show)."""

    round: int
    deals: int
    top: int
    confident: float | None
    p_top: float | None
    stop: str | None
    order: list[str]  # active entrants, best first by strength
    ratings: list[dict[str, Any]]  # every entrant that played: label, strength, interval

    def line(self) -> str:
        """One line: the round, the deals, the stopping rule's state."""
        text = f"round {self.round}, {self.deals} deals"
        if self.p_top is not None:
            text += f", P(order of top {self.top}) {self.p_top:.2f}"
            if self.confident is not None:
                text += f" (stops at {self.confident:g})"
        if self.stop is not None:
            text += f"; stopped ({self.stop})"
        return text

    def to_dict(self) -> dict[str, Any]:
        """As plain data (``TournamentResult.league``)."""
        return {"round": self.round, "deals": self.deals, "top": self.top,
                "confident": self.confident, "p_top": self.p_top, "stop": self.stop,
                "order": self.order, "ratings": self.ratings}
