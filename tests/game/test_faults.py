"""docs/rules.md section 9: the consequences of a fault (`on_fault`), through `Deal.forfeit` and
`Match.fault`. Detecting faults is the referee's business; applying them is the rules'."""

from __future__ import annotations

import random

import pytest

from arena.game import Deal, Match, Move, Rules

from .helpers import bottom_cards, drive, move, names, play

FOUR = [["3C", "9C", "TC"], ["4C", "9D", "TD"], ["5C", "9H", "TH"], ["6C", "9S", "TS"]]


def _finish(deal: Deal) -> None:
    while not deal.finished:
        plays = [m for m in deal.legal_moves() if m != Move.PASS]
        deal.play(plays[0] if plays else Move.PASS)


def test_on_fault_defaults_to_forfeit_and_is_forfeit_or_pass() -> None:
    """Rule: "Option `on_fault` decides the consequence: `forfeit` (default) ... `pass`"."""
    assert Rules().on_fault == "forfeit"
    assert Rules(on_fault="pass").on_fault == "pass"
    with pytest.raises(ValueError, match="on_fault"):
        Rules(on_fault="explode")


def test_forfeit_the_player_is_out_of_the_deal_at_once_and_its_cards_leave_play() -> None:
    """Rule: "`forfeit` (default): the player is out of the deal at once, its cards leave
    play"."""
    deal = Deal.from_hands(Rules(), FOUR, 0)
    deal.forfeit(1)
    assert deal.hand(1) == []
    seen = deal.view(0).to_dict()["players"][1]
    assert seen["cards"] == 0 and seen["out"] is True
    deal.play("3C")
    assert deal.to_move == 2  # seat 1 is skipped
    _finish(deal)
    assert 1 not in [s for s, _ in deal.moves]


def test_forfeit_takes_the_worst_place_still_free() -> None:
    """Rule: "It takes the worst place still free"."""
    deal = Deal.from_hands(Rules(), FOUR, 0)
    deal.forfeit(2)
    _finish(deal)
    assert len(deal.finish_order) == 4 and deal.finish_order[-1] == 2


def test_a_later_forfeit_takes_the_better_of_the_places_still_free() -> None:
    """Rule: "(a later forfeit takes the better of the places still free)"."""
    deal = Deal.from_hands(Rules(), FOUR, 0)
    deal.forfeit(2)
    deal.play("3C")
    deal.forfeit(0)
    _finish(deal)
    assert deal.finish_order[-2:] == [0, 2]
    assert sorted(deal.finish_order) == [0, 1, 2, 3]


def test_a_forfeit_after_players_went_out_leaves_the_top_places_to_them() -> None:
    """Rule: the forfeiting player "takes the worst place still free"; places already taken stay."""
    deal = Deal.from_hands(Rules(), [["3C"], ["4C", "9D", "TD"], ["5C", "9H", "TH"]], 0)
    deal.play("3C")
    assert deal.finish_order == [0]
    deal.forfeit(1)
    # one player is left holding cards: it takes the last free place, 2nd
    assert deal.finished
    assert deal.finish_order == [0, 2, 1]


def test_forfeit_of_the_player_to_move_passes_the_turn_on() -> None:
    """Rule: "The player is out of the deal at once": the next player holding cards moves."""
    deal = Deal.from_hands(Rules(), FOUR, 0)
    deal.forfeit(0)
    assert deal.to_move == 1 and deal.pile is None
    assert Move.PASS not in deal.legal_moves()
    deal = Deal.from_hands(Rules(), FOUR, 0)
    deal.play("3C")
    deal.forfeit(1)
    assert deal.to_move == 2 and deal.pile == move("3C")


def test_forfeit_by_the_last_player_of_a_trick_hands_the_lead_to_the_next_holder() -> None:
    """Rules: the forfeiting player is "out of the deal at once"; a trick whose last player is out
    is led by "the next player after that player in seat order who still holds cards"."""
    deal = Deal.from_hands(Rules(), [["3C", "9C", "TC"], ["4C", "9D", "TD"], ["5C", "9H"]], 0)
    play(deal, "3C", "pass")
    deal.forfeit(0)
    assert deal.to_move == 2
    deal.play("pass")
    assert deal.to_move == 1 and deal.pile is None


