"""docs/rules.md section 2: sets, runs, jokers in them, and how a move is written."""

from __future__ import annotations

import pytest

from arena.game import Card, Deal, Move, Rules

from .helpers import legal_set, move, moves

RUNS = Rules(runs=True, jokers=2)


# --- sets -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "size", "rank"),
    [("7D", 1, 4), ("7D 7S", 2, 4), ("7C 7D 7S", 3, 4), ("7C 7D 7H 7S", 4, 4), ("2H 2C", 2, 12)],
)
def test_a_set_is_one_or_more_cards_of_one_rank(text: str, size: int, rank: int) -> None:
    """Rule: "A set is one or more cards of one rank: single, pair, triple, four of a kind."""
    m = move(text)
    assert m.kind == "set"
    assert len(m) == size
    assert m.rank == rank


def test_cards_of_different_ranks_are_not_a_set() -> None:
    """A set is cards "of one rank": `5C 6D` (two ranks, not a run either) is no combination."""
    for bad in ["5C 6D", "5C 5D 6C", "5H 6H"]:
        with pytest.raises(ValueError):
            Move.parse(bad)


def test_joker_in_a_set_stands_for_that_rank_9c_jk_is_a_pair_of_9s() -> None:
    """Rule: "A joker in a set stands for that rank (`9C JK` is a pair of 9s)"."""
    m = move("9C JK")
    assert m.kind == "set" and len(m) == 2 and m.rank == move("9C").rank
    r = Rules(jokers=1)
    assert r.beats(m, move("8S 8H"))
    assert not r.beats(m, move("TS TH"))
    assert r.beats(move("9D 9H"), m)
    assert not Rules(jokers=1, equal_beats=False).beats(move("9D 9H"), m)


def test_with_jokers_a_set_can_reach_5_or_6_cards() -> None:
    """Rule: "With jokers a set can reach 5 or 6 cards"."""
    five = move("9C 9D 9H 9S JK")
    six = move("9C 9D 9H 9S JK JK")
    assert (five.kind, len(five), five.rank) == ("set", 5, 6)
    assert (six.kind, len(six), six.rank) == ("set", 6, 6)
    found = legal_set(Rules(jokers=2).legal_moves(["9C", "9D", "9H", "9S", "JK", "JK"]))
    assert five in found and six in found


@pytest.mark.parametrize("text", ["JK", "JK JK"])
def test_a_set_made_only_of_jokers_stands_for_no_rank(text: str) -> None:
    """Rule: "A set made only of jokers (a lone `JK`, or `JK JK`) ... stands for no rank."""
    m = move(text)
    assert m.kind == "set"
    assert m.rank is None
    assert len(m) == len(text.split())


@pytest.mark.parametrize("revolution", [False, True])
def test_a_joker_only_set_is_the_strongest_set_of_its_size_in_either_order(
    revolution: bool,
) -> None:
    """Rule: "A set made only of jokers ... is the strongest set of its size in either order"."""
    r = Rules(jokers=2, revolution=True, equal_beats=False)
    for rank in "3456789TJQKA2":
        assert r.beats(move("JK"), move(rank + "S"), revolution=revolution)
        assert not r.beats(move(rank + "S"), move("JK"), revolution=revolution)
        assert r.beats(move("JK JK"), move(f"{rank}S {rank}H"), revolution=revolution)
        assert not r.beats(move(f"{rank}S {rank}H"), move("JK JK"), revolution=revolution)
        assert not r.beats(move(f"{rank}S JK"), move("JK JK"), revolution=revolution)


def test_joker_beside_naturals_of_one_rank_is_a_set_never_a_run() -> None:
    """Rule: "Jokers beside natural cards of a single rank always make a set: `3H JK JK` is three
    3s, never a run."""
    m = move("3H JK JK")
    assert m.kind == "set" and len(m) == 3 and m.rank == 0
    with pytest.raises(ValueError):
        Move.parse("3H JK=4H JK=5H")
    found = legal_set(RUNS.legal_moves(["3H", "JK", "JK"]))
    assert all(m.kind == "set" for m in found)
    assert found == moves("3H", "JK", "JK JK", "3H JK", "3H JK JK")


