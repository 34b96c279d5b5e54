"""Bots against each other for measuring, through the referee's one match loop.

The quickest way to compare strategies over many seeded deals, for bot
writers, tests and benchmarks: every seat is inline, so the referee plays
the match without an event loop, and a bot sees exactly what it sees in a
tournament (``bind``, ``start_match``, views, ``end_deal`` with
``match.result_for(seat)``), with the same per-seat random seeds.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.bot import Bot
from arena.game import Match, Rules
from arena.seeds import series

from ._limits import Limits
from ._referee import prepare_match, run_match
from ._spec import CopyLabels, MatchSpec, Seat
from .hosts._host import InlineHost
from .loop._drive_inline import play_inline

__all__ = ["Places", "compare", "play_bots", "play_on"]


def _inline(
    bots: Sequence[Bot], match_id: str, seed: int, rules: Rules, limits: Limits | None
) -> tuple[MatchSpec, list[InlineHost]]:
    """The spec and inline hosts of a match between bot objects, labelled by their names."""
    hosts = [InlineHost.from_bot(bot) for bot in bots]
    copies = CopyLabels()
    seats = tuple(Seat(copies(host.meta.bot), name=host.meta.ref) for host in hosts)
    spec = MatchSpec(match_id=match_id, seed=seed, rules=rules, limits=limits or Limits(),
                     seats=seats)
    return spec, hosts


def play_bots(
    bots: Sequence[Bot],
    rules: Rules,
    seed: int,
    *,
    match_id: str = "selfplay",
    limits: Limits | None = None,
) -> dict[str, Any]:
    """Play one match between bot objects (in seat order) and return its record.

    The bots run inline under ``limits`` (default :class:`Limits`); whatever
    they do is judged as in a tournament, so an illegal answer is a fault in
    the record (``record["deals"][i]["faults"]``), never an exception.
    """
    spec, hosts = _inline(bots, match_id, seed, rules, limits)
    return run_match(spec, hosts=hosts)


def play_on(
    match: Match,
    bots: Sequence[Bot],
    *,
    until_deal: int | None = None,
    limits: Limits | None = None,
) -> list[dict[str, Any]]:
    """Answer the decisions of ``match`` with inline ``bots`` until it is over, or until deal
    ``until_deal`` (0-based) has ended; return the records of the deals that ended.

    For reaching a position of a match you made (tests, analysis): the bots are started
    (``bind``, ``start_match``) and asked exactly as in a tournament, and what they answer
    wrong is a fault that ``match`` applies, found in the deals' ``faults``.
    """
    if match.pending is None or (until_deal is not None and match.deal_number > until_deal):
        return []
    spec, hosts = _inline(bots, "play-on", match.seed, match.rules, limits)
    loop, _ = prepare_match(spec, hosts, None, match)
    return list(play_inline(loop, hosts, until_deal)["deals"])


@dataclass
class Places:
    """Finishing places (1 = first out) of every deal, collected per bot name."""

    places: dict[str, list[int]] = field(default_factory=dict)
    deals: int = 0

    def mean(self, name: str) -> float:
        """The average finishing place of bot ``name`` over all its seats and deals."""
        return statistics.fmean(self.places[name])

    def summary(self) -> dict[str, float]:
        """Average place per bot name."""
        return {name: self.mean(name) for name in sorted(self.places)}


def compare(
    names: Sequence[str],
    rules: Rules,
    matches: int,
    seed: int = 0,
    limits: Limits | None = None,
) -> Places:
    """Play ``matches`` matches of the installed bots ``names`` and collect their places.

    Match ``k`` uses seed ``arena.seeds.series(seed, k)`` (``seed + k``) and
    turns the seats round by ``k`` places, so every bot plays from every seat
    equally often.
    """
    result = Places()
    players = len(names)
    for k in range(matches):
        order = [names[(seat + k) % players] for seat in range(players)]
        copies = CopyLabels()
        seats = tuple(Seat(copies(name), name=name) for name in order)
        spec = MatchSpec(match_id=f"selfplay-{k}", seed=series(seed, k), rules=rules,
                         limits=limits or Limits(), seats=seats)
        for deal in run_match(spec)["deals"]:
            for place, seat in enumerate(deal["finish_order"], start=1):
                result.places.setdefault(order[seat], []).append(place)
            result.deals += 1
    return result
