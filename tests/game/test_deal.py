"""docs/rules.md section 3: a deal (dealing, turns, leading, following, passing, tricks,
going out)."""

from __future__ import annotations

import pytest

from arena.game import Deal, IllegalMove, Move, Rules

from .helpers import assert_illegal, documented_hands, legal_set, move, moves, names, play


def _deal(hands: list[list[str]], leader: int = 0, **options: object) -> Deal:
    return Deal.from_hands(Rules(**options), hands, leader)  # type: ignore[arg-type]


# --- players and dealing ----------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_a_deal_has_2_to_8_players(players: int) -> None:
    """Rule: "2 to 8 players"."""
    deal = Deal.new(Rules(), players, 11)
    assert sum(len(deal.hand(s)) for s in range(players)) == 52
    assert deal.view(players - 1).seat == players - 1


@pytest.mark.parametrize("players", [0, 1, 9, 12])
def test_fewer_than_2_or_more_than_8_players_is_a_value_error(players: int) -> None:
    """Rule: "2 to 8 players": any other table size is refused with a ValueError."""
    with pytest.raises(ValueError):
        Deal.new(Rules(), players, 11)


def test_the_deck_is_shuffled_from_the_deals_seed() -> None:
    """Rule: "The deck is shuffled from the deal's seed": one seed gives one deal, seeds differ."""
    for jokers in (0, 2):
        r = Rules(jokers=jokers)
        a = [names(Deal.new(r, 4, 2024).hand(s)) for s in range(4)]
        b = [names(Deal.new(r, 4, 2024).hand(s)) for s in range(4)]
        assert a == b
        others = {str([names(Deal.new(r, 4, seed).hand(s)) for s in range(4)]) for seed in range(8)}
        assert len(others) == 8


def test_the_shuffle_is_not_sorted_and_spreads_cards() -> None:
    """The deck is shuffled: seat 0 does not simply get every fourth card of a sorted deck."""
    hands = [Deal.new(Rules(), 4, seed).hand(0) for seed in range(20)]
    assert len({str(names(h)) for h in hands}) == 20
    ranks_in_seat0 = {c.rank for h in hands for c in h}
    assert ranks_in_seat0 == set(range(13))


@pytest.mark.parametrize("jokers", [0, 1, 2])
@pytest.mark.parametrize("players", range(2, 9))
def test_card_i_goes_to_seat_i_plus_d_mod_players_so_every_card_is_dealt(
    players: int, jokers: int
) -> None:
    """Rule: "Dealt one card at a time, card `i` of the shuffled deck going to seat `(i + d) mod
    players` for deal number `d`, so every card is dealt": in deal 0 the first seats get the
    extra cards."""
    deal = Deal.new(Rules(jokers=jokers), players, 5)
    total = 52 + jokers
    assert [len(deal.hand(s)) for s in range(players)] == [
        len(range(s, total, players)) for s in range(players)
    ]


@pytest.mark.parametrize("players", range(2, 9))
def test_the_first_deal_is_led_by_the_holder_of_3c(players: int) -> None:
    """Rule: "The first deal of a match is led by the holder of `3C`."""
    for seed in range(6):
        deal = Deal.new(Rules(jokers=seed % 3), players, seed)
        holder = next(s for s in range(players) if "3C" in names(deal.hand(s)))
        assert deal.to_move == holder
        assert deal.pile is None


# --- turns ------------------------------------------------------------------------------------

FOUR = [["5C", "9C", "KC"], ["6C", "TC", "KD"], ["3C", "7C", "JC"], ["4C", "8C", "QC"]]


def test_turns_go_in_increasing_seat_order_wrapping_around() -> None:
    """Rule: "Turns go in increasing seat order, wrapping around"."""
    deal = _deal(FOUR, leader=2)
    seen = []
    for text in ["3C", "4C", "5C", "6C", "7C", "8C", "9C"]:
        seen.append(deal.to_move)
        deal.play(text)
    assert seen == [2, 3, 0, 1, 2, 3, 0]