# --- runs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["3H 4H 5H", "5S 6S 7S 8S", "9D TD JD QD KD AD 2D", "QC KC AC 2C"])
def test_a_run_is_three_or_more_cards_of_one_suit_in_consecutive_ranks(text: str) -> None:
    """Rule: "A run ... is three or more cards of one suit in consecutive ranks, in the order `3 … A
    2`."""
    m = move(text)
    assert m.kind == "run"
    assert len(m) == len(text.split())
    assert m.rank is None


def test_runs_option_defaults_to_false_and_then_no_run_is_playable() -> None:
    """Rule: "A run (option `runs`, default `false`)": with runs off no run is legal."""
    assert Rules().runs is False
    off = Rules()
    assert legal_set(off.legal_moves(["5H", "6H", "7H"])) == moves("5H", "6H", "7H")
    assert not off.beats(move("5H 6H 7H"), None)
    assert Rules(runs=True).beats(move("5H 6H 7H"), None)


def test_a_run_of_two_cards_is_no_combination() -> None:
    """A run is "three or more cards": `5H 7H` and `5H 6H` are ValueErrors."""
    for bad in ["5H 7H", "5H 6H", "AH 2H"]:
        with pytest.raises(ValueError):
            Move.parse(bad)


def test_a_run_is_of_one_suit_5h_6c_7h_is_not_a_run() -> None:
    """A run is cards "of one suit": `5H 6C 7H` is a ValueError."""
    with pytest.raises(ValueError):
        Move.parse("5H 6C 7H")


def test_a_run_is_of_consecutive_ranks() -> None:
    """A run is cards "in consecutive ranks": a gap without a joker is a ValueError."""
    for bad in ["5H 6H 8H", "3S 5S 7S", "9C TC JC KC"]:
        with pytest.raises(ValueError):
            Move.parse(bad)


@pytest.mark.parametrize("bad", ["AH 2H 3H", "2H 3H 4H", "KH AH 2H 3H", "AS 2S 3S 4S"])
def test_runs_do_not_wrap_a_2_3_is_not_a_run(bad: str) -> None:
    """Rule: "Runs do not wrap: ... `A 2 3` is not a run."""
    with pytest.raises(ValueError):
        Move.parse(bad)


def test_runs_do_not_wrap_a_joker_cannot_stand_past_the_2() -> None:
    """Rule: "Runs do not wrap": `2H JK=3H 4H` and `AH 2H JK=3H` are not runs."""
    for bad in ["2H JK=3H 4H", "AH 2H JK=3H"]:
        with pytest.raises(ValueError):
            Move.parse(bad)


def _runs_of_three(suit: str) -> list[Move]:
    order = "3456789TJQKA2"
    return [move(" ".join(order[i + k] + suit for k in range(3))) for i in range(11)]


def test_k_a_2_is_the_highest_run_of_three() -> None:
    """Rule: "`K A 2` is the highest run of three"."""
    r = Rules(runs=True, equal_beats=False)
    top = move("KS AS 2S")
    others = [m for s in "CDHS" for m in _runs_of_three(s) if m != top]
    for other in others:
        if {str(c)[0] for c in other.cards} == set("KA2"):
            assert not r.beats(top, other) and not r.beats(other, top)
        else:
            assert r.beats(top, other), other
            assert not r.beats(other, top), other


def test_3_4_5_is_the_lowest_run_of_three() -> None:
    """Rule: "`3 4 5` the lowest" run of three."""
    r = Rules(runs=True, equal_beats=False)
    low = move("3D 4D 5D")
    for other in [m for s in "CDHS" for m in _runs_of_three(s)]:
        if {str(c)[0] for c in other.cards} == set("345"):
            continue
        assert r.beats(other, low), other
        assert not r.beats(low, other), other


