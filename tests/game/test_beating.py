"""docs/rules.md section 4: what beats the top of the pile."""

from __future__ import annotations

import pytest

from arena.game import Deal, Rules

from .helpers import assert_illegal, move

R = "3456789TJQKA2"


def test_a_set_is_beaten_only_by_a_set_of_the_same_size() -> None:
    """Rule: "A set is beaten only by a set of the same size"."""
    r = Rules(jokers=2)
    assert r.beats(move("9C 9D"), move("5C 5D"))
    assert not r.beats(move("9C"), move("5C 5D"))
    assert not r.beats(move("9C 9D 9H"), move("5C 5D"))
    assert not r.beats(move("2C 2D 2H 2S"), move("5C 5D 5H"))
    assert not r.beats(move("JK"), move("5C 5D"))
    assert not r.beats(move("JK JK"), move("5C"))
    assert r.beats(move("9C JK"), move("5C 5D"))
    assert not r.beats(move("9C JK"), move("5C"))


def test_a_run_is_beaten_only_by_a_run_of_the_same_length() -> None:
    """Rule: "A run only by a run of the same length"."""
    r = Rules(runs=True, jokers=1)
    assert r.beats(move("6H 7H 8H"), move("3C 4C 5C"))
    assert not r.beats(move("6H 7H 8H 9H"), move("3C 4C 5C"))
    assert not r.beats(move("9H TH JH"), move("3C 4C 5C 6C"))
    assert r.beats(move("6H 7H JK=8H 9H"), move("3C 4C 5C 6C"))


def test_sets_cannot_be_played_on_runs_nor_runs_on_sets() -> None:
    """Rule: "Sets cannot be played on runs nor runs on sets."""
    r = Rules(runs=True, jokers=2)
    assert not r.beats(move("2C 2D 2H"), move("3C 4C 5C"))
    assert not r.beats(move("JK JK 2C"), move("3C 4C 5C"))
    assert not r.beats(move("KH AH 2H"), move("3C 3D 3H"))
    assert not r.beats(move("QH KH AH 2H"), move("3C 3D 3H 3S"))
    deal = Deal.from_hands(r, [["3C", "4C", "5C", "9S"], ["2C", "2D", "2H", "6D", "7D", "8D"]], 0)
    deal.play("3C 4C 5C")
    assert_illegal(deal, "2C 2D 2H", 2)
    assert {m.kind for m in deal.legal_moves()} == {"pass", "run"}


def test_equal_beats_defaults_to_true() -> None:
    """Rule: "Option `equal_beats` (default `true`)"."""
    assert Rules().equal_beats is True


@pytest.mark.parametrize("equal_beats", [True, False])
def test_with_equal_beats_each_play_may_equal_the_previous_one_otherwise_strictly_stronger(
    equal_beats: bool,
) -> None:
    """Rule: "Each play may equal the previous one; `false` makes it strictly
    stronger."""
    r = Rules(equal_beats=equal_beats, runs=True, jokers=1)
    assert r.beats(move("7H"), move("7C")) is equal_beats
    assert r.beats(move("7H 7S"), move("7C 7D")) is equal_beats
    assert r.beats(move("7H JK"), move("7C 7D")) is equal_beats
    assert r.beats(move("5S 6S 7S"), move("5H 6H 7H")) is equal_beats
    assert r.beats(move("8H"), move("7C"))
    assert r.beats(move("6S 7S 8S"), move("5H 6H 7H"))
    assert not r.beats(move("6H"), move("7C"))
    deal = Deal.from_hands(r, [["7C", "9C"], ["7H", "8H", "4S"]], 0)
    deal.play("7C")
    if equal_beats:
        deal.play("7H")
    else:
        assert_illegal(deal, "7H", 2)


@pytest.mark.parametrize("equal_beats", [True, False])
def test_a_set_must_be_of_equal_or_higher_rank(equal_beats: bool) -> None:
    """Rule: "Sets: the new set's rank must be equal or higher"."""
    r = Rules(equal_beats=equal_beats)
    for i, low in enumerate(R):
        for j, high in enumerate(R):
            expected = j > i or (j == i and equal_beats)
            assert r.beats(move(f"{high}S {high}H"), move(f"{low}C {low}D")) is expected, (
                high,
                low,
            )
            assert r.beats(move(f"{high}S"), move(f"{low}C")) is expected


@pytest.mark.parametrize("equal_beats", [True, False])
def test_during_a_revolution_a_set_must_be_of_equal_or_lower_rank(equal_beats: bool) -> None:
    """Rule: "Sets: the new set's rank must be equal or higher (lower during a revolution)."""
    r = Rules(equal_beats=equal_beats, revolution=True)
    for i, low in enumerate(R):
        for j, high in enumerate(R):
            expected = j < i or (j == i and equal_beats)
            got = r.beats(move(f"{high}S {high}H"), move(f"{low}C {low}D"), revolution=True)
            assert got is expected, (high, low)


