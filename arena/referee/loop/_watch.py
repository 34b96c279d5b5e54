"""The public events of a match in play, for a spectator (the ``watch`` argument).

:class:`PublicFeed` looks at the match after every decision the loop settles and hands
``watch`` what every player at the table saw happen: the deal's start (card counts, roles),
the exchange's public part (who gave how many cards to whom, never which), each play and
pass with the cards it left, the pile cleared, a player out, a fault's seat and kind (never
its detail, which may quote a hand), the deal's end (finishing order, points, scores) and the
match's end. Hands, exchanged cards and seeds are never passed. The vocabulary is
docs/web.md's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.game import Deal, Match

    from .._spec import MatchSpec

__all__ = ["PublicFeed", "Watch"]

Watch = Callable[[Mapping[str, Any]], None]
"""What receives a match's public events, one mapping per event, as they happen."""


class PublicFeed:
    """Turns the changes of ``match`` into public events for ``watch``."""

    def __init__(self, spec: MatchSpec, match: Match, watch: Watch) -> None:
        self.match = match
        self.watch = watch
        self._deal: Deal | None = None
        self._moves = 0
        self._out: set[int] = set()
        self._returns: dict[int, int] = {}  # who gives back (the gift's receiver) -> to whom
        watch({"type": "match_start", "match": spec.match_id, "labels": spec.labels,
               "rounds": spec.rules.rounds, "players": match.players})
        self._new_deal()

    def _new_deal(self) -> None:
        match, deal = self.match, self.match.deal
        self._deal, self._moves, self._out = deal, 0, set()
        players = match.players
        self.watch({"type": "deal_start", "deal": deal.number, "roles": list(match.roles),
                    "counts": [len(deal.dealt_hand(s)) for s in range(players)]})
        self._returns = {}
        if deal.number == 0:
            return
        order = match.summary(deal.number - 1)["finish_order"]
        for high, low, count in match.rules.exchange_pairs(players):
            giver, receiver = order[low], order[high]
            self._returns[receiver] = giver
            self.watch({"type": "exchange", "deal": deal.number, "from": giver,
                        "to": receiver, "count": count, "kind": "gift"})

    def returned(self, seat: int, count: int) -> None:
        """``seat`` gave back ``count`` cards of the exchange."""
        deal = self._deal
        assert deal is not None
        self.watch({"type": "exchange", "deal": deal.number, "from": seat,
                    "to": self._returns.get(seat), "count": count, "kind": "return"})

    def fault(self, seat: int, kind: str, stage: str) -> None:
        """``seat`` was charged a fault of ``kind`` (its detail stays in the record)."""
        deal = self._deal
        assert deal is not None
        self.watch({"type": "fault", "deal": deal.number, "seat": seat, "kind": kind,
                    "stage": stage})

    def after(self) -> None:
        """Tell what the last settled decision changed."""
        deal, match = self._deal, self.match
        assert deal is not None
        watch = self.watch
        moves = deal.moves
        grew = len(moves) > self._moves
        if grew:
            number = deal.number
            for seat, move in moves[self._moves:]:
                watch({"type": "move", "deal": number, "seat": seat, "move": move.text,
                       "left": deal.card_count(seat)})
            self._moves = len(moves)
        out = self._out
        places = deal.places
        if len(places) - places.count(None) > len(out):  # a seat is out since the last look
            for place, taken in enumerate(places):
                if taken is not None and taken not in out:
                    out.add(taken)
                    watch({"type": "out", "deal": deal.number, "seat": taken, "place": place})
        if grew and not deal.finished and deal.pile is None:
            watch({"type": "clear", "deal": deal.number, "revolution": deal.revolution})
        if not deal.finished:
            return
        summary = match.summary(deal.number)
        watch({"type": "deal_end", "deal": deal.number, "finish_order": summary["finish_order"],
               "points": summary["points"], "scores": list(match.scores)})
        if match.finished:
            watch({"type": "match_end", "scores": list(match.scores),
                   "ranking": match.ranking()})
        else:
            self._new_deal()
