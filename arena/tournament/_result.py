"""What a run produced, as plain data: :class:`TournamentResult`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class TournamentResult:
    """What a run produced, as plain data (see :meth:`to_dict`)."""

    name: str
    out: str
    records: str
    total: int
    """Matches in the tournament."""
    played: int
    """Matches played by this run."""
    resumed: int
    """Matches found already recorded and skipped."""
    elapsed_s: float
    standings: list[dict[str, Any]] = field(default_factory=list)
    format: str = "round_robin"
    """The format's ``type``."""
    outcome: dict[str, Any] | None = None
    """The format's own result, as plain data (its plan's ``summary()``), None for a format
    with none: :attr:`sprt`, :attr:`league`, a knockout's winners. ``to_dict`` gives it
    under the format's name."""
    faults: list[str] = field(default_factory=list)
    """One line per bot that faulted: its most frequent fault, in how many of its matches,
    and the first detail (``FaultLog.lines()``)."""
    silent: list[str] = field(default_factory=list)
    """Labels of bots that played matches without ever making a move of their own."""
    seed: int | None = None
    """The tournament seed the matches were dealt from."""
    secret_seed: bool = False
    """Whether the seed was drawn in secret (the config gave none); it is kept in the output
    folder's ``secret-seed`` file: publish it after the competition so anyone can check."""
    errors: list[dict[str, Any]] = field(default_factory=list)
    """Matches the referee itself failed to play: ``match_id`` and ``error`` of each error
    record (the record holds the traceback). A run with errors is not a clean run."""

    @property
    def complete(self) -> bool:
        """Whether every match of the tournament is recorded."""
        return self.played + self.resumed == self.total

    @property
    def sprt(self) -> dict[str, Any] | None:
        """Format sprt: the test's final status (``SprtStatus.to_dict()``: decision, llr and
        its bounds, sets, elo with elo_low and elo_high)."""
        return self.outcome if self.format == "sprt" else None

    @property
    def league(self) -> dict[str, Any] | None:
        """Format league: where it stood after its last round (``LeagueStatus.to_dict()``:
        round, deals, p_top, stop, the active entrants' order and every entrant's
        strength)."""
        return self.outcome if self.format == "league" else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready result (``arena run --json``): the format's outcome under its name."""
        data = asdict(self)
        outcome = data.pop("outcome")
        if outcome is not None:
            data[self.format] = outcome
        data["complete"] = self.complete
        return data