def test_a_run_has_no_maximum_length() -> None:
    """Rule: "There is no maximum length": a 13-card run is a run and is legal."""
    whole = " ".join(r + "H" for r in "3456789TJQKA2")
    m = move(whole)
    assert m.kind == "run" and len(m) == 13
    found = legal_set(Rules(runs=True).legal_moves(whole.split()))
    assert m in found
    # every window of 3..13 consecutive hearts is a run: 11 + 10 + ... + 1
    assert sum(1 for x in found if x.kind == "run") == sum(range(1, 12))


@pytest.mark.parametrize(
    "text", ["JK=5H 6H 7H", "5H JK=6H 7H", "5H 6H JK=7H", "JK=3C 4C JK=5C 6C", "9S JK=TS JK=JS QS"]
)
def test_a_joker_can_take_any_place_in_a_run(text: str) -> None:
    """Rule: "A joker can take any place in a run"."""
    m = move(text)
    assert m.kind == "run" and len(m) == len(text.split())


def test_a_joker_can_take_the_place_of_a_card_the_player_holds() -> None:
    """A joker in a run can take "also the place of a card the player holds"."""
    r = Rules(runs=True, jokers=1)
    hand = ["5H", "6H", "7H", "JK"]
    found = legal_set(r.legal_moves(hand))
    for text in ["JK=5H 6H 7H", "5H JK=6H 7H", "5H 6H JK=7H"]:
        assert move(text) in found, text
    deal = Deal.from_hands(r, [hand, ["3C", "4C", "9D", "KD"]], 0)
    deal.play("5H JK=6H 7H")
    assert [str(c) for c in deal.hand(0)] == ["6H"]


def test_a_joker_place_forced_by_a_gap_needs_no_declaration() -> None:
    """A joker's place can be "forced (by a gap between the natural cards ...)"."""
    assert move("5H JK 7H") == move("5H JK=6H 7H")
    assert move("JK 3C 5C") == move("3C JK=4C 5C")
    assert move("4S JK JK 7S") == move("4S JK=5S JK=6S 7S")


def test_a_joker_place_forced_by_the_end_of_the_order_3h_4h_jk_can_only_be_3_4_5() -> None:
    """Rule: "... or by the end of the order: `3H 4H JK` can only be 3-4-5"."""
    assert move("3H 4H JK") == move("3H 4H JK=5H")
    assert move("AH 2H JK") == move("JK=KH AH 2H")
    assert move("3D 4D JK JK") == move("3D 4D JK=5D JK=6D")
    assert move("AC JK JK 2C") == move("JK=QC JK=KC AC 2C")
    assert move("3S JK 5S JK") == move("3S JK=4S 5S JK=6S")


@pytest.mark.parametrize(
    "ambiguous", ["5H 6H JK", "JK 9C TC", "5H 6H JK JK", "4H JK 6H JK", "KS AS JK"]
)
def test_an_unforced_joker_must_be_declared(ambiguous: str) -> None:
    """Rule: "When its place is not forced ..., the player declares it": `5H 6H JK` is ambiguous and
    a ValueError."""
    with pytest.raises(ValueError):
        Move.parse(ambiguous)


def test_declared_places_make_different_runs_5h_6h_jk_eq_7h_versus_jk_eq_4h_5h_6h() -> None:
    """Rule: "`5H 6H JK=7H` (the joker is the 7 of hearts) versus `JK=4H 5H 6H`"."""
    up, down = move("5H 6H JK=7H"), move("JK=4H 5H 6H")
    assert up.kind == down.kind == "run"
    assert up != down
    r = Rules(runs=True, jokers=1, equal_beats=False)
    assert r.beats(up, down) and not r.beats(down, up)


@pytest.mark.parametrize(
    "bad", ["5H 6H JK=8H", "5H 6H JK=7C", "5H 6H JK=6H", "5H 6H JK=JK", "5H 6H JK=7"]
)
def test_a_declared_joker_must_fit_its_run(bad: str) -> None:
    """A declared joker names the card it stands for, which must complete the run."""
    with pytest.raises(ValueError):
        Move.parse(bad)


