"""Rulings of the UECda reference server (tndhms 0.37, ``daihu.c`` and ``external.c`` of the
development kit) and what arena's ``uecda`` preset and table reading make of the same plays.

Each case names the code of the reference server that decides it; the expected outcome is
read from that code, not from arena.
"""

from __future__ import annotations

import pytest

from arena.game import Card, Deal, IllegalMove, Match, Move, Rules
from arena.referee.uecda._tables import TableError, empty_table, table_move

UECDA = Rules.preset("uecda")
FILLER = [["QC", "AC"], ["QH", "AD"], ["KH", "AH"], ["KD", "AS"]]


def deal_with(first: list[str], second: list[str], *rest: list[str], leader: int = 0) -> Deal:
    hands = [first, second, *rest]
    hands += FILLER[: 5 - len(hands)]
    return Deal.from_hands(UECDA, hands, leader)


def accepted(deal: Deal, move: str) -> bool:
    try:
        deal.play(move)
    except IllegalMove:
        return False
    return True


def test_a_lone_joker_beats_a_single_2() -> None:
    """compare_card_status: a joker alone (type 4) on a single (type 1) is accepted; a 2 does
    not clear by itself (no flash for 2s), so the joker can be played on it."""
    deal = deal_with(["2S", "9C"], ["JK", "9D"])
    deal.play("2S")
    assert accepted(deal, "JK")


def test_a_lone_joker_is_not_a_pair() -> None:
    """compare_card_status: different numbers of cards are rejected."""
    deal = deal_with(["6S", "6H", "9C"], ["JK", "9D"])
    deal.play("6S 6H")
    assert not accepted(deal, "JK")


def test_the_3_of_spades_alone_beats_a_lone_joker_and_clears() -> None:
    """daihu.c, spe3: with now_jocker_single, a single at column 1, row 0 (the 3 of spades)
    held by the player is accepted and flashes the table."""
    deal = deal_with(["JK", "9C"], ["3S", "9D"])
    deal.play("JK")
    assert accepted(deal, "3S")
    assert deal.pile is None and deal.to_move == 1


@pytest.mark.parametrize("attempt", ["3H", "3S 3H"])
def test_nothing_else_goes_on_a_lone_joker(attempt: str) -> None:
    """daihu.c: with now_jocker_single every other submission is an error."""
    deal = deal_with(["JK", "9C"], ["3S", "3H", "9D"])
    deal.play("JK")
    assert not accepted(deal, attempt)


def test_two_plays_on_the_same_suits_lock_and_a_lone_joker_lifts_the_lock() -> None:
    """daihu.c, RULE_SHIBARI: a play on the stage's suits sets now_shibari; then another suit
    is an error; a joker alone (type 4) skips the check and sets now_shibari to 0."""
    deal = deal_with(["5H", "9C"], ["6H", "9D"], ["7C", "7H", "KS"], ["JK", "8D"], leader=0)
    play = deal.play
    play("5H")
    play("6H")
    assert deal.lock == "H"
    assert not accepted(deal, "7C")
    play("7H")
    play("JK")
    assert deal.lock == ""


def test_different_suits_do_not_lock() -> None:
    """daihu.c, RULE_SHIBARI: a play on other suits leaves now_shibari at 0."""
    deal = deal_with(["5H", "9C"], ["6C", "9D"], ["7D", "KS"])
    deal.play("5H")
    deal.play("6C")
    assert deal.lock == "" and accepted(deal, "7D")


def test_a_run_of_five_starts_a_revolution_and_a_run_of_four_does_not() -> None:
    """daihu.c, RULE_KAKUMEI: type 3 (a run) of 5 or more cards toggles now_kakumei."""
    five = deal_with(["3D", "4D", "5D", "6D", "7D", "KC"], ["9C"])
    five.play("3D 4D 5D 6D 7D")
    assert five.revolution
    four = deal_with(["3D", "4D", "5D", "6D", "KC"], ["9C"])
    four.play("3D 4D 5D 6D")
    assert not four.revolution


@pytest.mark.parametrize("run", ["7H 8H 9H", "7H JK=8H 9H", "6H 7H 8H", "8H 9H TH"])
def test_a_run_through_the_8_clears(run: str) -> None:
    """check_special_card: a run whose columns span the 8 (a joker standing for it included)
    flashes the table."""
    cards = [c for c in run.replace("JK=8H", "JK").split()] + ["KC"]
    deal = deal_with(cards, ["9C"])
    deal.play(run)
    assert deal.pile is None and deal.to_move == 0


def test_a_run_without_an_8_does_not_clear_and_a_lone_joker_is_no_8() -> None:
    """check_special_card is not asked for a joker alone (now_jocker_single)."""
    deal = deal_with(["4H", "5H", "6H", "KC"], ["9C"])
    deal.play("4H 5H 6H")
    assert deal.pile is not None
    joker = deal_with(["JK", "KC"], ["9C"])
    joker.play("JK")
    assert joker.pile is not None


