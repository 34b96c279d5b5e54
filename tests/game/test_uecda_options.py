"""docs/rules.md section 12: the options of the UEC computer Daihinmin contest, and the
`uecda` preset of section 11."""

from __future__ import annotations

import pytest

from arena.game import Deal, IllegalMove, Match, Rules

from .helpers import assert_illegal, drive, move, play, top_cards

UECDA = Rules.preset("uecda")


def _deal(rules: Rules, hands: list[list[str]], leader: int = 0) -> Deal:
    return Deal.from_hands(rules, hands, leader)


# ---------------------------------------------------------------- runs_above


def test_runs_above_defaults_to_false() -> None:
    """Rule: "`runs_above` (default `false`)"."""
    assert Rules().runs_above is False
    assert Rules(runs=True).beats("6H 7H 8H", "5C 6C 7C")


def test_runs_above_a_run_beats_a_run_only_when_it_lies_entirely_above_it() -> None:
    """Rule: "a run beats a run only when its lowest card is above the highest card of the run
    on the pile"."""
    r = Rules(runs=True, jokers=1, runs_above=True, equal_beats=True)
    assert r.beats("8H 9H TH", "5C 6C 7C")
    assert not r.beats("7H 8H 9H", "5C 6C 7C")
    assert not r.beats("6H 7H 8H", "5C 6C 7C")
    assert r.beats("8H JK=9H TH", "5C 6C 7C")
    legal = r.legal_moves(["6H", "7H", "8H", "9H", "TH"], "5C 6C 7C")
    assert {str(m) for m in legal if m.kind == "run"} == {"8H 9H TH"}


def test_runs_above_during_a_revolution_a_run_must_lie_entirely_below() -> None:
    """Rule: "during a revolution, its highest card below the lowest card of the run on the
    pile"."""
    r = Rules(runs=True, revolution=True, runs_above=True)
    assert r.beats("3H 4H 5H", "6C 7C 8C", revolution=True)
    assert not r.beats("4H 5H 6H", "6C 7C 8C", revolution=True)
    legal = r.legal_moves(["3H", "4H", "5H", "6H"], "6C 7C 8C", revolution=True)
    assert {str(m) for m in legal if m.kind == "run"} == {"3H 4H 5H"}


# ---------------------------------------------------------------- run_revolution


def test_run_revolution_defaults_to_0_and_then_runs_never_start_a_revolution() -> None:
    """Rule: "`run_revolution` (default 0: runs never do)"."""
    assert Rules().run_revolution == 0
    assert not Rules(runs=True, revolution=True).starts_revolution("3H 4H 5H 6H 7H 8H 9H")


def test_run_revolution_a_run_of_that_many_cards_or_more_starts_a_revolution() -> None:
    """Rule: "with `revolution: true`, a run of this many cards or more also starts a
    revolution"."""
    r = Rules(runs=True, revolution=True, run_revolution=5)
    assert r.starts_revolution("3H 4H 5H 6H 7H")
    assert r.starts_revolution("3H 4H 5H 6H 7H 8H")
    assert not r.starts_revolution("3H 4H 5H 6H")
    assert not Rules(runs=True, run_revolution=5).starts_revolution("3H 4H 5H 6H 7H")
    deal = _deal(r, [["3H", "4H", "5H", "6H", "7H", "9C"], ["TD", "JD"]])
    deal.play("3H 4H 5H 6H 7H")
    assert deal.revolution


# ---------------------------------------------------------------- suit_lock


def test_suit_lock_defaults_to_false() -> None:
    """Rule: "`suit_lock` (default `false`)"."""
    assert Rules().suit_lock is False
    deal = _deal(Rules(), [["5H", "AC"], ["6H", "KC"], ["7C", "QC"]])
    play(deal, "5H", "6H", "7C")
    assert deal.lock == ""