def test_a_move_is_its_cards_separated_by_spaces_in_any_order() -> None:
    """Rule: "A move is written as its cards separated by spaces, in any order"."""
    assert move("7H 5H 6H") == move("5H 6H 7H") == move("6H 7H 5H")
    assert move("JK 9C") == move("9C JK")
    assert move("JK=7H 5H 6H") == move("5H 6H JK=7H")
    assert move("  9c   9d ") == move("9D 9C")
    assert move("10h jh qh") == move("TH JH QH")


def test_a_pass_is_written_pass() -> None:
    """Rule: "`pass` for a pass"."""
    p = Move.parse("pass")
    assert p == Move.PASS
    assert p.kind == "pass" and len(p) == 0 and p.rank is None
    assert str(p) == "pass"
    assert p.cards == ()


def test_a_joker_in_a_set_is_written_bare_or_with_the_card_it_stands_for() -> None:
    """Rule: "A joker in a set is written bare (`JK`) or as the card it stands for, `JK=<card>`
    of the set's rank and of a suit its natural cards do not have"; the declaration is kept."""
    declared = move("9C JK=9D")
    assert declared != move("9C JK") and declared == move("jk=9d 9c")
    assert str(declared) == "9C JK=9D" and move(str(declared)) is declared
    assert declared.joker_cards == (Card.parse("9D"),) and move("9C JK").joker_cards == ()
    assert declared.rank == move("9C JK").rank and len(declared) == 2 and declared.jokers == 1
    assert str(move("JK JK=3S 3H")) == "3H JK=3S JK"
    for bad in ["9C JK=8D", "9C JK=9C", "9C JK=9H JK=9H", "9C 9D 9H 9S JK=9S"]:
        with pytest.raises(ValueError):
            Move.parse(bad)


@pytest.mark.parametrize("bad", ["5H 5H", "5H 6H 7H 7H", "9C 9C JK", "JK=5H 5H 6H 5H"])
def test_a_duplicated_card_is_no_combination(bad: str) -> None:
    """A move is "written as its cards": a card written twice is a ValueError."""
    with pytest.raises(ValueError):
        Move.parse(bad)


@pytest.mark.parametrize("bad", ["", "hello", "5H,6H", "pass 5H", "5Z", "JK=", "7H JK=XX"])
def test_text_that_is_no_move_is_a_value_error(bad: str) -> None:
    """A move is "its cards separated by spaces ..., `pass` for a pass"; anything else is a
    ValueError."""
    with pytest.raises(ValueError):
        Move.parse(bad)


@pytest.mark.parametrize(
    "text",
    [
        "pass",
        "3C",
        "JK",
        "JK JK",
        "9C JK",
        "9C 9D 9H 9S JK JK",
        "5H 6H JK=7H",
        "JK=4H 5H 6H",
        "3H 4H JK",
        "KS AS 2S",
        "3H JK JK",
        "TD JD QD KD AD 2D",
        "JK=3C 4C JK=5C 6C",
    ],
)
def test_printing_a_move_is_canonical_and_parses_back(text: str) -> None:
    """Rule: "Printing is always the canonical form": `str(move)` parses back to the same move."""
    m = move(text)
    s = str(m)
    assert Move.parse(s) == m
    assert str(Move.parse(s)) == s
    assert hash(Move.parse(s)) == hash(m)
    assert [str(c) for c in m.cards].count("JK") == text.split().count("JK") + text.count("JK=")


def test_move_cards_are_the_cards_played_with_jokers_as_jk() -> None:
    """A move is its cards: `move.cards` holds the natural cards and one `JK` per joker."""
    assert sorted(str(c) for c in move("5H 6H JK=7H").cards) == ["5H", "6H", "JK"]
    assert sorted(str(c) for c in move("9C JK JK").cards) == ["9C", "JK", "JK"]


# --- legal_moves on small hands: every distinct move, each once --------------------------------