def test_a_run_must_lie_entirely_above_the_run_on_the_table() -> None:
    """compare_card_status for type 3: the new lowest column must exceed the old highest."""
    deal = deal_with(["5S", "6S", "7S", "KC"], ["7D", "8D", "9D", "TD", "QD", "2C"])
    deal.play("5S 6S 7S")
    assert not accepted(deal, "7D 8D 9D")
    assert accepted(deal, "8D 9D TD")


def test_after_everyone_passed_the_last_player_leads_again() -> None:
    """daihu.c, flash: once the passes reach (players holding cards - 1), now_player is the
    last player, who leads a new trick, and may pass it too."""
    deal = deal_with(["9S", "KC"], ["3D", "9D"])
    deal.play("9S")
    for _ in range(4):
        deal.play("pass")
    assert deal.pile is None and deal.to_move == 0
    assert accepted(deal, "pass")


def test_a_trick_whose_last_player_went_out_ends_at_all_but_one_passes() -> None:
    """daihu.c: the flash test counts passes against 4 - now_number_of_goal, so the player
    who has not passed is not asked after the player of the last play went out."""
    deal = Deal.from_hands(UECDA, [["9S"], ["4C", "TC"], ["4D", "TD"], ["4H", "TH"],
                                    ["4S", "TS"]], 0)
    deal.play("9S")
    for _ in range(3):
        deal.play("pass")
    assert deal.pile is None and deal.to_move == 1


def _table(*cells: tuple[int, int, int]) -> list[list[int]]:
    table = empty_table()
    for row, col, value in cells:
        table[row][col] = value
    return table


HAND = [Card.parse(c) for c in ("3S", "4S", "5S", "5H", "JK")]


@pytest.mark.parametrize(("cells", "why"), [
    (((0, 1, 2), (1, 1, 2)), "jokers"),  # count_card_num: two 2s
    (((4, 3, 2),), "row 4"),  # analyze_card: a lone joker in row 4 (suit bit 16)
    (((0, 0, 1),), "outside"),  # count_card_num: a 1 in column 0
    (((0, 1, 1), (0, 2, 1)), "fewer than 3"),  # analyze_card: a run of 2
    (((0, 1, 1), (1, 3, 1)), "neither"),  # analyze_card: the count does not match
    (((2, 5, 1),), "not in the hand"),  # check_include_card
    (((0, 1, 3),), "0, 1 or 2"),  # count_card_num: other values
])
def test_tables_the_reference_server_rejects_before_judging(
        cells: tuple[tuple[int, int, int], ...], why: str) -> None:
    """count_card_num, analyze_card and check_include_card reject these tables."""
    with pytest.raises(TableError, match=why):
        table_move(_table(*cells), HAND)


def test_tables_the_reference_server_reads_as_moves() -> None:
    """A set with the joker in a suit row (the joker is that suit's card), a run with the joker
    inside, a lone joker at
    [0][14] as the kit's client puts it, the joker below the 3 of a run (column 0, moved to
    the other end, the same run as a lead), an empty table (a pass)."""
    assert str(table_move(_table((1, 3, 1), (0, 3, 2)), HAND)[0]) == "5H JK=5S"
    assert str(table_move(_table((0, 1, 1), (0, 2, 2), (0, 3, 1)), HAND)[0]) == "3S JK=4S 5S"
    assert str(table_move(_table((0, 14, 2)), HAND)[0]) == "JK"
    assert str(table_move(_table((0, 0, 2), (0, 1, 1), (0, 2, 1)), HAND)[0]) == "3S 4S JK=5S"
    assert str(table_move(empty_table(), HAND)[0]) == "pass"


# -- the joker's suit, the dealt table, the answers, the classes ----------------------------


@pytest.mark.parametrize(("row", "lock"), [(1, "CDH"), (0, "")])
def test_a_sets_joker_stands_on_the_suit_of_its_cell_for_the_lock(row: int, lock: str) -> None:
    """analyze_card: a set's suit bits are the rows of its cells, the joker's included; daihu.c,
    RULE_SHIBARI: now_shibari is set when they equal the stage's. After JC JD JH, a client's
    2C 2D with the joker in the hearts row locks the trick; in the spades row it does not."""
    deal = deal_with(["JC", "JD", "JH", "9C"], ["2C", "2D", "JK", "9D"])
    deal.play("JC JD JH")
    two = table_move(_table((3, 13, 1), (2, 13, 1), (row, 13, 2)), deal.hand(1))[0]
    assert str(two) == "2C 2D JK=" + ("2H" if row == 1 else "2S")
    deal.play(two)
    assert deal.lock == lock


def test_under_a_lock_the_jokers_cell_must_keep_to_it() -> None:
    """daihu.c, RULE_SHIBARI: with now_shibari, a play whose suit bits differ is an error, the
    joker's row counted like a natural card's."""
    deal = deal_with(["5C", "5D", "9C"], ["6C", "6D", "9D"], ["7C", "JK", "KS"])
    deal.play("5C 5D")
    deal.play("6C 6D")
    assert deal.lock == "CD"
    assert not accepted(deal, "7C JK=7H")
    assert accepted(deal, "7C JK=7D")