def test_suit_lock_two_plays_in_a_row_on_the_same_suits_lock_the_trick() -> None:
    """Rule: "two plays in a row in a trick on the same suits lock the trick to those suits:
    every later play of the trick must stand on them"."""
    r = Rules(suit_lock=True)
    deal = _deal(r, [["5H", "8C", "AC"], ["6H", "9H", "KC"], ["7C", "7H", "QC"]])
    play(deal, "5H", "6H")
    assert deal.lock == "H"
    assert_illegal(deal, "7C", 3)
    assert move("7C") not in deal.legal_moves()
    deal.play("7H")
    pairs = _deal(r, [["5H", "5S", "AC"], ["6H", "6S", "KC"], ["7C", "7H", "7S", "QC"]])
    play(pairs, "5H 5S", "6H 6S")
    assert pairs.lock == "HS"
    assert_illegal(pairs, "7C 7H", 3)
    pairs.play("7H 7S")


def test_suit_lock_passes_between_the_two_plays_do_not_count() -> None:
    """Rule: "(passes between them do not count)"."""
    r = Rules(suit_lock=True)
    deal = _deal(r, [["5H", "AC"], ["6C", "KC"], ["7H", "QC"]])
    play(deal, "5H", "pass", "7H")
    assert deal.lock == "H"


def test_suit_lock_plays_on_different_suits_do_not_lock() -> None:
    """Only plays "on the same suits" lock."""
    r = Rules(suit_lock=True)
    deal = _deal(r, [["5H", "AC"], ["6C", "KC"], ["7H", "QC"]])
    play(deal, "5H", "6C", "7H")
    assert deal.lock == ""


def test_suit_lock_a_run_stands_on_its_suit() -> None:
    """Rule: "A run stands on its suit"."""
    r = Rules(suit_lock=True, runs=True)
    deal = _deal(r, [["3S", "4S", "5S", "AC"], ["6S", "7S", "8S", "KC"],
                     ["9C", "TC", "JC", "9S", "TS", "JS"]])
    play(deal, "3S 4S 5S", "6S 7S 8S")
    assert deal.lock == "S"
    assert_illegal(deal, "9C TC JC", 3)
    deal.play("9S TS JS")


def test_suit_lock_a_joker_in_a_set_takes_a_free_suit_of_the_previous_play() -> None:
    """Rule: "A joker in a set takes a suit of the previous play that its natural cards leave
    free, else the lowest free suit"."""
    r = Rules(suit_lock=True, jokers=1)
    deal = _deal(r, [["5H", "5S", "AC"], ["6S", "JK", "KC"], ["7C", "7D", "7H", "7S"]])
    play(deal, "5H 5S", "6S JK")
    assert deal.lock == "HS"
    assert_illegal(deal, "7C 7D", 3)
    assert move("7H JK") in r.legal_moves(["7H", "JK"], "6S JK", lock="HS")
    assert move("7C JK") not in r.legal_moves(["7C", "JK"], "6S JK", lock="HS")


def test_suit_lock_a_declared_joker_stands_on_its_suit_and_may_avoid_a_lock() -> None:
    """Rule: "A joker in a set whose suit is declared (`6S JK=6C`) stands on that suit": a
    declared suit other than the previous play's does not lock; the previous play's does."""
    r = Rules(suit_lock=True, jokers=1)
    hands = [["5H", "5S", "AC"], ["6S", "JK", "KC"], ["7C", "7D", "7H", "7S"]]
    free = _deal(r, hands)
    play(free, "5H 5S", "6S JK=6C")
    assert free.lock == "" and free.pile == move("6S JK=6C")
    free.play("7C 7D")
    assert free.lock == ""
    locked = _deal(r, hands)
    play(locked, "5H 5S", "6S JK=6H")
    assert locked.lock == "HS"
    assert_illegal(locked, "7C 7D", 3)


def test_suit_lock_a_declared_joker_must_keep_to_a_lock_in_force() -> None:
    """Rule: "every later play of the trick must stand on them": under a lock on H S, a set
    whose declared joker stands on another suit is illegal, one on the locked suit legal."""
    r = Rules(suit_lock=True, jokers=1)
    assert r.why_not(move("7H JK=7S"), move("6H 6S"), lock=0b1100) is None
    assert "locked" in (r.why_not(move("7H JK=7C"), move("6H 6S"), lock=0b1100) or "")
    assert r.why_not(move("7H JK"), move("6H 6S"), lock=0b1100) is None


