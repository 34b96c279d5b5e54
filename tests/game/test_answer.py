"""The one judge of an answer: every reason, judged on the seat's view exactly as the engine
refuses it in play, and the words the referee records.

Each case builds a position, asks ``judge_move`` (the web seat's and the terminal's judge)
for its verdict on an answer, and plays the same answer on the deal, where the engine's
``IllegalMove`` must give the same reason; ``play_move`` (the referee's and the
environments' judge) must say the same on a match.
"""

from __future__ import annotations

from typing import Any

import pytest

from arena.game import (
    AnswerError,
    Deal,
    IllegalMove,
    Match,
    Move,
    Rules,
    give_cards,
    judge_cards,
    judge_move,
    play_move,
    read_cards,
    read_move,
)

# (rules, hands, plays before the answer, the answer, its reason after "MOVE: ")
ILLEGAL: dict[str, tuple[dict[str, Any], list[str], list[str], str, str]] = {
    "lead pass": ({}, ["3C 5D", "4C 6D"], [], "pass", "the leader may not pass"),
    "not held": ({}, ["3C 5D", "4C 6D"], [], "7H", "seat 0 does not hold 7H"),
    "joker not held": ({"jokers": 1}, ["3C 5D JK", "4C 6D"], ["3C"], "JK",
                       "seat 1 does not hold JK"),
    "runs off": ({}, ["3C 4C 5C 9D", "6D"], [], "3C 4C 5C",
                 "runs are not played under these rules (option runs: false)"),
    "kind": ({"runs": True}, ["3C 9D", "4D 5D 6D 7C"], ["3C"], "4D 5D 6D",
             "a run cannot be played on a set"),
    "size": ({}, ["3C 3D 9D", "4C 4D 4H 7C"], ["3C 3D"], "4C 4D 4H",
             "a set of 2 is beaten only by a set of 2"),
    "joker set": ({"jokers": 1, "equal_beats": False}, ["JK 9D", "2S 7C"], ["JK"], "2S",
                  "only an equal set of jokers may follow a set of jokers, and equal plays "
                  "are off (equal_beats: false)"),
    "runs above": ({"runs": True, "runs_above": True}, ["3C 4C 5C 9D", "5D 6D 7D 8C"],
                   ["3C 4C 5C"], "5D 6D 7D",
                   "a run must lie entirely above the run on the pile (runs_above: true)"),
    "equal off": ({"equal_beats": False}, ["5C 9D", "5D 7C"], ["5C"], "5D",
                  "equal plays are off (equal_beats: false)"),
    "too low": ({}, ["5C 9D", "4D 7C"], ["5C"], "4D", "it does not beat the pile"),
    "revolution": ({"revolution": True}, ["5C 5D 5H 5S KH", "6C AH 3D", "7C 4D 9S"],
                   ["5C 5D 5H 5S", "pass", "pass", "KH"], "AH",
                   "it does not beat the pile during the revolution"),
    "suit lock": ({"suit_lock": True}, ["3H 9C", "4H 8C", "5C 7D"], ["3H", "4H"], "5C",
                  "the suits are locked to H (suit_lock: true)"),
}


def _deal(rules: dict[str, Any], hands: list[str], plays: list[str]) -> Deal:
    deal = Deal.from_hands(Rules(**rules), [hand.split() for hand in hands], leader=0)
    for move in plays:
        deal.play(move)
    return deal


@pytest.mark.parametrize("case", ILLEGAL, ids=list(ILLEGAL))
def test_each_reason_is_the_engines_word_for_word(case: str) -> None:
    rules, hands, plays, answer, reason = ILLEGAL[case]
    deal = _deal(rules, hands, plays)
    seat = deal.to_move
    assert seat is not None
    with pytest.raises(AnswerError) as judged:
        judge_move(deal.view(seat), answer)
    assert (judged.value.kind, str(judged.value)) == ("illegal", f"{answer}: {reason}")
    with pytest.raises(IllegalMove) as refused:
        deal.play(answer)
    assert f"{Move.parse(answer)}: {refused.value}" == str(judged.value)


def test_a_legal_answer_is_the_move_and_the_engine_plays_it() -> None:
    deal = _deal({"suit_lock": True}, ["3H 9C", "4H 8C", "5H 7D"], ["3H", "4H"])
    move = judge_move(deal.view(2), " 5H")
    assert move == Move.parse("5H")
    deal.play(move)


@pytest.mark.parametrize(("answer", "reason"), [
    (5, "expected a move as text, got 5"),
    (None, "expected a move as text, got None"),
    ("x" * 300, "not a move: '" + "x" * 199 + "..."),  # quoted, cut at 200 characters
    ("ZZ", "not a move: 'ZZ' ("),
])
def test_what_is_no_move_is_malformed(answer: object, reason: str) -> None:
    deal = _deal({}, ["3C 5D", "4C 6D"], [])
    with pytest.raises(AnswerError) as judged:
        judge_move(deal.view(0), answer)
    assert judged.value.kind == "malformed"
    assert str(judged.value).startswith(reason)
    with pytest.raises(AnswerError) as read:
        read_move(answer)
    assert str(read.value) == str(judged.value)


def _exchange_match() -> tuple[Match, int, int]:
    match = Match(Rules(rounds=2), 4, seed=11)
    while match.pending is not None and match.pending.kind == "play":
        match.play(match.deal.legal_moves()[0])
    decision = match.pending
    assert decision is not None and decision.kind == "exchange"
    return match, decision.seat, decision.count


@pytest.mark.parametrize(("answer", "kind", "reason"), [
    ("3C", "malformed", "expected a list of cards, got '3C'"),
    ([5], "malformed", "not a card: 5"),
    (["ZZ"], "malformed", "not a card: 'ZZ' ("),
    ([], "illegal", "exchange []: give back exactly {count} card(s), not 0"),
    ("not held", "illegal", "exchange [{cards}]: seat {seat} does not hold {cards}"),
])
def test_each_exchange_reason_is_the_engines(answer: object, kind: str, reason: str) -> None:
    match, seat, count = _exchange_match()
    view = match.view(seat)
    if answer == "not held":
        others = [c for c in match.deal.view((seat + 1) % 4).hand][:count]
        answer = [str(c) for c in others]
    cards = " ".join(answer) if isinstance(answer, list) and answer and isinstance(
        answer[0], str) else ""
    expected = reason.format(count=count, seat=seat, cards=cards)
    with pytest.raises(AnswerError) as judged:
        judge_cards(view, count, answer)
    assert judged.value.kind == kind and str(judged.value).startswith(expected)
    with pytest.raises(AnswerError) as played:
        give_cards(match, answer)
    assert (played.value.kind, str(played.value)) == (kind, str(judged.value))
    if kind == "malformed":
        with pytest.raises(AnswerError):
            read_cards(answer)


def test_play_move_on_a_match_says_what_the_judge_of_the_view_says() -> None:
    match = Match(Rules(), 3, seed=5)
    seat = match.pending.seat if match.pending is not None else 0
    held = match.view(seat).hand
    missing = next(m for m in ("2S", "2H", "2D", "2C", "AS") if Move.parse(m).cards[0]
                   not in held)
    with pytest.raises(AnswerError) as judged:
        judge_move(match.view(seat), missing)
    with pytest.raises(AnswerError) as played:
        play_move(match, missing)
    assert str(played.value) == str(judged.value) == f"{missing}: seat {seat} does not hold " \
                                                       f"{missing}"
    legal = match.deal.legal_moves()[0]
    assert play_move(match, legal.text) == legal