def test_tables_with_a_sets_joker_round_trip_through_its_cell() -> None:
    """The table arena sends for another seat's set shows the joker in the cell its move
    declares (what the client sent); an undeclared joker in the suit the lock rule gives it."""

    from arena.referee.uecda._tables import move_table

    declared = move_table(Move.parse("2C 2D JK=2H"))
    assert declared[1][13] == 2 and declared[3][13] == declared[2][13] == 1
    assert sum(map(sum, declared)) == 4
    bare = move_table(Move.parse("2C 2D JK"), previous_suits=0b1001)  # on spades and clubs
    assert bare[0][13] == 2


def _match_at_the_second_deal() -> Match:
    """A uecda match whose first deal was played (lowest legal move each turn)."""
    match = Match(UECDA, 5, seed=27)
    while match.deal_number == 0:
        decision = match.pending
        assert decision is not None and decision.kind == "play"
        match.play(match.view(decision.seat).legal_moves()[0])
    return match


def test_the_dealt_table_holds_the_dealt_counts_and_the_scums_hand_before_its_gift() -> None:
    """daihu.c: row 6's counts are filled before trans_strong_card moves the gifts; the
    daihinmin's and hinmin's tables are copies (tmp_card) made before it, the daifugo's and
    hugo's are sent after it (their hand with the gift, before they give back)."""
    from arena.referee.uecda._host import UecdaHost

    match = _match_at_the_second_deal()
    deal = match.deal
    dealt = [deal.dealt_hand(s) for s in range(5)]
    counts = [len(h) for h in dealt]
    roles = match.view(0).roles
    seat_of = {role: s for s, role in enumerate(roles)}
    president, scum = seat_of["president"], seat_of["scum"]
    asked = match.pending
    assert asked is not None and asked.kind == "exchange" and asked.seat == president
    for seat in range(5):
        view = match.view(seat)
        assert UecdaHost._dealt_counts(view, president) == counts
    assert view.counts != tuple(counts)  # the gifts have moved cards by now
    gift = match.view(scum).gave
    assert sorted(UecdaHost._dealt_hand(match.view(scum))) == sorted(dealt[scum])
    assert sorted(UecdaHost._dealt_hand(match.view(president))) == sorted(dealt[president] + gift)
    while match.pending is not None and match.pending.kind == "exchange":
        count = match.pending.count
        match.give(match.view(match.pending.seat).hand[:count])
    for seat in range(5):  # after the returns, a table dealt late shows the same
        assert UecdaHost._dealt_counts(match.view(seat), None) == counts
    assert sorted(UecdaHost._dealt_hand(match.view(scum))) == sorted(dealt[scum])


def test_a_pass_is_answered_8_on_a_table_with_cards_and_9_on_an_empty_one() -> None:
    """compare_card_status: a pass's 0 cards differ from the stage's number of cards, an error
    (answer 8; the pass stands); on an empty stage every submission passes that check."""

    from arena.referee.uecda._tables import answer

    pile = Move.parse("9C")
    assert answer(Move.PASS, pile, True) == 8
    assert answer(Move.PASS, None, True) == 9
    assert answer(pile, None, True) == 9 and answer(Move.PASS, pile, False) == 8


def test_the_classes_row_follows_tndhms_mibun_array_as_players_go_out() -> None:
    """daihu.c: mibun[j - 1] = the player who goes out j-th, and row 6 is refilled with
    work_card[6][mibun[i] + 5] = i for i = 0..4: a seat listed twice keeps its later entry,
    a seat no longer listed keeps the cell's earlier value (0)."""
    from arena.referee.uecda._tables import class_row

    order = [2, 0, 4, 1, 3]  # the previous deal: seat 2 daifugo .. seat 3 daihinmin
    assert class_row(5, 1, order, []) == [1, 3, 0, 4, 2]
    assert class_row(5, 1, order, [4]) == [1, 3, 0, 4, 2]  # seat 4 is listed again, as 2
    assert class_row(5, 1, order, [4, 1]) == [0, 3, 0, 4, 2]  # seat 0 is no longer listed
    assert class_row(5, 0, [], [4, 1]) == [0] * 5  # the first deal of a block


def test_arena_uecda_client_reads_another_clients_set_joker_from_its_cell() -> None:
    """analyze_card and RULE_SHIBARI, seen from `arena uecda-client`: a lead of 4C with the
    joker in the spades row stands on clubs and spades, so 5C 5S locks the trick to them and
    tndhms rejects 6C 6D. The client once read that joker as arena's undeclared joker
    (clubs and diamonds), saw no lock, and its bot's 6C 6D was rejected."""
    from arena.cli._uecda_client import _Game

    game = _Game(UECDA, 0, 0)
    lead = _table((3, 2, 1), (0, 2, 2))
    lead[5][3] = 1
    game.after_turn(lead, 1)
    follow = _table((3, 3, 1), (0, 3, 1))
    follow[5][3] = 2
    game.after_turn(follow, 2)
    hand = _table((3, 4, 1), (2, 4, 1), (3, 9, 1))
    hand[5][2], hand[5][3] = 1, 0
    hand[6][:5] = [3, 10, 10, 11, 11]
    view = game.view(hand)
    assert view.lock == "CS"
    assert Move.parse("6C 6D") not in view.legal_moves()