def test_legal_moves_lead_lists_every_set_once() -> None:
    """Leading: "the leader plays any combination" (section 3): every set of the hand, no pass."""
    assert legal_set(Rules().legal_moves(["3C", "3D", "5H"])) == moves("3C", "3D", "5H", "3C 3D")
    assert legal_set(Rules().legal_moves(["4C", "4D", "4H"])) == moves(
        "4C", "4D", "4H", "4C 4D", "4C 4H", "4D 4H", "4C 4D 4H"
    )


def test_legal_moves_with_one_joker_and_a_set() -> None:
    """A joker in a set stands for that rank: hand 9C 9D JK."""
    assert legal_set(Rules(jokers=1).legal_moves(["9C", "9D", "JK"])) == moves(
        "9C", "9D", "JK", "9C 9D", "9C JK", "9D JK", "9C 9D JK"
    )


def test_legal_moves_runs_with_a_joker_standing_for_held_cards() -> None:
    """Runs with a joker, "also the place of a card the player holds": hand 5H 6H 7H JK."""
    expected = moves(
        "5H", "6H", "7H", "JK", "5H JK", "6H JK", "7H JK",
        "JK=4H 5H 6H", "5H 6H 7H", "JK=5H 6H 7H", "5H JK=6H 7H", "5H 6H JK=7H", "6H 7H JK=8H",
        "JK=4H 5H 6H 7H", "5H 6H 7H JK=8H",
    )  # fmt: skip
    assert legal_set(Rules(runs=True, jokers=1).legal_moves(["5H", "6H", "7H", "JK"])) == expected


def test_legal_moves_runs_with_two_jokers_filling_a_gap_and_an_end() -> None:
    """Two jokers, one forced into a gap, one declared at an end; a lone natural makes sets."""
    expected = moves(
        "5H", "7H", "JK", "JK JK", "5H JK", "5H JK JK", "7H JK", "7H JK JK",
        "5H JK=6H 7H", "JK=4H 5H JK=6H 7H", "5H JK=6H 7H JK=8H",
    )  # fmt: skip
    assert legal_set(Rules(runs=True, jokers=2).legal_moves(["5H", "7H", "JK", "JK"])) == expected


def test_legal_moves_runs_at_the_bottom_of_the_order() -> None:
    """A joker beside 3-4 can only be the 5 (the end of the order forces it)."""
    expected = moves("3S", "4S", "JK", "3S JK", "4S JK", "3S 4S JK=5S")
    assert legal_set(Rules(runs=True, jokers=1).legal_moves(["3S", "4S", "JK"])) == expected


def test_legal_moves_plain_runs_of_four_cards() -> None:
    """Every run in a hand of four consecutive spades."""
    expected = moves("9S", "TS", "JS", "QS", "9S TS JS", "TS JS QS", "9S TS JS QS")
    assert legal_set(Rules(runs=True).legal_moves(["9S", "TS", "JS", "QS"])) == expected


def test_legal_moves_follow_pile_lists_a_pass_and_what_beats() -> None:
    """Following: "either passes or plays a combination that beats the top of the pile"."""
    hand = ["3C", "3D", "5H", "KS", "KH"]
    assert legal_set(Rules().legal_moves(hand, move("4S"))) == moves("pass", "5H", "KS", "KH")
    assert legal_set(Rules().legal_moves(hand, move("3H"))) == moves(
        "pass", "3C", "3D", "5H", "KS", "KH"
    )
    assert legal_set(Rules(equal_beats=False).legal_moves(hand, move("3H"))) == moves(
        "pass", "5H", "KS", "KH"
    )
    assert legal_set(Rules().legal_moves(hand, move("4C 4D"))) == moves("pass", "KS KH")
    assert legal_set(Rules().legal_moves(hand, move("AC AD"))) == moves("pass")
    assert legal_set(Rules().legal_moves(hand, move("4C 4D 4H"))) == moves("pass")


