"""docs/rules.md section 6: clearing the pile."""

from __future__ import annotations

import pytest

from arena.game import Deal, Rules

from .helpers import move, play

ALL = Rules(jokers=2, runs=True, revolution=True, eight_stop=True)


@pytest.mark.parametrize("text", ["2C", "2S 2H", "2C 2D 2H", "2C JK", "2D JK JK"])
def test_a_set_of_2s_clears_the_pile(text: str) -> None:
    """Rule: "A set of the top rank clears the pile: a set of 2s"; "jokers standing in for that rank
    count"."""
    for r in (Rules(jokers=2), ALL):
        assert r.clears(move(text))
        assert r.clears(move(text), revolution=False)
    deal = Deal.from_hands(Rules(jokers=2), [[*text.split(), "9D"], ["4C", "5D", "6H"]], 0)
    deal.play(text)
    assert deal.pile is None and deal.to_move == 0


@pytest.mark.parametrize("text", ["3C", "3S 3H", "3C 3D 3H", "3C JK", "3C JK JK"])
def test_during_a_revolution_a_set_of_3s_clears_the_pile(text: str) -> None:
    """Rule: "... or during a revolution a set of 3s. Jokers standing in for that rank count."""
    r = Rules(jokers=2, revolution=True)
    assert r.clears(move(text), revolution=True)
    assert not r.clears(move(text), revolution=False)
    assert not r.clears(move("2C"), revolution=True)
    assert not r.clears(move("2C 2D 2H"), revolution=True)


@pytest.mark.parametrize("text", ["AC", "KS KH", "9C 9D 9H", "4C JK"])
def test_sets_below_the_top_rank_do_not_clear(text: str) -> None:
    """Only "a set of the top rank clears the pile"."""
    r = Rules(jokers=2, revolution=True)
    assert not r.clears(move(text))
    assert not r.clears(move(text), revolution=True)


@pytest.mark.parametrize("text", ["JK", "JK JK"])
def test_a_joker_only_set_never_clears(text: str) -> None:
    """Rule: "A joker-only set is not an 8 and never clears"; it stands for no rank, so not
    for a 2."""
    for r in (Rules(jokers=2), ALL):
        for revolution in (False, True):
            assert not r.clears(move(text), revolution=revolution)
    deal = Deal.from_hands(ALL, [["3C", "JK", "9D"], ["4C", "5D", "6H"]], 0)
    play(deal, "3C", "4C", "JK")
    assert str(deal.pile) == "JK" and deal.to_move == 1


@pytest.mark.parametrize("text", ["KH AH 2H", "QS KS AS 2S", "KC AC JK=2C", "JK=KD AD 2D"])
def test_runs_never_clear_the_pile_by_themselves_even_a_run_ending_on_the_2(text: str) -> None:
    """Rule: "Runs never clear the pile by themselves, even a run ending on the 2."""
    r = Rules(runs=True, jokers=1, revolution=True)
    assert not r.clears(move(text))
    assert not r.clears(move(text), revolution=True)
    assert not r.clears(move("3H 4H 5H"), revolution=True)
    hand = [str(c) for c in move(text).cards] + ["9D"]
    deal = Deal.from_hands(r, [hand, ["4C", "5D", "6H"]], 0)
    deal.play(text)
    assert deal.pile is not None and deal.to_move == 1


def test_eight_stop_defaults_to_false_and_then_8s_do_not_clear() -> None:
    """Rule: "Option `eight_stop` (default `false`, "8 clears the pile")."""
    assert Rules().eight_stop is False
    assert not Rules().clears(move("8C"))
    assert not Rules(runs=True).clears(move("7H 8H 9H"))
    deal = Deal.from_hands(Rules(), [["3C", "8C", "9D"], ["4C", "5D", "6H"]], 0)
    play(deal, "3C", "4C", "8C")
    assert str(deal.pile) == "8C" and deal.to_move == 1


