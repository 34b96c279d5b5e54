"""The match record (docs/records.md), built deal by deal."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena._version import __version__
from arena.game import restore_docstrings
from arena.records import MAX_NAME, SCHEMA, clip

if TYPE_CHECKING:
    from arena.game import Deal, Match

    from .._spec import MatchSpec
    from ..hosts._host import Host

__all__ = ["RecordBuilder"]


class RecordBuilder:
    """Collects a match's deal records and assembles its record at the end."""

    def __init__(self, spec: MatchSpec) -> None:
        self._spec = spec
        self._labels = spec.labels
        self.limits = spec.limits.to_dict()
        """The limits as the record and every bot's start see them."""
        self.deals: list[dict[str, Any]] = []

    def add_deal(self, summary: dict[str, Any], deal: Deal, think: list[float]) -> None:
        """The deal's record: ``Match.summary()`` with the moves as arrays of one entry per
        move, their think times, and labelled faults."""
        moves = deal.moves
        number = summary["deal"]
        # Whole microseconds: exact, and cheaper to write than fractional milliseconds.
        think_us: list[int | None] = [int(seconds * 1e6 + 0.5) for seconds in think]
        if len(think_us) < len(moves):  # moves without a think time (none so far): null
            think_us += [None] * (len(moves) - len(think_us))
        record: dict[str, Any] = {}
        for key, value in summary.items():  # the summary's order, its moves in their place
            if key == "moves":
                record["movers"] = [seat for seat, _ in moves]
                record["moves"] = [move.text for _, move in moves]
                record["think_us"] = think_us
            elif key == "faults":
                record["faults"] = [{**f, "bot": self._labels[f["seat"]], "deal": number}
                                    for f in value]
            else:
                record[key] = value
        self.deals.append(record)

    def record(self, match: Match, hosts: Sequence[Host], decisions: int,
               wall0: float) -> dict[str, Any]:
        """The match record; ``wall0`` is the ``time.perf_counter()`` the match began at."""
        spec = self._spec
        return {
            "schema": SCHEMA,
            "type": "match",
            **spec.identity(),
            "rules": spec.rules.to_dict(),
            "seats": [
                {"seat": seat, "label": self._labels[seat], "bot": clip(host.meta.bot, MAX_NAME),
                 "plugin": clip(host.meta.plugin, MAX_NAME),
                 "version": clip(host.meta.version, MAX_NAME), "host": host.kind}
                for seat, host in enumerate(hosts)
            ],
            "limits": dict(self.limits),
            "deals": self.deals,
            "scores": list(match.scores),
            "ranking": match.ranking(),
            "decisions": decisions,
            "wall_s": round(time.perf_counter() - wall0, 4),
            "arena_version": __version__,
        }


restore_docstrings({"RecordBuilder": RecordBuilder})  # compiled, the class has lost its docstring