def test_a_forfeit_that_leaves_one_player_holding_cards_ends_the_deal() -> None:
    """Rules: "When one player is left holding cards, they take last place" (here the last place
    still free) "and the deal ends"."""
    deal = Deal.from_hands(Rules(), [["3C", "9C"], ["4C", "9D"]], 0)
    deal.forfeit(0)
    assert deal.finished and deal.finish_order == [1, 0] and deal.to_move is None
    deal = Deal.from_hands(Rules(), [["3C", "9C"], ["4C", "9D"], ["5C", "9H"]], 0)
    deal.forfeit(2)
    deal.forfeit(0)
    assert deal.finished and deal.finish_order == [1, 0, 2]


def test_match_fault_with_forfeit_puts_the_pending_seat_out_at_its_worst_free_place() -> None:
    """Rule: "`forfeit` (default): the player is out of the deal at once ... worst place"."""
    m = Match(Rules(rounds=1), 4, 3)
    seat = m.pending.seat
    m.fault("timeout", "no answer in 1000 ms")
    assert m.deal.hand(seat) == []
    assert m.pending.seat != seat
    drive(m)
    d0 = m.history[0]
    assert d0["finish_order"][-1] == seat
    assert [(f["seat"], f["kind"]) for f in d0["faults"]] == [(seat, "timeout")]
    assert m.scores[seat] == 0


def test_match_fault_with_pass_counts_as_a_pass_when_following() -> None:
    """Rule: "`pass`: the move counts as a pass"."""
    m = Match(Rules(rounds=1, on_fault="pass"), 4, 6)
    m.play(m.view(m.pending.seat).legal_moves()[0])
    seat = m.pending.seat
    count = len(m.deal.hand(seat))
    m.fault("crash")
    assert m.deal.moves[-1] == (seat, Move.PASS)
    assert len(m.deal.hand(seat)) == count


def test_match_fault_with_pass_plays_the_lowest_single_when_it_must_lead() -> None:
    """Rule: "`pass`: the move counts as a pass, or as its lowest single when it must lead"."""
    m = Match(Rules(rounds=3, on_fault="pass"), 4, 10)
    seat = m.pending.seat
    m.fault("malformed")
    assert m.deal.moves[-1] == (seat, move("3C"))  # the 3C is the lowest card there is
    leads = 0
    while m.pending is not None and leads < 6:
        decision = m.pending
        if decision.kind == "play" and m.deal.pile is None and not m.deal.revolution:
            hand = m.deal.hand(decision.seat)
            naturals = [c for c in hand if not c.is_joker]
            number = m.deal_number
            m.fault("illegal")
            if m.deal_number != number:
                continue  # the single ended the deal; its moves are in the history
            seat_moved, played = m.deal.moves[-1]
            assert seat_moved == decision.seat
            assert played.kind == "set" and len(played) == 1
            assert played.rank == min(c.rank for c in naturals)
            leads += 1
        elif decision.kind == "exchange":
            m.give(bottom_cards(m.view(decision.seat).hand, decision.count))
        else:
            m.play(m.view(decision.seat).legal_moves()[-1])
    assert leads >= 3


@pytest.mark.parametrize("on_fault", ["pass", "forfeit"])
def test_a_fault_in_the_exchange_gives_the_players_lowest_cards(on_fault: str) -> None:
    """Rule: "... and the exchange gives its lowest cards" (and with `forfeit` the player then
    leaves the deal once it begins)."""
    m = Match(Rules(rounds=2, on_fault=on_fault), 4, 21)
    drive(m, stop_after_deal=0)
    pres = m.pending.seat
    scum = m.history[0]["finish_order"][-1]
    hand = list(m.view(pres).hand)
    scum_before = names(m.deal.hand(scum))
    m.fault("timeout")
    given = bottom_cards(hand, 2)
    assert names(m.deal.hand(scum)) == sorted(scum_before + given)
    drive(m)
    d1 = m.history[1]
    returns = [e for e in d1["exchanges"] if e["kind"] == "return" and e["from"] == pres]
    assert [names(e["cards"]) for e in returns] == [given]
    assert [(f["seat"], f["kind"]) for f in d1["faults"]] == [(pres, "timeout")]
    if on_fault == "forfeit":
        assert d1["finish_order"][-1] == pres
        assert all(mv["seat"] != pres for mv in d1["moves"])