def test_suit_lock_a_set_of_jokers_alone_may_be_played_whatever_the_lock_and_lifts_it() -> None:
    """Rule: "A set of jokers alone may be played whatever the lock, and lifts it"."""
    r = Rules(suit_lock=True, jokers=1)
    deal = _deal(r, [["5H", "AC"], ["6H", "KC"], ["JK", "QC"]])
    play(deal, "5H", "6H")
    assert deal.lock == "H"
    deal.play("JK")
    assert deal.lock == ""


def test_suit_lock_ends_with_the_trick() -> None:
    """Rule: "The lock ends with the trick"."""
    r = Rules(suit_lock=True)
    deal = _deal(r, [["5H", "7C", "AC"], ["6H", "KC"], ["3D", "QC"]])
    play(deal, "5H", "6H", "pass", "pass")
    assert deal.pile is None and deal.to_move == 1 and deal.lock == ""


def test_suit_lock_a_view_shows_the_lock_and_its_legal_moves_keep_to_it() -> None:
    """The lock follows from the trick, so a player's view shows it (section 10)."""
    r = Rules(suit_lock=True)
    deal = _deal(r, [["5H", "AC"], ["6H", "KC"], ["7C", "7H", "QC"]])
    play(deal, "5H", "6H")
    view = deal.view(2)
    assert view.lock == "H"
    assert set(view.legal_moves()) == set(deal.legal_moves()) == {move("7H"), move("pass")}


# ---------------------------------------------------------------- spade_three


def test_spade_three_defaults_to_false() -> None:
    """Rule: "`spade_three` (default `false`)"."""
    assert Rules().spade_three is False
    assert not Rules(jokers=1).beats("3S", "JK")


def test_spade_three_the_3_of_spades_alone_beats_a_lone_joker_and_clears() -> None:
    """Rule: "the 3 of spades alone may be played on a lone joker, in either order, and clears
    the pile"."""
    r = Rules(jokers=1, spade_three=True, revolution=True)
    for revolution in (False, True):
        assert r.beats("3S", "JK", revolution)
        assert move("3S") in r.legal_moves(["3S", "3H"], "JK", revolution)
        assert move("3H") not in r.legal_moves(["3S", "3H"], "JK", revolution)
    deal = _deal(r, [["JK", "AC"], ["3S", "KC"], ["QC", "4D"]])
    play(deal, "JK", "3S")
    assert deal.pile is None and deal.to_move == 1


def test_spade_three_only_alone_and_only_on_a_lone_joker() -> None:
    """The 3 of spades beats a lone joker only "alone", and only "on a lone joker"."""
    r = Rules(jokers=2, spade_three=True)
    assert not r.beats("3S 3H", "JK JK")
    assert not r.beats("3S", "2C")
    assert not r.beats("3H", "JK")


# ---------------------------------------------------------------- top_clears


def test_top_clears_defaults_to_true() -> None:
    """Rule: "`top_clears` (default `true`)"."""
    assert Rules().top_clears is True


def test_top_clears_false_a_set_of_the_top_rank_does_not_clear_the_pile() -> None:
    """Rule: "`false`: a set of the top rank does not clear the pile (an 8 still does, with
    `eight_stop`)"."""
    r = Rules(top_clears=False, jokers=1, eight_stop=True, revolution=True)
    assert not r.clears("2C") and not r.clears("3C", revolution=True)
    assert r.clears("8C")
    deal = _deal(r, [["2C", "AC"], ["JK", "KC"]])
    play(deal, "2C", "JK")
    assert str(deal.pile) == "JK"


# ---------------------------------------------------------------- opening_card, scum_leads


def test_opening_card_defaults_to_3c_and_its_holder_leads_the_first_deal() -> None:
    """Rule: "`opening_card` (default `3C`): the holder of this card leads the first deal of a
    match"."""
    assert Rules().opening_card == "3C"
    for card in ("3D", "9H"):
        r = Rules(opening_card=card)
        deal = Deal.new(r, 5, 11)
        assert card in [str(c) for c in deal.hand(deal.to_move)]
        m = Match(r, 5, 11)
        assert m.pending is not None
        assert card in [str(c) for c in m.deal.hand(m.pending.seat)]
    with pytest.raises(ValueError, match="opening_card"):
        Rules(opening_card="JK")


