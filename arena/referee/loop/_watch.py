"""The public events of a match in play, for a spectator (the ``watch`` argument).

:class:`PublicFeed` looks at the match after every decision the loop settles and hands
``watch`` what every player at the table saw happen: the deal's start (card counts, roles),
the exchange's public part (who gave how many cards to whom, never which), each play and
pass with the cards it left, the pile cleared, a player out, a fault's seat and kind (never
its detail, which may quote a hand), the deal's end (finishing order, points, scores) and the
match's end. Hands, exchanged cards and seeds are never passed. The vocabulary is
docs/web.md's.

A ``watch`` with a ``listening()`` method is told the play of a deal only once it listens:
until then the feed tells it the deals' starts, exchanges and ends alone and keeps a copy of
the current deal as its play began, one look a decision; the first decision settled while it
listens, the current deal's moves so far are replayed on that copy and told in order (the
events a page needs to draw the match now), and from then on every event as it happens. A
match nobody listens to (a short match of fast bots, over before a server could have shown
it) costs its spectators' events next to nothing.
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
        self._listening: Callable[[], bool] | None = getattr(watch, "listening", None)
        self._began: Deal | None = None  # not listened to: the current deal as play began
        self._faults: list[tuple[int, dict[str, Any]]] = []  # not told yet: at which move
        watch({"type": "match_start", "match": spec.match_id, "labels": spec.labels,
               "rounds": spec.rules.rounds, "players": match.players})
        self._new_deal()

    def _new_deal(self) -> None:
        match, deal = self.match, self.match.deal
        self._deal, self._moves, self._out = deal, 0, set()
        self._faults = []
        if self._listening is not None:
            self._began = deal.copy()
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
        event = {"type": "fault", "deal": deal.number, "seat": seat, "kind": kind,
                 "stage": stage}
        if self._listening is not None and deal.moves:  # told with the moves around it
            self._faults.append((len(deal.moves), event))
        else:
            self.watch(event)

    def after(self) -> None:
        """Tell what the last settled decision changed."""
        deal, match = self._deal, self.match
        assert deal is not None
        listening = self._listening
        if listening is not None:
            if not listening():
                if not deal.moves:  # play has not begun: the copy the moves replay on
                    self._began = deal.copy()
                elif deal.finished:
                    self._deal_end(deal, match)
                return
            self._listening = None
            self._replay(deal)
        watch = self.watch
        moves = deal.moves
        grew = len(moves) > self._moves
        if grew:
            number = deal.number
            for seat, move in moves[self._moves:]:
                watch({"type": "move", "deal": number, "seat": seat, "move": move.text,
                       "left": deal.card_count(seat)})
            self._moves = len(moves)
        self._tell_out(deal)
        if grew and not deal.finished and deal.pile is None:
            watch({"type": "clear", "deal": deal.number, "revolution": deal.revolution})
        if deal.finished:
            self._deal_end(deal, match)

    def _tell_out(self, deal: Deal) -> None:
        """The seats out since the last look, in their places' order."""
        out = self._out
        places = deal.places
        if len(places) - places.count(None) > len(out):  # a seat is out since the last look
            for place, taken in enumerate(places):
                if taken is not None and taken not in out:
                    out.add(taken)
                    self.watch({"type": "out", "deal": deal.number, "seat": taken,
                                "place": place})

    def _deal_end(self, deal: Deal, match: Match) -> None:
        summary = match.summary(deal.number)
        self.watch({"type": "deal_end", "deal": deal.number,
                    "finish_order": summary["finish_order"], "points": summary["points"],
                    "scores": list(match.scores)})
        if match.finished:
            self.watch({"type": "match_end", "scores": list(match.scores),
                        "ranking": match.ranking()})
        else:
            self._new_deal()

    def _replay(self, deal: Deal) -> None:
        """Tell the current deal's play so far, as it was told had someone listened: its
        moves replayed on the copy made as its play began, with the faults and forfeits at
        their places; its end, if it is over, follows (:meth:`after`)."""
        began, self._began = self._began, None
        if began is None:
            return
        watch, number = self.watch, deal.number
        faults = iter(self._faults)
        fault = next(faults, None)
        forfeits = deal.forfeits[len(began.forfeits):]
        self._tell_out(began)
        for at, (seat, move) in enumerate(deal.moves):
            while fault is not None and fault[0] == at:
                watch(fault[1])
                fault = next(faults, None)
            if any(moved == at for _, moved in forfeits):
                for forfeited, moved in forfeits:
                    if moved == at:
                        began.forfeit(forfeited)
                self._tell_out(began)
            began.play(move)
            watch({"type": "move", "deal": number, "seat": seat, "move": move.text,
                   "left": began.card_count(seat)})
            self._tell_out(began)
            if not began.finished and began.pile is None:
                watch({"type": "clear", "deal": number, "revolution": began.revolution})
        for _, event in [*([fault] if fault is not None else []), *faults]:
            watch(event)
        self._faults = []
        self._moves = len(deal.moves)