def test_turns_skip_players_who_are_out_of_cards() -> None:
    """Turns go round "skipping players who are out of cards"."""
    deal = _deal([["3C", "7C", "9C", "KC"], ["4C"], ["5C", "8C", "TC"]])
    play(deal, "3C", "4C")
    assert deal.finish_order == [1]
    assert deal.to_move == 2
    play(deal, "5C", "7C")
    assert deal.to_move == 2
    play(deal, "8C", "9C")
    assert deal.to_move == 2


# --- leading and following --------------------------------------------------------------------


def test_the_leader_plays_any_combination() -> None:
    """Rule: "Leading: the leader plays any combination"."""
    r = Rules(runs=True, jokers=1)
    hand = ["3C", "3D", "5H", "6H", "7H", "JK", "2S"]
    deal = Deal.from_hands(r, [hand, ["4C", "4D", "9S"]], 0)
    assert legal_set(deal.legal_moves()) == legal_set(r.legal_moves(hand))
    assert Move.PASS not in deal.legal_moves()
    for m in deal.legal_moves():
        trial = deal.copy()
        trial.play(m)
        assert trial.moves[-1] == (0, m)


def test_the_leader_may_not_pass() -> None:
    """Rule: "The leader may not pass."""
    deal = _deal([["3C", "9C"], ["4C", "TC"]])
    assert_illegal(deal, "pass", 2)
    assert_illegal(deal, Move.PASS, 2)
    deal.play("3C")
    deal.play("pass")  # trick ends: seat 0 leads again
    assert deal.to_move == 0 and deal.pile is None
    assert_illegal(deal, "pass", 2)


def test_a_follower_passes_or_plays_a_combination_that_beats_the_top_of_the_pile() -> None:
    """Rule: "Following: each player in turn either passes or plays a combination that beats the top
    of the pile"."""
    r = Rules()
    deal = Deal.from_hands(r, [["6C", "6D", "9C"], ["4C", "5D", "5H", "7S", "7H"]], 0)
    deal.play("6C 6D")
    assert legal_set(deal.legal_moves()) == moves("pass", "7S 7H")
    for bad in ["5D 5H", "7S", "4C", "5D 5H 7S", "9C", "6C 6D"]:
        assert_illegal(deal, bad, 2)
    deal.play("7H 7S")
    assert str(deal.pile) == str(move("7H 7S"))


def test_deal_legal_moves_are_the_rules_legal_moves_of_the_hand_on_the_pile() -> None:
    """Following uses section 4's beating rules on the hand of the player to move."""
    r = Rules(runs=True, jokers=2, revolution=True)
    for seed in range(4):
        deal = Deal.new(r, 4, seed)
        for _ in range(25):
            if deal.finished:
                break
            seat = deal.to_move
            assert seat is not None
            expected = r.legal_moves(deal.hand(seat), deal.pile, deal.revolution)
            assert legal_set(deal.legal_moves()) == legal_set(expected)
            deal.play(sorted(deal.legal_moves(), key=str)[seed % len(deal.legal_moves())])


# --- passing ----------------------------------------------------------------------------------

THREE = [["3C", "9C", "KC"], ["4C", "8C", "QC"], ["5C", "6C", "7C"]]


def test_pass_is_final_defaults_to_false() -> None:
    """Rule: "Passing (option `pass_is_final`, default `false`)"."""
    assert Rules().pass_is_final is False


def test_when_pass_is_not_final_a_player_who_passed_may_play_again_in_the_same_trick() -> None:
    """Rule: "When `false`, a player who passed may play again if the turn comes back to them in the
    same trick"."""
    deal = _deal(THREE, pass_is_final=False)
    play(deal, "3C", "pass", "5C", "pass")
    assert deal.to_move == 1
    assert move("8C") in deal.legal_moves()
    deal.play("8C")
    assert deal.to_move == 2 and str(deal.pile) == "8C"


def test_when_pass_is_final_a_player_who_passed_sits_out_until_the_trick_ends() -> None:
    """Rule: "When `true`, a player who passed sits out until the trick ends."""
    deal = _deal(THREE, pass_is_final=True)
    play(deal, "3C", "pass", "5C", "9C")
    assert deal.to_move == 2  # seat 1 sits out
    play(deal, "pass")
    # seat 0 made the last play; seat 1 sits out and seat 2 passed: the trick is over
    assert deal.to_move == 0 and deal.pile is None
    play(deal, "KC")
    assert deal.to_move == 1  # a new trick: seat 1 plays again
    assert deal.finish_order == [0]
    assert legal_set(deal.legal_moves()) == moves("pass")  # nothing beats the K


