"""docs/rules.md section 1: cards, the deck and the notation."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.game import Card, Deal, Rules

from .helpers import FULL_DECK, RANKS, SUITS, legal_set, move, moves, names


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_deck_is_52_cards_plus_the_jokers_option(jokers: int) -> None:
    """Rule: "A 52-card deck plus `jokers` jokers (option, 0, 1 or 2; default 0)."""
    for players in (2, 3, 5, 8):
        deal = Deal.new(Rules(jokers=jokers), players, 7)
        dealt = Counter(str(c) for s in range(players) for c in deal.hand(s))
        assert dealt["JK"] == jokers
        del dealt["JK"]
        assert sorted(dealt) == sorted(FULL_DECK)
        assert set(dealt.values()) == {1}


def test_jokers_option_defaults_to_0() -> None:
    """Rule: "`jokers` jokers (option, 0, 1 or 2; default 0)."""
    assert Rules().jokers == 0
    deal = Deal.new(Rules(), 4, 1)
    assert all(not c.is_joker for s in range(4) for c in deal.hand(s))


@pytest.mark.parametrize("bad", [-1, 3, 4])
def test_jokers_option_is_only_0_1_or_2(bad: int) -> None:
    """Rule: "`jokers` jokers (option, 0, 1 or 2)": other counts are a ValueError naming
    the option."""
    with pytest.raises(ValueError, match="jokers"):
        Rules(jokers=bad)


def test_ranks_low_to_high_are_3_to_2() -> None:
    """Rule: "Ranks, low to high: `3 4 5 6 7 8 9 T J Q K A 2`."""
    assert [Card.parse(r + "H").rank for r in RANKS] == list(range(13))
    shuffled = [Card.parse(r + "C") for r in "2A3KQ4J5T96878"[:13]]
    assert [str(c) for c in sorted(shuffled)] == [r + "C" for r in RANKS]


def test_suits_are_c_d_h_s() -> None:
    """Rule: "Suits `C D H S`": the suit attribute numbers them 0..3 in that order."""
    assert [Card.parse("7" + s).suit for s in SUITS] == [0, 1, 2, 3]


@pytest.mark.parametrize("equal_beats", [True, False])
def test_suits_have_no_order(equal_beats: bool) -> None:
    """Rule: "Suits `C D H S` have no order": a 5S and a 5C are of one strength, whichever
    is first."""
    r = Rules(equal_beats=equal_beats)
    for low, high in [("5C", "5S"), ("5S", "5C"), ("9D", "9H"), ("2H", "2D")]:
        assert r.beats(move(low), move(high)) is equal_beats
    assert r.beats(move("5C 5D"), move("5H 5S")) is equal_beats


@pytest.mark.parametrize("text", ["5H", "TS", "2C", "JK", "3D", "AS", "QC", "KH", "JD"])
def test_notation_is_rank_then_suit_and_jk_for_a_joker(text: str) -> None:
    """Rule: "A card is rank then suit, `5H`, `TS`, `2C`; a joker is `JK`."""
    c = Card.parse(text)
    assert str(c) == text
    if text == "JK":
        assert c.is_joker and c.rank is None and c.suit is None
    else:
        assert not c.is_joker
        assert c.rank == RANKS.index(text[0])
        assert c.suit == SUITS.index(text[1])


@pytest.mark.parametrize(
    ("given", "canonical"),
    [("10h", "TH"), ("10H", "TH"), ("10S", "TS"), ("10♦", "TD"), ("10c", "TC")],
)
def test_parsing_accepts_10_for_t(given: str, canonical: str) -> None:
    """Rule: "Parsing also accepts `10` for `T`"."""
    assert str(Card.parse(given)) == canonical
    assert Card.parse(given) == Card.parse(canonical)


@pytest.mark.parametrize(
    ("given", "canonical"),
    [("5h", "5H"), ("ts", "TS"), ("qd", "QD"), ("jk", "JK"), ("Jk", "JK"), ("aC", "AC")],
)
def test_parsing_accepts_lower_case(given: str, canonical: str) -> None:
    """Rule: "Parsing also accepts ... lower case"."""
    assert str(Card.parse(given)) == canonical


@pytest.mark.parametrize(
    ("given", "canonical"),
    [("5♣", "5C"), ("A♦", "AD"), ("Q♥", "QH"), ("K♠", "KS"), ("10♠", "TS"), ("t♥", "TH")],
)
def test_parsing_accepts_the_suit_symbols(given: str, canonical: str) -> None:
    """Rule: "Parsing also accepts ... the suit symbols `♣ ♦ ♥ ♠`"."""
    assert str(Card.parse(given)) == canonical


def test_printing_is_always_the_canonical_form() -> None:
    """Rule: "Printing is always the canonical form": whatever the input spelling."""
    spellings = {"10♥": "TH", "th": "TH", "2s": "2S", "a♣": "AC", "jk": "JK", "9d": "9D"}
    for given, canonical in spellings.items():
        c = Card.parse(given)
        assert str(c) == canonical
        assert str(Card.parse(str(c))) == canonical


@pytest.mark.parametrize("bad", ["", "1H", "5X", "H5", "11H", "5HH", "J", "JKK", "0S", "BK", "5 H"])
def test_parsing_rejects_what_is_not_a_card(bad: str) -> None:
    """Notation: anything that is not rank then suit or `JK` is a ValueError naming it."""
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_cards_are_ordered_by_rank_then_suit_with_jokers_highest() -> None:
    """Ranks are ordered low to high; the API orders cards by (rank, suit), jokers highest."""
    cards = [Card.parse(t) for t in ["JK", "2C", "3S", "3C", "AH", "TD", "TC"]]
    assert names(sorted(cards)) == names(cards)
    assert [str(c) for c in sorted(cards)] == ["3C", "3S", "TC", "TD", "AH", "2C", "JK"]


def test_two_jokers_are_interchangeable() -> None:
    """Rule: "Two jokers are interchangeable": a hand of two jokers has one single and one pair."""
    a, b = Card.parse("JK"), Card.parse("jk")
    assert a == b and hash(a) == hash(b)
    assert legal_set(Rules(jokers=2).legal_moves(["JK", "JK"])) == moves("JK", "JK JK")
    assert legal_set(Rules(jokers=2).legal_moves(["9C", "JK", "JK"])) == moves(
        "9C", "JK", "JK JK", "9C JK", "9C JK JK"
    )


def test_jokers_are_wild_in_sets_and_runs() -> None:
    """Rule: "Jokers are wild (sections 2 and 4)": a joker completes a set and a run."""
    r = Rules(jokers=1, runs=True)
    found = legal_set(r.legal_moves(["9C", "TC", "JK"]))
    assert move("9C JK") in found
    assert move("9C TC JK=JC") in found
    assert move("JK=8C 9C TC") in found


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_a_dealt_hand_written_as_texts_is_the_hand_s_cards_each_as_text(jokers: int) -> None:
    rules = Rules(jokers=jokers)
    for seed in range(20):
        deal = Deal.dealt(rules, 4, seed, seed % 5)
        for seat in range(4):
            hand = deal.dealt_hand(seat)
            assert deal.dealt_texts(seat) == [str(card) for card in hand]
            assert sorted(hand) == hand and hand  # sorted, jokers last, never empty
