"""``expert``'s exact endgame: when two players hold cards, the hands are known and solved.

With only this seat and one other left holding cards, the other hand is every card not
yet seen, so the position is one of perfect information with two outcomes: this seat
goes out first (the better of the two places left) or not. :func:`winning_move` searches
it to the end (an AND-OR search: some move of ours wins against every answer), with
the positions met memoised and the best-valued moves (:func:`bots._policy.move_values`)
tried first, and gives up past ``nodes`` positions.
"""

from __future__ import annotations

from collections.abc import Callable

from arena.game import Card, Deal, Move, View

from ._belief import known
from ._policy import move_values, rank_counts


class _Limit(Exception):
    """The search met more positions than it may."""


def two_left(view: View) -> int | None:
    """The other seat when exactly two seats, this one included, hold cards."""
    holding = [seat for seat, count in enumerate(view.counts) if count]
    if len(holding) != 2 or view.seat not in holding:
        return None
    return holding[0] if holding[1] == view.seat else holding[1]


def winning_move(view: View, nodes: int,
                 out_of_time: Callable[[], bool] | None = None) -> tuple[Move | None, int]:
    """A move that goes out before the last opponent whatever it plays, and the positions
    searched; ``None`` when the position is lost, not a two-player ending, or too big.

    ``out_of_time`` (checked every 64 positions) gives up as the limit does.
    Rules with a pass limit are left to the playouts (the position then depends on the
    passes since the last play, which the search does not count).
    """
    other = two_left(view)
    rules = view.rules
    if other is None or rules.pass_limit or view.to_move != view.seat:
        return None, 0
    facts = known(view)
    if len(facts.unseen) + len(facts.placed[other]) != view.counts[other]:
        return None, 0
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[other] = facts.placed[other] + facts.unseen
    return solve(Deal.from_view(view, hands), view.seat, other, nodes, out_of_time)


def solve(deal: Deal, me: int, other: int, nodes: int,
          out_of_time: Callable[[], bool] | None = None) -> tuple[Move | None, int]:
    """:func:`winning_move` on a deal whose two hands are known: ``me`` to move."""
    search = _Search(me, other, nodes, out_of_time)
    try:
        for move in search.ordered(deal):
            child = deal.copy()
            child.play(move)
            if search.wins(child):
                return move, search.count
    except _Limit:
        return None, search.count
    return None, search.count


class _Search:
    def __init__(self, me: int, other: int, nodes: int,
                 out_of_time: Callable[[], bool] | None) -> None:
        self.out_of_time = out_of_time
        self.me = me
        self.other = other
        self.limit = nodes
        self.count = 0
        self.memo: dict[tuple[object, ...], bool] = {}

    def ordered(self, deal: Deal) -> list[Move]:
        moves = deal.legal_moves()
        seat = deal.to_move
        assert seat is not None
        mask = 0
        held = 0
        for card in deal.hand(seat):
            held += 1
            if not card.is_joker:
                mask |= 1 << card.index
        values = move_values(deal.rules, moves, rank_counts(mask), held, deal.revolution)
        order = sorted(range(len(moves)), key=lambda i: -values[i])
        return [moves[i] for i in order]

    def wins(self, deal: Deal) -> bool:
        """Whether this seat goes out first from ``deal`` against every answer."""
        if not deal.card_count(self.me):
            return True
        if not deal.card_count(self.other) or deal.finished:
            return False
        key = (tuple(str(c) for c in deal.hand(self.me)),
               tuple(str(c) for c in deal.hand(self.other)),
               None if deal.pile is None else str(deal.pile), deal.revolution, deal.to_move,
               deal.last_player, deal.passed(self.me), deal.passed(self.other),
               deal.sits_out(self.me), deal.sits_out(self.other), deal.lock)
        known_ = self.memo.get(key)
        if known_ is not None:
            return known_
        self.count += 1
        if self.count > self.limit or (
                self.out_of_time is not None and not self.count % 64 and self.out_of_time()):
            raise _Limit
        mine = deal.to_move == self.me
        result = not mine
        for move in self.ordered(deal):
            child = deal.copy()
            child.play(move)
            if self.wins(child) == mine:
                result = mine
                break
        self.memo[key] = result
        return result