def test_when_pass_is_final_the_trick_ends_at_the_last_player_even_if_sitters_could_beat() -> None:
    """Rule: "With `pass_is_final: true`, passed earlier in the trick and sits out": they cannot
    play."""
    deal = _deal([["3C", "4C", "KC"], ["5C", "AC", "AD"], ["6C", "7C", "8C"]], pass_is_final=True)
    play(deal, "3C", "pass", "6C", "pass")
    # seats 1 and 0 passed; seat 2 made the last play
    assert deal.to_move == 2 and deal.pile is None


# --- end of a trick ---------------------------------------------------------------------------


def test_trick_ends_when_every_other_holder_has_passed_since_the_last_play() -> None:
    """Rule: "The trick ends when ... each other player still holding cards has passed since the
    last play ... The player who made the last play leads the next trick."""
    deal = _deal(THREE)
    play(deal, "3C", "pass", "pass")
    assert deal.to_move == 0 and deal.pile is None
    deal = _deal(THREE)
    play(deal, "3C", "pass", "5C", "pass")
    assert deal.pile is not None  # seat 1 has not passed since 5C
    play(deal, "pass")
    assert deal.to_move == 2 and deal.pile is None


def test_the_player_who_made_the_last_play_leads_the_next_trick() -> None:
    """Rule: "The player who made the last play leads the next trick."""
    deal = _deal(FOUR, leader=2)
    play(deal, "3C", "4C", "pass", "pass", "pass")
    assert deal.to_move == 3 and deal.pile is None
    assert Move.PASS not in deal.legal_moves()


def test_a_clearing_combination_ends_the_trick_at_once_and_its_player_leads_again() -> None:
    """Rule: "A combination that clears the pile (section 6) ends the trick at once, and its player
    leads again."""
    deal = _deal([["3C", "2C", "4D"], ["5C", "6D", "7D"], ["4C", "8D", "9D"]])
    play(deal, "3C", "5C", "pass", "2C")
    assert deal.to_move == 0 and deal.pile is None
    assert Move.PASS not in deal.legal_moves()


# --- going out and the last place --------------------------------------------------------------


def test_a_player_who_plays_their_last_card_goes_out_and_takes_the_next_finishing_place() -> None:
    """Rule: "A player who plays their last card goes out and takes the next finishing place"."""
    deal = _deal([["3C", "TC"], ["4C"], ["5C", "9D"], ["6C", "8H", "9H"]])
    play(deal, "3C", "4C")
    assert deal.finish_order == [1]
    play(deal, "5C", "6C", "TC")
    assert deal.finish_order == [1, 0]
    assert deal.hand(0) == [] and deal.hand(1) == []


def test_going_out_does_not_end_the_trick() -> None:
    """Rule: "Going out does not end the trick"."""
    deal = _deal([["3C"], ["4C", "9D", "TD"], ["5C", "9H", "TH"]])
    play(deal, "3C")
    assert deal.finish_order == [0]
    assert deal.to_move == 1 and str(deal.pile) == "3C"
    play(deal, "4C", "5C", "pass")
    assert deal.to_move == 2 and deal.pile is None


def test_a_trick_cleared_by_a_player_who_went_out_is_led_by_the_next_player_holding_cards() -> None:
    """Rule: "Whenever a trick ends (by passes or by clearing) and the player who made its last play
    is out, the next player after that player in seat order who still holds cards leads."""
    deal = _deal([["3C", "2C"], ["4C", "9D", "TD"], ["5C", "9H", "TH"]])
    play(deal, "3C", "4C", "pass", "2C")
    assert deal.finish_order == [0]
    assert deal.to_move == 1 and deal.pile is None
    deal = _deal([["4C", "9D", "TD"], ["3C", "2C"], ["5C", "9H", "TH"], ["6S", "7S", "8S"]], 1)
    play(deal, "3C", "5C", "6S", "9D", "2C")
    assert deal.finish_order == [1]
    assert deal.to_move == 2 and deal.pile is None