@pytest.mark.parametrize("kind", ["timeout", "crash", "illegal", "malformed"])
def test_every_fault_is_recorded_with_its_kind(kind: str) -> None:
    """Rule: "Every fault is recorded with its kind."""
    for on_fault in ("forfeit", "pass"):
        m = Match(Rules(rounds=1, on_fault=on_fault), 3, 4)
        first = m.pending.seat
        m.fault(kind, "detail text")
        second = m.pending.seat
        m.fault(kind)
        drive(m)
        faults = m.history[0]["faults"]
        assert [(f["seat"], f["kind"]) for f in faults] == [(first, kind), (second, kind)]
        assert faults[0]["detail"] == "detail text"


def test_an_unknown_fault_kind_is_a_value_error() -> None:
    """Faults are of four kinds: "times out, crashes, sends a malformed message or an illegal
    move"."""
    m = Match(Rules(rounds=1), 3, 4)
    with pytest.raises(ValueError):
        m.fault("sneezed")


@pytest.mark.parametrize(("players", "exchange"), [(3, [2, 1]), (4, [2, 1]), (2, [1])])
def test_a_forfeit_fault_in_the_last_exchange_return_gives_lowest_cards_then_forfeits(
    players: int, exchange: list[int]
) -> None:
    """Rule: "the exchange gives its lowest cards" and under `forfeit` "the player is out of the
    deal at once": also when the faulting return is the last one of the exchange."""
    m = Match(Rules(rounds=2, exchange=exchange), players, 0)
    drive(m, stop_after_deal=0)
    pairs = sum(1 for i in range(len(exchange)) if i < players - 1 - i)
    for _ in range(pairs - 1):  # answer every return but the last
        m.give(bottom_cards(m.view(m.pending.seat).hand, m.pending.count))
    assert m.pending.kind == "exchange"
    seat = m.pending.seat
    hand = list(m.view(seat).hand)
    m.fault("timeout")
    if players > 2:
        assert m.pending is not None and m.pending.kind == "play"
        assert m.deal.hand(seat) == []
    # with 2 players the other one is left alone holding cards: the deal ends at once
    drive(m)
    d1 = m.history[1]
    assert d1["finish_order"][-1] == seat
    returns = [e for e in d1["exchanges"] if e["kind"] == "return" and e["from"] == seat]
    assert [names(e["cards"]) for e in returns] == [bottom_cards(hand, len(returns[0]["cards"]))]


def test_a_pass_fault_on_a_lead_plays_the_weakest_single_in_the_order_in_force() -> None:
    """Rule: "`pass`: the move counts ... as its lowest single when it must lead" (docs/rules.md:
    "the weakest single in the order in force"): during a revolution, the highest rank."""
    checked = 0
    for seed in range(60):
        m = Match(Rules(rounds=1, on_fault="pass", revolution=True), 4, seed)
        rng = random.Random(seed)
        while m.pending is not None:
            decision = m.pending
            deal = m.deal
            if deal.pile is None and deal.revolution:
                naturals = [c.rank for c in deal.hand(decision.seat) if not c.is_joker]
                m.fault("timeout")
                seat, played = deal.moves[-1]
                assert seat == decision.seat and played.kind == "set" and len(played) == 1
                assert played.rank == max(naturals)
                checked += 1
                continue
            legal = m.view(decision.seat).legal_moves()
            fours = [mv for mv in legal if len(mv) == 4]
            m.play(fours[0] if fours else rng.choice(legal))
        if checked >= 3:
            break
    assert checked >= 3
