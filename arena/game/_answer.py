"""The one judge of an answer: what a player sent (text, a move, cards) to what the rules
accept, or the reason why not.

Every seat's answer goes through here: the referee and the learning environments play a
bot's answer on the match with :func:`play_move` and :func:`give_cards` (read with
:func:`read_move` and :func:`read_cards`, then played by the engine, whose
:class:`IllegalMove` says why not); a person's seat on the web and in the terminal judges
an answer against the seat's view with :func:`judge_move` and :func:`judge_cards`
before it is sent, in the same words. :class:`AnswerError` carries the fault's kind
(``malformed``: not a move, or not cards; ``illegal``: the rules do not allow it now).
This module is not compiled (setup.py): an answer is judged once per decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ._cards import Card, cards_of, parse_hand
from ._deal import IllegalMove
from ._judge import judge_of
from ._match import Match
from ._moves import PASS, Move
from ._rules import trick_lock
from ._view import View

__all__ = ["AnswerError", "give_cards", "judge_cards", "judge_move", "play_move", "read_cards",
           "read_move"]

MALFORMED: Final = "malformed"
ILLEGAL: Final = "illegal"
_SHORT: Final = 200  # characters of a bad answer quoted in the reason


class AnswerError(ValueError):
    """An answer the rules refuse; ``str(error)`` is the reason, :attr:`kind` the fault
    (``"malformed"`` or ``"illegal"``)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


def short(value: object, limit: int = _SHORT) -> str:
    """``repr(value)``, cut at ``limit`` characters: how a bad answer is quoted."""
    try:
        text = repr(value)
    except Exception:  # a bot's object whose repr fails is still just a bad answer
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def read_move(answer: object, parse: Callable[[str], Move] = Move.parse) -> Move:
    """The move an answer names (a :class:`Move`, or its text read by ``parse``); a
    ``malformed`` :class:`AnswerError` for anything else."""
    if answer.__class__ is Move:
        return answer  # type: ignore[return-value]
    if not isinstance(answer, str):
        raise AnswerError(MALFORMED, f"expected a move as text, got {short(answer)}")
    try:
        return parse(answer)
    except Exception as exc:  # whatever the parser trips on, the text is the player's
        raise AnswerError(MALFORMED, f"not a move: {short(answer)} ({exc})") from None


def read_cards(answer: object) -> list[Card]:
    """The cards an answer names (a list or tuple of cards or their texts); a ``malformed``
    :class:`AnswerError` for anything else."""
    if not isinstance(answer, list | tuple):
        raise AnswerError(MALFORMED, f"expected a list of cards, got {short(answer)}")
    cards = []
    for item in answer:
        if not isinstance(item, Card | str):
            raise AnswerError(MALFORMED, f"not a card: {short(item)}")
        try:
            cards.append(Card.parse(item))
        except Exception as exc:  # whatever the parser trips on, the text is the player's
            raise AnswerError(MALFORMED, f"not a card: {short(item)} ({exc})") from None
    return cards


def why_not(view: View, move: Move) -> str | None:
    """Why the seat of ``view`` may not play ``move`` now, or None when it may: the
    engine's own judgement (``Judge.refusal``, which :meth:`arena.game.Deal.play` raises),
    asked with what the view shows."""
    mask, jokers = view.hand_bits
    lock = trick_lock(view.rules, view.trick)[0] if move.kind != PASS else 0
    return judge_of(view.rules).refusal(view.seat, mask, jokers, move, view.pile,
                                        view.revolution, lock)


def judge_move(view: View, answer: object, parse: Callable[[str], Move] = Move.parse) -> Move:
    """The move ``answer`` names, if the seat of ``view`` may play it now; else an
    :class:`AnswerError`: ``malformed`` (:func:`read_move`) or ``illegal``, whose reason
    is the referee's fault detail for that answer (``MOVE: the rules' reason``)."""
    move = read_move(answer, parse)
    reason = why_not(view, move)
    if reason is not None:
        raise AnswerError(ILLEGAL, f"{move}: {reason}")
    return move


def judge_cards(view: View, count: int, answer: object) -> list[Card]:
    """The ``count`` cards ``answer`` gives back from the hand of ``view``'s seat; else an
    :class:`AnswerError`: ``malformed`` (:func:`read_cards`) or ``illegal``, in the
    referee's words (``exchange [CARDS]: the reason``)."""
    cards = read_cards(answer)
    mask, _, jokers = parse_hand(cards)
    given = cards_of(mask, jokers)
    reason = None
    if len(given) != count:
        reason = f"give back exactly {count} card(s), not {len(given)}"
    else:
        held, held_jokers = view.hand_bits
        if mask & ~held or jokers > held_jokers:
            reason = f"seat {view.seat} does not hold {' '.join(map(str, given))}"
    if reason is not None:
        raise AnswerError(ILLEGAL, f"exchange [{' '.join(map(str, cards))}]: {reason}")
    return cards


def play_move(match: Match, answer: object, parse: Callable[[str], Move] = Move.parse) -> Move:
    """Play ``answer`` (:func:`read_move`) for the seat to move; an :class:`AnswerError`
    (``malformed``, or ``illegal``: ``MOVE: the engine's reason``) leaves the match as it
    was. Returns the move played."""
    move = answer if answer.__class__ is Move else read_move(answer, parse)
    try:
        match.play(move)  # type: ignore[arg-type]  # a Move, read above
    except IllegalMove as exc:
        raise AnswerError(ILLEGAL, f"{move}: {exc}") from None
    return move


def give_cards(match: Match, answer: object) -> list[Card]:
    """Give back ``answer`` (:func:`read_cards`) for the pending exchange; an
    :class:`AnswerError` (``malformed``, or ``illegal``: ``exchange [CARDS]: the engine's
    reason``) leaves the match as it was. Returns the cards as read."""
    cards = read_cards(answer)
    try:
        match.give(cards)
    except IllegalMove as exc:
        raise AnswerError(ILLEGAL, f"exchange [{' '.join(map(str, cards))}]: {exc}") from None
    return cards
