"""The one judge of an answer: what a player sent (text, a move, cards) to what the rules
accept, or the reason why not.

Every seat's answer goes through here: the referee and the learning environments play a
bot's answer on the match with :func:`play_move` and :func:`give_cards` (read with
:func:`read_move` and :func:`read_cards`, then played by the engine, whose
:class:`IllegalMove` says why not); a person's seat on the web and in the terminal judges
an answer against the seat's view with :func:`judge_move` and :func:`judge_cards`
before it is sent, in the same words. :class:`AnswerError` carries the fault's kind
(``malformed``: not a move, or not cards; ``illegal``: the rules do not allow it now),
and the reason's :attr:`~AnswerError.code` and values, which a page in another language
translates (the English reason stays the records' and the bots' words).
This module is not compiled (setup.py): an answer is judged once per decision.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from ._cards import Card, cards_of, parse_hand
from ._deal import IllegalMove
from ._judge import judge_of
from ._match import Match
from ._moves import PASS, Move
from ._rules import trick_lock
from ._view import View

__all__ = ["REFUSALS", "AnswerError", "give_cards", "judge_cards", "judge_move", "play_move",
           "read_cards", "read_move", "refusal_code"]

MALFORMED: Final = "malformed"
ILLEGAL: Final = "illegal"
_SHORT: Final = 200  # characters of a bad answer quoted in the reason

REFUSALS: Final[tuple[tuple[str, str], ...]] = (
    ("illegal.leader_pass", r"the leader may not pass"),
    ("illegal.not_held", r"seat \d+ does not hold (?P<cards>.+)"),
    ("illegal.no_runs", r"runs are not played under these rules \(option runs: false\)"),
    ("illegal.jokers", r"these rules have (?P<count>\d+) joker\(s\)"),
    ("illegal.set_on_run", r"a set cannot be played on a run"),
    ("illegal.run_on_set", r"a run cannot be played on a set"),
    ("illegal.set_size", r"a set of (?P<size>\d+) is beaten only by a set of \d+"),
    ("illegal.run_size", r"a run of (?P<size>\d+) is beaten only by a run of \d+"),
    ("illegal.joker_set_no_equal", r"only an equal set of jokers may follow a set of jokers, "
                                   r"and equal plays are off \(equal_beats: false\)"),
    ("illegal.joker_set", r"only an equal set of jokers may follow a set of jokers"),
    ("illegal.run_above", r"a run must lie entirely above the run on the pile "
                          r"\(runs_above: true\)"),
    ("illegal.run_below", r"a run must lie entirely below the run on the pile "
                          r"\(runs_above: true\)"),
    ("illegal.no_equal", r"equal plays are off \(equal_beats: false\)"),
    ("illegal.not_beat_revolution", r"it does not beat the pile during the revolution"),
    ("illegal.not_beat", r"it does not beat the pile"),
    ("illegal.suit_lock", r"the suits are locked to (?P<suits>[CDHS]+) \(suit_lock: true\)"),
    ("illegal.give_count", r"give back exactly (?P<count>\d+) card\(s\), not (?P<given>\d+)"),
    ("malformed.several_ranks", r"not a move: .* \(cards of several ranks must be a run of "
                                r"one suit: .*\)"),
    ("malformed.not_consecutive", r"not a move: .* \(not consecutive ranks.*\)"),
    ("malformed.short_run", r"not a move: .* \(a run needs at least three cards: .*\)"),
)
"""The rules' reasons for refusing an answer (the judge's words, :mod:`arena.game._judge`,
the exchange's, and a few of the move parser's), each with its code (``KIND.CODE``), the
pattern's named groups its values. A page translates the code; the English reason is
unchanged."""
_PATTERNS: Final = tuple((code, re.compile(pattern)) for code, pattern in REFUSALS)


def refusal_code(kind: str, reason: str) -> tuple[str, dict[str, str]]:
    """The code of a refusal's reason (``illegal.not_beat``, ``malformed``) and its values;
    a reason of no known form is its kind alone (``illegal``), with none."""
    for code, pattern in _PATTERNS:
        if code.startswith(kind + ".") and (found := pattern.fullmatch(reason)):
            return code, {k: v for k, v in found.groupdict().items() if v is not None}
    return kind, {}


class AnswerError(ValueError):
    """An answer the rules refuse; ``str(error)`` is the reason, :attr:`kind` the fault
    (``"malformed"`` or ``"illegal"``), :attr:`code` and :attr:`values` the rules' reason
    as :func:`refusal_code` names it (``rule``: the reason without the answer quoted)."""

    def __init__(self, kind: str, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.code, self.values = refusal_code(kind, reason if rule is None else rule)


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
        raise AnswerError(ILLEGAL, f"{move}: {reason}", reason)
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
        raise AnswerError(ILLEGAL, f"exchange [{' '.join(map(str, cards))}]: {reason}", reason)
    return cards


def play_move(match: Match, answer: object, parse: Callable[[str], Move] = Move.parse) -> Move:
    """Play ``answer`` (:func:`read_move`) for the seat to move; an :class:`AnswerError`
    (``malformed``, or ``illegal``: ``MOVE: the engine's reason``) leaves the match as it
    was. Returns the move played."""
    move = answer if answer.__class__ is Move else read_move(answer, parse)
    try:
        match.play(move)  # type: ignore[arg-type]  # a Move, read above
    except IllegalMove as exc:
        raise AnswerError(ILLEGAL, f"{move}: {exc}", str(exc)) from None
    return move


def give_cards(match: Match, answer: object) -> list[Card]:
    """Give back ``answer`` (:func:`read_cards`) for the pending exchange; an
    :class:`AnswerError` (``malformed``, or ``illegal``: ``exchange [CARDS]: the engine's
    reason``) leaves the match as it was. Returns the cards as read."""
    cards = read_cards(answer)
    try:
        match.give(cards)
    except IllegalMove as exc:
        raise AnswerError(ILLEGAL, f"exchange [{' '.join(map(str, cards))}]: {exc}",
                          str(exc)) from None
    return cards