def test_scum_leads_false_every_deal_is_led_by_the_holder_of_the_opening_card() -> None:
    """Rule: "`scum_leads` (default `true`); `false`: every deal is led by the holder of the
    opening card, found after the exchange"."""
    assert Rules().scum_leads is True
    r = Rules(opening_card="3D", scum_leads=False, rounds=6)
    m = Match(r, 5, 4)
    drive(m)
    for entry in m.history:
        hands = [list(h) for h in entry["hands"]]
        for e in entry["exchanges"]:
            for c in e["cards"]:
                hands[e["from"]].remove(c)
                hands[e["to"]].append(c)
        assert "3D" in hands[entry["leader"]]


# ---------------------------------------------------------------- lead_pass


def test_lead_pass_defaults_to_false() -> None:
    """Rule: "`lead_pass` (default `false`)"."""
    assert Rules().lead_pass is False


def test_lead_pass_the_leader_may_pass_and_the_next_player_who_has_not_passed_leads() -> None:
    """Rule: "the leader may pass; the pass counts as any pass, and the next player who has not
    passed leads"."""
    r = Rules(lead_pass=True, pass_limit=20, pass_is_final=True)
    deal = _deal(r, [["5H", "AC"], ["6H", "KC"], ["7C", "QC"]])
    assert move("pass") in deal.legal_moves()
    deal.play("pass")
    assert deal.pile is None and deal.to_move == 1 and deal.sits_out(0)
    deal.play("6H")
    assert deal.to_move == 2


def test_lead_pass_needs_pass_limit() -> None:
    """Rule: "It needs `pass_limit`"."""
    with pytest.raises(ValueError, match="pass_limit"):
        Rules(lead_pass=True)


def test_lead_pass_a_fault_on_a_lead_counts_as_a_pass() -> None:
    """Section 9 with `lead_pass`: under `on_fault: pass` a fault on a lead is a pass."""
    m = Match(UECDA, 5, 3)
    assert m.pending is not None
    seat = m.pending.seat
    m.fault("illegal")
    assert m.deal.moves == [(seat, move("pass"))]


# ---------------------------------------------------------------- trick_end


def test_trick_end_defaults_to_others() -> None:
    """Rule: "`trick_end` (default `others`)"."""
    assert Rules().trick_end == "others"
    deal = _deal(Rules(pass_is_final=True),
                 [["9C", "4D"], ["TC"], ["3H", "AC"], ["4H", "KC"]], 1)
    play(deal, "TC", "pass", "pass")
    assert deal.to_move == 0 and str(deal.pile) == "TC"


def test_trick_end_all_but_one_ends_the_trick_when_the_last_player_has_gone_out() -> None:
    """Rule: "the trick also ends once the players who passed in it number the players still
    holding cards minus one": after a player goes out, the one holder who has not passed does
    not answer the play."""
    r = Rules(pass_is_final=True, trick_end="all-but-one")
    deal = _deal(r, [["9C", "4D"], ["TC"], ["3H", "AC"], ["4H", "KC"]], 1)
    play(deal, "TC", "pass", "pass")
    assert deal.pile is None and deal.to_move == 2


def test_trick_end_all_but_one_a_trick_of_passes_alone_is_led_again_by_its_leader() -> None:
    """Rule: "a trick of passes alone is led again by its leader"."""
    r = Rules(pass_is_final=True, trick_end="all-but-one", lead_pass=True, pass_limit=20)
    deal = _deal(r, [["9C", "4D"], ["TC", "3S"], ["3H", "AC"]], 1)
    play(deal, "pass", "pass")
    assert deal.pile is None and deal.to_move == 1 and not deal.sits_out(1)


# ---------------------------------------------------------------- pass_limit


def test_pass_limit_defaults_to_0_none() -> None:
    """Rule: "`pass_limit` (default 0: none)"."""
    assert Rules().pass_limit == 0