def test_a_trick_ended_by_passes_after_its_last_player_went_out_is_led_by_the_next_holder() -> None:
    """Rule: "Whenever a trick ends (by passes ...) and the player who made its last play is out,
    the next player after that player in seat order who still holds cards leads."""
    hands = [["3C", "9C", "TC"], ["4C", "9D", "TD"], ["5C"], ["6C", "9H", "TH"]]
    deal = _deal(hands, pass_is_final=True)
    play(deal, "3C", "pass", "5C")  # seat 2 goes out; seat 1 sits out
    assert deal.finish_order == [2]
    play(deal, "pass", "pass")  # seats 3 and 0 pass: nobody else can play
    assert deal.to_move == 3 and deal.pile is None
    deal = _deal(hands)
    play(deal, "3C", "pass", "5C", "pass", "pass", "pass")
    assert deal.to_move == 3 and deal.pile is None


def test_when_one_player_is_left_holding_cards_they_take_last_place_and_the_deal_ends() -> None:
    """Rule: "When one player is left holding cards, they take last place and the deal ends."""
    deal = _deal([["3C"], ["4C", "5C"]])
    play(deal, "3C")
    assert deal.finished
    assert deal.finish_order == [0, 1]
    assert deal.to_move is None
    assert deal.legal_moves() == []
    assert_illegal(deal, "4C", 2)
    deal = _deal([["3C"], ["4C"], ["5C", "6C"]])
    play(deal, "3C", "4C")
    assert deal.finished and deal.finish_order == [0, 1, 2]


def test_every_move_is_recorded_and_the_finishing_order_is_the_result() -> None:
    """Rule: "Every move is recorded; the finishing order is the deal's result."""
    deal = _deal(THREE)
    script = ["3C", "pass", "5C", "9C", "QC", "pass", "pass"]
    seats = []
    for text in script:
        seats.append(deal.to_move)
        deal.play(text)
    assert deal.moves == [(s, move(t)) for s, t in zip(seats, script, strict=True)]
    assert not deal.finished and deal.finish_order == []
    while not deal.finished:
        plays = [m for m in deal.legal_moves() if m != Move.PASS]
        deal.play(plays[0] if plays else Move.PASS)
    assert sorted(deal.finish_order) == [0, 1, 2]
    assert len(deal.moves) > len(script)


def test_an_illegal_move_raises_illegal_move_with_a_reason_and_leaves_the_deal_unchanged() -> None:
    """Deal API: `play` raises `IllegalMove` (a `ValueError`) with the reason; state unchanged."""
    deal = _deal(THREE)
    assert issubclass(IllegalMove, ValueError)
    for bad in ["4C", "KD", "3C 9C", "2S", "JK", "nonsense", "", "5H 6H JK", "pass"]:
        assert_illegal(deal, bad, 3)
    deal.play("3C")
    for bad in ["3C", "5C 6C", "5C 6C 7C", "KD"]:
        assert_illegal(deal, bad, 3)


@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_shuffle_is_the_engines_own_fixed_and_documented_algorithm(players: int) -> None:
    """Rule: "The deck is shuffled from the deal's seed (the algorithm is the engine's own, fixed
    and documented)": Deal.new deals exactly what docs/rules.md's SplitMix64 shuffle gives."""
    for jokers in (0, 2):
        for seed in (0, 1, 12345, 2**64 - 1):
            deal = Deal.new(Rules(jokers=jokers), players, seed)
            hands = [names(deal.hand(s)) for s in range(players)]
            assert hands == documented_hands(seed, 0, players, jokers)


def test_from_hands_refuses_hands_no_deal_could_have() -> None:
    """A deal's cards come from one deck (section 1): a card in two hands, more jokers than the
    rules have, or a leader without cards is a ValueError naming the problem."""
    with pytest.raises(ValueError, match="3C"):
        Deal.from_hands(Rules(), [["3C", "4C"], ["3C", "5C"]], 0)
    with pytest.raises(ValueError, match="joker"):
        Deal.from_hands(Rules(jokers=1), [["JK", "4C"], ["JK", "5C"]], 0)
    with pytest.raises(ValueError, match="leader"):
        Deal.from_hands(Rules(), [["3C", "4C"], ["5C"]], 2)
    with pytest.raises(ValueError):
        Rules().legal_moves(["3C", "3C"])
