"""A view is a snapshot: what later play does to the match never changes it."""

from __future__ import annotations

from arena.game import Match, Rules


def _to_first_exchange(match: Match) -> None:
    while match.deal_number == 0:
        decision = match.pending
        assert decision is not None
        match.play(match.view(decision.seat).legal_moves()[0])


def test_an_exchange_view_does_not_change_when_the_return_is_given() -> None:
    match = Match(Rules(rounds=2), 4, 1)
    _to_first_exchange(match)
    decision = match.pending
    assert decision is not None and decision.kind == "exchange"
    view = match.view(decision.seat)
    before = (view.gave, view.received, view.hand, view.to_dict())
    given = match.give(view.hand[: decision.count])
    assert (view.gave, view.received, view.hand, view.to_dict()) == before
    assert match.view(decision.seat).gave == given


def test_a_play_view_does_not_change_when_play_goes_on() -> None:
    match = Match(Rules.preset("runs"), 4, 2)
    decision = match.pending
    assert decision is not None
    view = match.view(decision.seat)
    before = view.to_dict()
    for _ in range(6):
        seat = match.pending.seat  # type: ignore[union-attr]
        match.play(match.view(seat).legal_moves()[0])
    assert view.to_dict() == before
