"""docs/rules.md section 5: the revolution."""

from __future__ import annotations

import pytest

from arena.game import Deal, Rules

from .helpers import assert_illegal, legal_set, move, moves, play

ON = Rules(revolution=True, jokers=2, runs=True)


def test_revolution_defaults_to_false_and_then_four_of_a_kind_changes_nothing() -> None:
    """Rule: "Revolution (option `revolution`, default `false`)"."""
    assert Rules().revolution is False
    off = Rules()
    assert not off.starts_revolution(move("5C 5D 5H 5S"))
    deal = Deal.from_hands(off, [["5C", "5D", "5H", "5S", "9C"], ["4C", "6D", "3S"]], 0)
    deal.play("5C 5D 5H 5S")
    assert deal.revolution is False
    play(deal, "pass")
    assert deal.to_move == 0 and deal.revolution is False


@pytest.mark.parametrize(
    "text", ["5C 5D 5H 5S", "5C 5D 5H JK", "5C 5D JK JK", "5C 5D 5H 5S JK", "5C 5D 5H 5S JK JK"]
)
def test_a_set_of_four_or_more_cards_jokers_included_starts_a_revolution(text: str) -> None:
    """Rule: "Playing a set of four or more cards (jokers included) reverses the rank order"."""
    assert ON.starts_revolution(move(text))
    hand = [*text.split(), "9C"]
    deal = Deal.from_hands(ON, [hand, ["4C", "6D", "3S"]], 0)
    deal.play(text)
    assert deal.revolution is True


@pytest.mark.parametrize("text", ["5C", "5C 5D", "5C 5D 5H", "5C JK JK", "JK", "JK JK"])
def test_a_set_of_fewer_than_four_cards_starts_no_revolution(text: str) -> None:
    """A revolution needs "a set of four or more cards"."""
    assert not ON.starts_revolution(move(text))


@pytest.mark.parametrize("text", ["5H 6H 7H 8H", "3S 4S 5S 6S 7S", "JK=4C 5C JK=6C 7C", "5H 6H 7H"])
def test_a_run_never_starts_a_revolution_whatever_its_length(text: str) -> None:
    """Rule: "A run never starts a revolution, whatever its length"."""
    assert not ON.starts_revolution(move(text))
    hand = [str(c) for c in move(text).cards] + ["9C"]
    deal = Deal.from_hands(ON, [hand, ["4D", "6D", "3D"]], 0)
    deal.play(text)
    assert deal.revolution is False


def test_the_revolution_reverses_the_rank_order_3_is_highest_and_2_lowest() -> None:
    """Rule: "In reverse order 3 is the highest rank and 2 the lowest."""
    r = Rules(revolution=True)
    assert r.beats(move("3C"), move("2C"), revolution=True)
    assert not r.beats(move("2C"), move("3C"), revolution=True)
    for rank in "456789TJQKA2":
        assert r.beats(move("3D"), move(rank + "S"), revolution=True)
        assert not r.beats(move(rank + "S"), move("3D"), revolution=True)
    for rank in "3456789TJQKA":
        assert r.beats(move(rank + "S"), move("2D"), revolution=True)
        assert not r.beats(move("2D"), move(rank + "S"), revolution=True)


def test_the_revolution_lasts_for_the_rest_of_the_deal() -> None:
    """A revolution holds "for the rest of the deal": across tricks."""
    r = Rules(revolution=True)
    deal = Deal.from_hands(
        r, [["6C", "6D", "6H", "6S", "7C", "KC"], ["9D", "5D", "2D"], ["9H", "4H", "QH"]], 0
    )
    play(deal, "6C 6D 6H 6S", "pass", "pass")
    assert deal.to_move == 0 and deal.pile is None and deal.revolution is True
    deal.play("7C")
    assert deal.revolution is True
    assert legal_set(deal.legal_moves()) == moves("pass", "5D")
    play(deal, "5D")
    assert legal_set(deal.legal_moves()) == moves("pass", "4H")


def test_another_set_of_four_or_more_reverses_the_order_back() -> None:
    """The order stays reversed "until another such set reverses it back"."""
    r = Rules(revolution=True)
    deal = Deal.from_hands(
        r, [["5C", "5D", "5H", "5S", "9C"], ["4C", "4D", "4H", "4S", "KD"], ["3C", "TH", "JH"]], 0
    )
    deal.play("5C 5D 5H 5S")
    assert deal.revolution is True
    deal.play("4C 4D 4H 4S")
    assert deal.revolution is False


def test_revolution_set_must_beat_pile_in_order_before_it() -> None:
    """Rule: "The set that starts a revolution must beat the pile in the order in force
    before it"."""
    r = Rules(revolution=True)
    deal = Deal.from_hands(
        r,
        [["5C", "5D", "5H", "5S", "9C"], ["6C", "6D", "6H", "6S", "4C", "4D", "4H", "4S"],
         ["3C", "TH", "JH"]],
        0,
    )  # fmt: skip
    deal.play("5C 5D 5H 5S")  # normal order: any four leads; now reversed
    assert deal.revolution is True
    # in force now is the reversed order: 6s are lower than 5s, 4s are higher
    assert_illegal(deal, "6C 6D 6H 6S", 3)
    assert move("4C 4D 4H 4S") in deal.legal_moves()
    assert move("6C 6D 6H 6S") not in deal.legal_moves()
    assert not r.beats(move("6C 6D 6H 6S"), move("5C 5D 5H 5S"), revolution=True)
    assert r.beats(move("6C 6D 6H 6S"), move("5C 5D 5H 5S"), revolution=False)


def test_the_revolution_takes_effect_from_the_next_play_on() -> None:
    """Rule: "Its effect applies from the next play on": the next player must go lower."""
    r = Rules(revolution=True, equal_beats=False)
    deal = Deal.from_hands(
        r,
        [["8C", "8D", "8H", "8S", "9C"],
         ["7C", "7D", "7H", "7S", "9D", "9H", "9S"]],
        0,
    )  # fmt: skip
    deal.play("8C 8D 8H 8S")
    assert legal_set(deal.legal_moves()) == moves("pass", "7C 7D 7H 7S")