@pytest.mark.parametrize("text", ["8C", "8C 8D", "8C 8D 8H", "8C 8D 8H 8S", "8S JK", "8H JK JK"])
def test_eight_stop_a_set_of_8s_clears_in_either_order(text: str) -> None:
    """Rule: "With `eight_stop` ... a set of 8s ... clear[s] the pile ..., in either order."""
    r = Rules(eight_stop=True, jokers=2, revolution=True)
    assert r.clears(move(text))
    assert r.clears(move(text), revolution=True)
    deal = Deal.from_hands(r, [[*text.split(), "9D"], ["4C", "5D", "6H"]], 0)
    deal.play(text)
    assert deal.pile is None and deal.to_move == 0
    deal = Deal.from_hands(r, [["3C", *text.split(), "9D"], ["4C", "5D", "6H"]], 0)
    if len(text.split()) == 1:
        play(deal, "3C", "4C", text)
        assert deal.pile is None and deal.to_move == 0


@pytest.mark.parametrize(
    "text",
    ["6H 7H 8H", "8H 9H TH", "7H 8H 9H", "3D 4D 5D 6D 7D 8D 9D", "7S JK=8S 9S", "JK=8C 9C TC",
     "6C 7C JK=8C"],
)  # fmt: skip
def test_eight_stop_run_through_the_8_clears(text: str) -> None:
    """Rule: "Any run that contains the 8, at an end or inside, natural or a joker standing for it,
    clear[s] the pile (seeds: "a run through the 8"), in either order."""
    r = Rules(eight_stop=True, runs=True, jokers=1, revolution=True)
    assert r.clears(move(text))
    assert r.clears(move(text), revolution=True)
    hand = [str(c) for c in move(text).cards] + ["2D"]
    deal = Deal.from_hands(r, [hand, ["4S", "5S", "TS"]], 0)
    deal.play(text)
    assert deal.pile is None and deal.to_move == 0


@pytest.mark.parametrize("text", ["3H 4H 5H", "9S TS JS", "KC AC 2C", "JK=9D TD JD"])
def test_eight_stop_a_run_without_an_8_does_not_clear(text: str) -> None:
    """Only a run "that contains the 8" clears."""
    r = Rules(eight_stop=True, runs=True, jokers=1)
    assert not r.clears(move(text))
    assert not r.clears(move(text), revolution=True)


def test_eight_stop_a_joker_only_set_is_not_an_8() -> None:
    """Rule: "A joker-only set is not an 8 and never clears."""
    r = Rules(eight_stop=True, jokers=2)
    assert not r.clears(move("JK"))
    assert not r.clears(move("JK JK"), revolution=True)


def test_clearing_is_judged_in_the_order_in_force_before_the_revolution_it_starts() -> None:
    """Rule: "Clearing is judged in the order in force when the combination is played, before a
    revolution it starts takes effect."""
    r = Rules(revolution=True, jokers=2)
    twos = move("2C 2D 2H 2S")
    threes = move("3C 3D 3H 3S")
    assert r.clears(twos, revolution=False) and not r.clears(twos, revolution=True)
    assert r.clears(threes, revolution=True) and not r.clears(threes, revolution=False)
    # four 2s in normal order: clears (2 is top now) and starts a revolution
    deal = Deal.from_hands(r, [["2C", "2D", "2H", "2S", "9D", "TD"], ["4C", "5D", "6H"]], 0)
    deal.play("2C 2D 2H 2S")
    assert deal.pile is None and deal.to_move == 0 and deal.revolution is True
    # four 3s in normal order: does not clear (3 is the bottom) though it starts a revolution
    deal = Deal.from_hands(r, [["3C", "3D", "3H", "3S", "9D"], ["4C", "5D", "6H", "7H"]], 0)
    deal.play("3C 3D 3H 3S")
    assert deal.pile is not None and deal.to_move == 1 and deal.revolution is True
    # during a revolution, four 3s clear (3 is top then) and end the revolution
    deal = Deal.from_hands(
        r, [["5C", "5D", "5H", "5S", "3C", "3D", "3H", "3S", "9D"], ["4C", "6D", "6H"]], 0
    )
    play(deal, "5C 5D 5H 5S", "pass")
    assert deal.revolution is True and deal.to_move == 0
    deal.play("3C 3D 3H 3S")
    assert deal.pile is None and deal.to_move == 0 and deal.revolution is False
