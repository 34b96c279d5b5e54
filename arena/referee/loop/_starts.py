"""Which seats' bots started in a match, and what a seat whose bot did not start is charged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.records import get_logger

from .._faults import BotFault

if TYPE_CHECKING:
    from .._spec import MatchSpec

__all__ = ["Starts"]

_log = get_logger("arena.referee")


class Starts:
    """The seats' start state for one match.

    A bot is started once, when the match begins (within ``start_ms``). One
    that did not start is not tried again in that match: each of its seat's
    decisions is charged its start fault instead of being asked, as the
    fault policy says (``on_fault``), and it hears no end of a deal.
    """

    def __init__(self, spec: MatchSpec, players: int) -> None:
        self._spec = spec
        self.started = [False] * players
        """Whether each seat's bot started."""
        self._faults: list[BotFault | None] = [None] * players

    def succeeded(self, seat: int) -> None:
        self.started[seat] = True

    def failed(self, seat: int, fault: BotFault) -> None:
        self._faults[seat] = fault
        _log.warning("bot failed to start", match=self._spec.match_id, seat=seat,
                     bot=self._spec.labels[seat], fault=str(fault))

    def fault(self, seat: int) -> BotFault | None:
        """The start fault of a seat whose bot did not start, or None."""
        return self._faults[seat]