def test_pass_limit_ends_the_deal_with_the_remaining_places_drawn_from_the_seed() -> None:
    """Rule: "after this many passes in a row, counted across tricks, the deal ends: the players
    still holding cards take the remaining places in an order drawn from the deal's seed"."""
    r = Rules(lead_pass=True, pass_limit=4, pass_is_final=True)
    orders = set()
    for seed in range(12):
        deal = Deal.new(r, 3, seed)
        for _ in range(4):
            assert not deal.finished
            deal.play("pass")
        assert deal.finished and sorted(deal.finish_order) == [0, 1, 2]
        again = Deal.new(r, 3, seed)
        play(again, *["pass"] * 4)
        assert again.finish_order == deal.finish_order
        orders.add(tuple(deal.finish_order))
    assert len(orders) > 1


def test_pass_limit_counts_across_tricks_and_a_play_starts_the_count_again() -> None:
    """Rule: "passes in a row, counted across tricks": a play resets the count."""
    r = Rules(lead_pass=True, pass_limit=3, pass_is_final=True, trick_end="all-but-one")
    deal = _deal(r, [["9C", "4D", "5D"], ["TC", "3S"], ["3H", "AC"]], 0)
    play(deal, "pass", "pass")  # a trick of passes alone: seat 0 leads again
    assert deal.pile is None and deal.to_move == 0 and not deal.finished
    deal.play("9C")
    play(deal, "TC", "pass", "pass")
    assert not deal.finished
    deal.play("pass")
    assert deal.finished


# ---------------------------------------------------------------- exchange_fault


def test_exchange_fault_defaults_to_lowest() -> None:
    """Rule: "`exchange_fault` (default `lowest`)"."""
    assert Rules().exchange_fault == "lowest"


def test_exchange_fault_highest_gives_the_highest_cards_in_the_exchange_order() -> None:
    """Rule: "`highest`: a faulty exchange return gives the player's highest cards (in the
    exchange order)"."""
    r = Rules(exchange_fault="highest", on_fault="pass", rounds=2)
    m = Match(r, 5, 9)
    drive(m, stop_after_deal=0)
    assert m.pending is not None and m.pending.kind == "exchange"
    seat = m.pending.seat
    expected = top_cards(m.deal.hand(seat), 2)
    m.fault("illegal")
    ret = [e for e in m._exchanges if e["kind"] == "return" and e["from"] == seat]
    assert sorted(ret[0]["cards"]) == expected


# ---------------------------------------------------------------- the preset and the defaults


def test_uecda_sets_the_reference_servers_rules() -> None:
    """Rule: "`uecda`: ... what the UECda reference server enforces (docs/uecda.md)"."""
    r = UECDA
    assert (r.jokers, r.runs, r.revolution, r.eight_stop, r.pass_is_final, r.equal_beats) == (
        1, True, True, True, True, False)
    assert (r.runs_above, r.run_revolution, r.suit_lock, r.spade_three, r.top_clears) == (
        True, 5, True, True, False)
    assert (r.opening_card, r.scum_leads, r.lead_pass, r.trick_end, r.pass_limit) == (
        "3D", False, True, "all-but-one", 20)
    assert (r.exchange, r.exchange_fault, r.rounds, r.points, r.on_fault) == (
        (2, 1), "highest", 100, (5, 4, 3, 2, 1), "pass")
    assert Rules.preset("uecda", rounds=3).rounds == 3


def test_the_new_options_default_to_the_old_behaviour_and_leave_to_dict_as_it_was() -> None:
    """New options default to what arena did before them, and ``to_dict`` lists them only when
    set, so records of the older options do not change."""
    old = ["jokers", "runs", "equal_beats", "pass_is_final", "revolution", "eight_stop",
           "exchange", "rounds", "points", "on_fault"]
    for name in ("standard", "runs", "daifugo"):
        assert list(Rules.preset(name).to_dict()) == old
    assert Rules.from_dict(UECDA.to_dict()) == UECDA
    with pytest.raises(IllegalMove):
        Deal.from_hands(Rules(), [["5H"], ["6H"]], 0).play("pass")
