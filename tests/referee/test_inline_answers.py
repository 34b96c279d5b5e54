"""An inline bot's answer is judged in the same words whatever form it takes.

The match loop plays an answer that is a :class:`Move` straight on the match
(``arena.referee.loop._loop``), the common case; a refused one, or any other answer, goes
through ``arena.game.play_move``, the one judge. The record's fault is the same either way,
compiled engine or pure.
"""

from __future__ import annotations

from typing import Any

from arena import Bot
from arena.game import CARDS, Move, View
from arena.referee import InlineHost, run_match
from tests.matchspecs import table_spec
from tests.recordtools import record_faults


class _Cheater(Bot):
    """Leads a single card it does not hold, as a Move or as its text."""

    def __init__(self, as_text: bool) -> None:
        self.as_text = as_text

    def play(self, view: View) -> Move | str:
        held = {str(card) for card in view.hand}
        missing = next(str(card) for card in CARDS if str(card) not in held)
        return missing if self.as_text else Move.parse(missing)


class _Lowest(Bot):
    def play(self, view: View) -> Move:
        return view.legal_moves()[0]


def _faults(as_text: bool) -> list[dict[str, Any]]:
    bots: list[Bot] = [_Cheater(as_text), _Lowest(), _Lowest(), _Lowest()]
    spec = table_spec([{"label": f"b{seat}", "name": "random"} for seat in range(4)],
                      hosts=[InlineHost.from_bot(bot) for bot in bots], rounds=2,
                      rules={"on_fault": "pass"})
    record = run_match(spec, hosts=[InlineHost.from_bot(bot) for bot in bots])
    return record_faults(record)


def test_an_illegal_move_object_is_refused_in_the_words_of_its_text() -> None:
    as_move, as_text = _faults(as_text=False), _faults(as_text=True)
    assert as_move and as_move == as_text
    assert {fault["kind"] for fault in as_move} == {"illegal"}
    first = as_move[0]["detail"]
    card = first.split(":")[0]
    assert first == f"{card}: seat 0 does not hold {card}", first