def test_legal_moves_follow_a_run() -> None:
    """A run is followed only by runs of its length that reach as high."""
    r = Rules(runs=True, jokers=1)
    hand = ["3H", "4H", "5H", "6H", "5D", "JK"]
    assert legal_set(r.legal_moves(hand, move("4C 5C 6C"))) == moves(
        "pass", "4H 5H 6H", "JK=4H 5H 6H", "4H JK=5H 6H", "4H 5H JK=6H", "5H 6H JK=7H"
    )
    assert legal_set(r.legal_moves(hand, move("9C TC JC"))) == moves("pass")
    assert legal_set(r.legal_moves(hand, move("3C 4C 5C 6C"))) == moves(
        "pass", "3H 4H 5H 6H", "JK=3H 4H 5H 6H", "3H JK=4H 5H 6H", "3H 4H JK=5H 6H",
        "3H 4H 5H JK=6H", "4H 5H 6H JK=7H",
    )  # fmt: skip


def test_legal_moves_during_a_revolution() -> None:
    """During a revolution lower ranks beat: on a 4, only the 3 (2 is the lowest)."""
    r = Rules(revolution=True)
    assert legal_set(r.legal_moves(["3C", "5C", "2C"], move("4D"), revolution=True)) == moves(
        "pass", "3C"
    )
    assert legal_set(r.legal_moves(["3C", "5C", "2C"], move("4D"), revolution=False)) == moves(
        "pass", "5C", "2C"
    )


def test_legal_moves_accepts_card_strings_or_cards() -> None:
    """`hand` is any iterable of cards or card strings."""
    from arena.game import Card

    as_text = legal_set(Rules().legal_moves(["3C", "3D"]))
    as_cards = legal_set(Rules().legal_moves([Card.parse("3C"), Card.parse("3D")]))
    as_iter = legal_set(Rules().legal_moves(iter(["3D", "3C"])))
    assert as_text == as_cards == as_iter == moves("3C", "3D", "3C 3D")


@pytest.mark.parametrize(
    ("written", "printed"),
    [
        ("7h 7s", "7H 7S"),
        ("JK=9H 9C", "9C JK=9H"),
        ("JK JK", "JK JK"),
        ("3H 4H JK", "3H 4H JK=5H"),
        ("5H JK 7H", "5H JK=6H 7H"),
        ("AH 2H JK", "JK=KH AH 2H"),
        ("pass", "pass"),
        ("JK 9S 9C 9D", "9C 9D 9S JK"),
        ("7H JK=5H 6H", "JK=5H 6H 7H"),
    ],
)
def test_printing_is_canonical_set_cards_by_rank_then_suit_runs_low_to_high(
    written: str, printed: str
) -> None:
    """Rule: "Printing is always the canonical form"; docs/rules.md fixes it: set cards by rank
    then suit, jokers last; run cards low to high, each joker as `JK=<card>`."""
    assert str(Move.parse(written)) == printed


@pytest.mark.parametrize("bad", ["JK=5H", "JK=5H JK=6H", "JK JK JK", "9C JK JK JK"])
def test_a_set_of_jokers_names_no_card_and_there_are_at_most_two_jokers(bad: str) -> None:
    """Rule: a set made only of jokers "stands for no rank" (so `JK=5H` alone names nothing),
    and the deck holds at most two jokers (section 1)."""
    with pytest.raises(ValueError):
        Move.parse(bad)


@pytest.mark.parametrize(
    ("written", "printed"),
    [("5♥ 6♥ 7♥", "5H 6H 7H"), ("jk=10h jh qh", "JK=TH JH QH"), ("9c jk=9h", "9C JK=9H"),
     ("10♠ 10c", "TC TS")],
)  # fmt: skip
def test_moves_accept_every_card_spelling_the_notation_allows(written: str, printed: str) -> None:
    """Rule (section 1): "Parsing also accepts `10` for `T`, lower case, and the suit symbols",
    in the cards of a move and in a joker's declared card too."""
    assert str(Move.parse(written)) == printed
