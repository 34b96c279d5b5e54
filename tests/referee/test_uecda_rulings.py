"""Rulings of the UECda reference server (tndhms 0.37, ``daihu.c`` and ``external.c`` of the
development kit) and what arena's ``uecda`` preset and table reading make of the same plays.

Each case names the code of the reference server that decides it; the expected outcome is
read from that code, not from arena.
"""

from __future__ import annotations

import pytest

from arena.game import Card, Deal, IllegalMove, Rules
from arena.referee.uecda import TableError, empty_table, table_move

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
