"""Every reason the rules give for refusing an answer has a code a page translates
(``AnswerError.code``), and the English reason, the records' and bots' words, is unchanged."""

from __future__ import annotations

import pytest

from arena.game import AnswerError, Move, Rules
from arena.game._answer import REFUSALS, refusal_code
from arena.game._judge import judge_of

# (rules options, move, pile, revolution, suit lock) -> the code of the judge's reason
CASES = [
    ({}, "pass", None, False, 0, "leader_pass"),
    ({"runs": False}, "5H 6H 7H", None, False, 0, "no_runs"),
    ({"jokers": 0}, "JK", None, False, 0, "jokers"),
    ({"runs": True}, "5H 6H 7H", "4S", False, 0, "run_on_set"),
    ({"runs": True}, "8S", "3H 4H 5H", False, 0, "set_on_run"),
    ({}, "8S 8H", "4S", False, 0, "set_size"),
    ({"runs": True}, "5H 6H 7H 8H", "3S 4S 5S", False, 0, "run_size"),
    ({"jokers": 1, "equal_beats": True}, "8S", "JK", False, 0, "joker_set"),
    ({"jokers": 1, "equal_beats": False}, "8S", "JK", False, 0, "joker_set_no_equal"),
    ({"runs": True, "runs_above": True}, "5H 6H 7H", "4S 5S 6S", False, 0, "run_above"),
    ({"runs": True, "runs_above": True}, "5H 6H 7H", "6S 7S 8S", True, 0, "run_below"),
    ({"equal_beats": False}, "8S", "8H", False, 0, "no_equal"),
    ({}, "5S", "8H", False, 0, "not_beat"),
    ({"revolution": True}, "9S", "8H", True, 0, "not_beat_revolution"),
    ({"suit_lock": True}, "9S", "8H", False, 0b0100, "suit_lock"),
]


@pytest.mark.parametrize("options, move, pile, revolution, lock, code", CASES,
                         ids=[case[-1] for case in CASES])
def test_each_reason_of_the_judge_has_its_code(options: dict[str, object], move: str,
                                               pile: str | None, revolution: bool, lock: int,
                                               code: str) -> None:
    rules = Rules.preset("standard", **options)
    reason = judge_of(rules).why_not(Move.parse(move), None if pile is None else
                                     Move.parse(pile), revolution, lock)
    assert reason is not None
    assert refusal_code("illegal", reason)[0] == f"illegal.{code}", reason


def test_every_code_is_tried_above() -> None:
    assert {code for code, _ in REFUSALS} - {f"illegal.{case[-1]}" for case in CASES} == {
        "illegal.not_held", "illegal.give_count",  # the hand's and the exchange's, below
        "malformed.several_ranks", "malformed.not_consecutive", "malformed.short_run"}


@pytest.mark.parametrize("text, code", [("3C 5D", "malformed.several_ranks"),
                                        ("3C 4C 6C", "malformed.not_consecutive"),
                                        ("3C 4C", "malformed.short_run"),
                                        ("ZZ", "malformed")])
def test_a_pick_of_cards_that_is_no_move_has_its_code(text: str, code: str) -> None:
    from arena.game._answer import read_move

    with pytest.raises(AnswerError) as caught:
        read_move(text)
    assert caught.value.code == code and str(caught.value).startswith(f"not a move: {text!r}")


def test_the_values_are_the_reasons_own_and_the_english_is_unchanged() -> None:
    error = AnswerError("illegal", "KH QS: seat 2 does not hold KH QS",
                        "seat 2 does not hold KH QS")
    assert str(error) == "KH QS: seat 2 does not hold KH QS"
    assert (error.code, error.values) == ("illegal.not_held", {"cards": "KH QS"})
    assert refusal_code("illegal", "give back exactly 2 card(s), not 3") == (
        "illegal.give_count", {"count": "2", "given": "3"})
    assert refusal_code("illegal", "the suits are locked to HS (suit_lock: true)") == (
        "illegal.suit_lock", {"suits": "HS"})
    assert refusal_code("illegal", "something else") == ("illegal", {})
    assert AnswerError("malformed", "not a move: 'ZZ'").code == "malformed"
