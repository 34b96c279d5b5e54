"""A match: ``rounds`` deals at one table, with roles, the card exchange and scoring.

The match is a state machine that asks for one decision at a time (:attr:`Match.pending`):
an exchange return or a move. The referee answers it with :meth:`Match.give`,
:meth:`Match.play` or, when a bot fails, :meth:`Match.fault`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from ._cards import Card, cards_of, parse_hand
from ._deal import Deal, IllegalMove, as_move
from ._moves import Move
from ._rules import Rules
from ._state import DealContext
from ._view import View

PRESIDENT: Final = "president"
VICE_PRESIDENT: Final = "vice-president"
VICE_SCUM: Final = "vice-scum"
SCUM: Final = "scum"

FAULT_KINDS: Final[tuple[str, ...]] = ("timeout", "crash", "illegal", "malformed")
"""Every fault kind, as written in records: ``timeout`` (no answer in time), ``crash``
(the process died or the bot's code raised), ``illegal`` (a well-formed move the rules
refuse), ``malformed`` (an answer that is not a move at all)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the match waits for.

    ``kind`` is ``"exchange"`` (give back ``count`` cards) or ``"play"`` (make a move).
    """

    kind: str
    seat: int
    count: int = 0

    def __reduce__(self) -> tuple[object, tuple[str, int, int]]:
        # For copies and pickles: a compiled dataclass has no blank instance to fill.
        return (Decision, (self.kind, self.seat, self.count))


# The play decisions, one per seat: ``Match.pending`` hands these out instead of making one
# at every move (decisions are immutable, so sharing them is safe).
_PLAYS: Final[tuple[Decision, ...]] = tuple(Decision("play", seat) for seat in range(8))
_EXCHANGES: Final[dict[int, Decision]] = {}
"""The exchange decisions handed out so far, by ``count << 3 | seat``: shared likewise."""


def _exchange(seat: int, count: int) -> Decision:
    key = count << 3 | seat
    decision = _EXCHANGES.get(key)
    if decision is None:
        decision = _EXCHANGES[key] = Decision("exchange", seat, count)
    return decision


def _strength(card: Card) -> int:
    # Exchange order: jokers highest, then rank in the normal order, then S > H > D > C,
    # which is the order of the cards' indices (rank * 4 + suit, jokers 52).
    return card.index


def highest_cards(hand: Iterable[Card], count: int) -> list[Card]:
    """The ``count`` highest cards of ``hand`` in the exchange order (docs/rules.md section 7)."""
    return sorted(hand, key=_strength, reverse=True)[:count]


def lowest_cards(hand: Iterable[Card], count: int) -> list[Card]:
    """The ``count`` lowest cards of ``hand`` in the exchange order."""
    return sorted(hand, key=_strength)[:count]


def roles_for(order: list[int], players: int) -> list[str | None]:
    """Roles by seat from a finishing order (best first)."""
    roles: list[str | None] = [None] * players
    roles[order[0]] = PRESIDENT
    roles[order[-1]] = SCUM
    if players >= 4:
        roles[order[1]] = VICE_PRESIDENT
        roles[order[-2]] = VICE_SCUM
    return roles


class Match:
    """One match between ``players`` seats, reproducible from ``seed``."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Match:
        # ``copy.deepcopy`` and pickle make a blank match and fill in its state: a compiled
        # class allows that only through a __new__ of its own (its default one runs
        # __init__, which needs the rules).
        return object.__new__(cls)

    def __init__(self, rules: Rules, players: int, seed: int) -> None:
        if not isinstance(players, int) or not 2 <= players <= 8:
            raise ValueError(f"a table has 2 to 8 players, not {players!r}")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.points = rules.points_for(players)
        self._pairs = rules.exchange_pairs(players)
        self.scores = [0] * players
        self.roles: list[str | None] = [None] * players
        self._summaries: list[dict[str, Any]] = []  # per finished deal, "moves": None
        self._ended: list[Deal] = []  # the finished deals, whose moves the entries list
        self._history: list[dict[str, Any]] = []
        self._totals: list[tuple[int, ...]] = []  # scores after each finished deal
        self.deal_number = 0
        self.finished = False
        self._last_places: list[int] = []
        self._returns: list[tuple[int, int, int]] = []  # (giver back, receiver, count)
        self._exchanges: list[dict[str, Any]] = []
        self._exchanged: list[tuple[list[Card], list[Card]]] = []
        self._faults: list[dict[str, Any]] = []
        self._forfeit_at_start: list[int] = []
        self._leader = 0
        self.deal = self._start_deal()

    # ------------------------------------------------------------------ state

    @property
    def pending(self) -> Decision | None:
        """The decision the match waits for, ``None`` once it is finished."""
        if self.finished:
            return None
        if self._returns:
            seat, _, count = self._returns[0]
            return _exchange(seat, count)
        to_move = self.deal.to_move
        assert to_move is not None
        return _PLAYS[to_move]

    def view(self, seat: int) -> View:
        """What ``seat`` sees now."""
        return self.deal.view(seat)

    @property
    def history(self) -> list[dict[str, Any]]:
        """One entry per finished deal, as plain data: ``deal``, ``seed``, ``hands`` (as
        dealt), ``roles``, ``exchanges``, ``leader``, ``moves``, ``faults``, ``forfeits``,
        ``finish_order``, ``points``.

        Entries are built when first read, so a referee that records the moves its own
        way (:meth:`summary`) never pays for them.
        """
        history = self._history
        for number in range(len(history), len(self._summaries)):
            entry = dict(self._summaries[number])
            entry["moves"] = [{"seat": s, "move": m.text} for s, m in self._ended[number].moves]
            history.append(entry)
        return history

    def summary(self, number: int = -1) -> dict[str, Any]:
        """A copy of the :attr:`history` entry of finished deal ``number`` (default: the
        last) without its moves: ``"moves"`` is None, in its place among the keys. For a
        caller that writes the moves its own way (the referee adds think times)."""
        return dict(self._summaries[number])

    def ranking(self) -> list[int]:
        """Seats best first: by total points, ties by the better place in the last deal."""
        last = {seat: place for place, seat in enumerate(self._last_places)}
        return sorted(range(self.players), key=lambda s: (-self.scores[s], last.get(s, 0)))

    def result_for(self, seat: int, number: int = -1) -> dict[str, Any]:
        """What ``seat`` may know of a finished deal (default: the last one).

        The public part of the deal's :attr:`history` entry: roles, leader, every move,
        faults, forfeits, the finishing order and the points; of the hidden part only the
        seat's own dealt hand and the exchanges it took part in. Never another player's hand.
        """
        entry = self.history[number]
        return {
            "deal": entry["deal"],
            "seat": seat,
            "hand": list(entry["hands"][seat]),
            "roles": list(entry["roles"]),
            "exchanges": [dict(e) for e in entry["exchanges"] if seat in (e["from"], e["to"])],
            "leader": entry["leader"],
            "moves": [dict(m) for m in entry["moves"]],
            "faults": [{"seat": f["seat"], "kind": f["kind"], "move": f["move"]}
                       for f in entry["faults"]],
            "forfeits": [dict(f) for f in entry["forfeits"]],
            "finish_order": list(entry["finish_order"]),
            "points": list(entry["points"]),
            "scores": list(self._totals[number]),
        }

    # ------------------------------------------------------------------ answers

    def play(self, move: Move | str) -> Move:
        """Play for the seat to move; raises :class:`IllegalMove`. Returns the move played."""
        if self.finished or self._returns:  # what ``pending`` says, without making a Decision
            raise IllegalMove("no move is expected now" if self.finished
                              else "an exchange is expected now, not a move")
        if move.__class__ is not Move:
            move = as_move(move)
        deal = self.deal
        deal.play(move)
        if deal.finished:
            self._after_play()
        return move

    def give(self, cards: Iterable[Card | str]) -> list[Card]:
        """Answer a pending exchange: the cards given back. Raises :class:`IllegalMove`."""
        decision = self.pending
        if decision is None or decision.kind != "exchange":
            raise IllegalMove("no exchange is expected now")
        try:
            items = list(cards)
            mask, _, jokers = parse_hand(items)
        except (TypeError, ValueError) as error:
            raise IllegalMove(f"not a list of cards: {error}") from None
        given = cards_of(mask, jokers)
        if len(given) != decision.count:
            raise IllegalMove(f"give back exactly {decision.count} card(s), not {len(given)}")
        self._settle_return(given)
        return given

    def fault(self, kind: str, detail: str = "") -> None:
        """The seat of the pending decision failed; apply ``rules.on_fault``."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; known: {', '.join(FAULT_KINDS)}")
        decision = self.pending
        if decision is None:
            raise ValueError("no decision is pending")
        self._faults.append({"seat": decision.seat, "kind": kind,
                             "move": len(self.deal.moves), "detail": detail,
                             "stage": decision.kind})
        if decision.kind == "exchange":
            # Recorded first: settling the last return begins the deal, which applies it.
            if self.rules.on_fault == "forfeit":
                self._forfeit_at_start.append(decision.seat)
            pick = highest_cards if self.rules.exchange_fault == "highest" else lowest_cards
            self._settle_return(pick(self.deal.hand(decision.seat), decision.count))
            return
        if self.rules.on_fault == "forfeit":
            self.deal.forfeit(decision.seat)
        elif self.deal.pile is None and not self.rules.lead_pass:
            self.deal.play(self._lowest_single(decision.seat))
        else:
            self.deal.play(Move.PASS)
        self._after_play()

    # ------------------------------------------------------------------ internals

    def _lowest_single(self, seat: int) -> Move:
        singles = [m for m in self.deal.legal_moves() if m.kind == "set" and m.size == 1]
        naturals = [m for m in singles if m.rank is not None]
        if not naturals:
            return singles[0]
        pick = max if self.deal.revolution else min
        return pick(naturals, key=lambda m: (m.rank, -m.mask if self.deal.revolution else m.mask))

    def _start_deal(self) -> Deal:
        number = self.deal_number
        deal = Deal.dealt(self.rules, self.players, self.seed, number)
        self.deal = deal
        self._exchanges = []
        self._exchanged = [([], []) for _ in range(self.players)]
        self._faults = []
        self._forfeit_at_start = []
        self._returns = []
        if number == 0:
            self.roles = [None] * self.players
            self._leader = deal.holder(Card.parse(self.rules.opening_card))
        else:
            order = self._last_places
            self.roles = roles_for(order, self.players)
            self._leader = order[-1]
            for high, low, count in self._pairs:
                receiver, giver = order[high], order[low]
                # highest_cards of a sorted hand: its last cards, highest first.
                gift = deal.hand(giver)[::-1][:count]
                deal.transfer(giver, receiver, gift)
                self._record_exchange(giver, receiver, gift, "gift")
                self._returns.append((receiver, giver, count))
        self._set_context()
        if not self._returns:
            self._begin_play()
        return deal

    def _set_context(self) -> None:
        self.deal.set_context(DealContext(self.roles, self.scores, self._exchanged))

    def _record_exchange(self, giver: int, receiver: int, cards: list[Card], kind: str) -> None:
        self._exchanges.append({"from": giver, "to": receiver, "cards": [str(c) for c in cards],
                                "kind": kind})
        self._exchanged[giver][0].extend(cards)
        self._exchanged[receiver][1].extend(cards)

    def _settle_return(self, cards: list[Card]) -> None:
        giver, receiver, _ = self._returns[0]
        self.deal.transfer(giver, receiver, cards)
        self._returns.pop(0)
        self._record_exchange(giver, receiver, cards, "return")
        self._set_context()  # the views show what each seat gave and received so far
        if not self._returns:
            self._begin_play()

    def _begin_play(self) -> None:
        deal = self.deal
        if not self.rules.scum_leads:  # the holder of the opening card, after the exchange
            self._leader = deal.holder(Card.parse(self.rules.opening_card))
        deal.begin(self._leader)
        for seat in self._forfeit_at_start:
            if not deal.finished and deal.card_count(seat):
                deal.forfeit(seat)
        self._after_play()

    def _after_play(self) -> None:
        deal = self.deal
        if not deal.finished:
            return
        places = deal.finish_order
        points = [0] * self.players
        for place, seat in enumerate(places):
            points[seat] = self.points[place]
            self.scores[seat] += self.points[place]
        self._ended.append(deal)
        self._summaries.append({
            "deal": deal.number,
            "seed": deal.seed,
            "hands": [deal.dealt_texts(s) for s in range(self.players)],
            "roles": list(self.roles),
            "exchanges": self._exchanges,
            "leader": self._leader,
            "moves": None,
            "faults": self._faults,
            "forfeits": [{"seat": s, "move": i} for s, i in deal.forfeits],
            "finish_order": places,
            "points": points,
        })
        self._totals.append(tuple(self.scores))
        self._last_places = places
        self.deal_number += 1
        if self.deal_number >= self.rules.rounds:
            self.finished = True
            self._set_context()
            return
        self.deal = self._start_deal()