@pytest.mark.parametrize("revolution", [False, True])
def test_a_joker_only_set_beats_every_natural_set_of_its_size(revolution: bool) -> None:
    """Rule: "A joker-only set beats every natural set of its size"."""
    for equal_beats in (True, False):
        r = Rules(jokers=2, equal_beats=equal_beats, revolution=True)
        for rank in R:
            assert r.beats(move("JK"), move(f"{rank}D"), revolution=revolution)
            assert r.beats(move("JK JK"), move(f"{rank}D {rank}C"), revolution=revolution)
            assert r.beats(move("JK JK"), move(f"{rank}D JK"), revolution=revolution)
            assert not r.beats(move("JK"), move(f"{rank}D {rank}C"), revolution=revolution)


@pytest.mark.parametrize("equal_beats", [True, False])
def test_only_an_equal_joker_only_set_can_be_played_on_a_joker_only_set_when_equal_beats_is_on(
    equal_beats: bool,
) -> None:
    """Rule: "Only an equal joker-only set can be played on it, and only when `equal_beats`
    is on."""
    r = Rules(jokers=2, equal_beats=equal_beats, revolution=True)
    for revolution in (False, True):
        assert r.beats(move("JK"), move("JK"), revolution=revolution) is equal_beats
        assert r.beats(move("JK JK"), move("JK JK"), revolution=revolution) is equal_beats
        for rank in R:
            assert not r.beats(move(f"{rank}S"), move("JK"), revolution=revolution)
            assert not r.beats(move(f"{rank}S JK"), move("JK JK"), revolution=revolution)
            assert not r.beats(move(f"{rank}S {rank}H"), move("JK JK"), revolution=revolution)
    deal = Deal.from_hands(r, [["JK", "3C"], ["JK", "2S", "4D"]], 0)
    deal.play("JK")
    expected = {"pass", "JK"} if equal_beats else {"pass"}
    assert {str(m) for m in deal.legal_moves()} == expected


@pytest.mark.parametrize("equal_beats", [True, False])
def test_a_run_must_reach_as_high_as_the_runs_highest_card_in_any_suit(equal_beats: bool) -> None:
    """Rule: "Runs: the new run's highest card must be equal or higher than the highest card of the
    run on the pile, in any suit."""
    r = Rules(runs=True, jokers=1, equal_beats=equal_beats)
    pile = move("5H 6H 7H")
    assert r.beats(move("5C 6C 7C"), pile) is equal_beats
    assert r.beats(move("5H JK=6H 7H"), pile) is equal_beats
    assert r.beats(move("6S 7S 8S"), pile)
    assert r.beats(move("6D 7D JK=8D"), pile)
    assert not r.beats(move("4D 5D 6D"), pile)
    assert not r.beats(move("JK=4D 5D 6D"), pile)
    assert r.beats(move("QC KC AC 2C"), move("JS QS KS AS"))
    assert r.beats(move("JC QC KC AC"), move("JS QS KS AS")) is equal_beats
    assert not r.beats(move("TC JC QC KC"), move("JS QS KS AS"))


@pytest.mark.parametrize("equal_beats", [True, False])
def test_during_a_revolution_a_run_must_reach_as_low_as_the_runs_lowest_card(
    equal_beats: bool,
) -> None:
    """Rule: "During a revolution the new run's lowest card must be equal or lower than the lowest
    card of the run on the pile."""
    r = Rules(runs=True, jokers=1, equal_beats=equal_beats, revolution=True)
    pile = move("5H 6H 7H")
    assert r.beats(move("4C 5C 6C"), pile, revolution=True)
    assert r.beats(move("JK=4C 5C 6C"), pile, revolution=True)
    assert r.beats(move("3S 4S 5S"), pile, revolution=True)
    assert r.beats(move("5C 6C 7C"), pile, revolution=True) is equal_beats
    assert r.beats(move("5D 6D JK=7D"), pile, revolution=True) is equal_beats
    assert not r.beats(move("6C 7C 8C"), pile, revolution=True)
    assert not r.beats(move("KC AC 2C"), pile, revolution=True)
    assert r.beats(move("3C 4C 5C 6C"), move("4S 5S 6S 7S"), revolution=True)
    assert not r.beats(move("5C 6C 7C 8C"), move("4S 5S 6S 7S"), revolution=True)


def test_an_empty_pile_takes_any_combination() -> None:
    """`beats(move, None)`: on an empty pile (a lead) any combination may be played."""
    r = Rules(runs=True, jokers=2)
    for text in ["3C", "JK", "JK JK", "2C 2D 2H 2S JK JK", "3H 4H 5H", "9C JK"]:
        assert r.beats(move(text), None)
