"""Rebuilding a :class:`arena.game.View` from the JSON a child process receives."""

from __future__ import annotations

from typing import Any

from arena.game import Move, Rules, View
from arena.game._cards import parse_hand

__all__ = ["view_from_dict", "view_to_wire"]


_MOVES: dict[str, Move] = {}
_MOVE_CACHE_SIZE = 1 << 16


def _move(text: str) -> Move:
    """``Move.parse`` with a memo: a deal's plays come back in every view."""
    move = _MOVES.get(text)
    if move is None:
        move = Move.parse(text)
        if len(_MOVES) < _MOVE_CACHE_SIZE:
            _MOVES[text] = move
    return move


def view_to_wire(view: View) -> dict[str, Any]:
    """The view as sent in a request: ``view.to_dict()`` minus the rules, sent once at start."""
    data = view.to_dict()
    del data["rules"]
    return data


def view_from_dict(data: dict[str, Any], rules: Rules | None = None) -> View:
    """The :class:`View` that ``view.to_dict()`` described, with working ``legal_moves()``.

    ``rules`` stands in for a ``"rules"`` entry the data leaves out (the
    protocol sends the rules once, in ``start``). Uses ``View.from_dict``
    when the game package provides it; otherwise rebuilds the view field by
    field from the same public data.
    """
    if rules is None:
        rules = Rules.from_dict(data["rules"])
    from_dict = getattr(View, "from_dict", None)
    if from_dict is not None:
        view: View = from_dict({**data, "rules": rules.to_dict()})
        return view
    view = View.__new__(View)
    players = data["players"]
    mask, smask, jokers = parse_hand(data["hand"])
    view.seat = data["seat"]
    view.rules = rules
    view.number = data["deal"]
    view.players = len(players)
    view.to_move = data["to_move"]
    view.pile = None if data["pile"] is None else _move(data["pile"])
    view.revolution = data["revolution"]
    view._mask = mask  # type: ignore[attr-defined]
    view._smask = smask  # type: ignore[attr-defined]
    view._jokers = jokers  # type: ignore[attr-defined]
    view.counts = tuple(p["cards"] for p in players)
    view.passed = tuple(p["passed"] for p in players)
    view.sat_out = tuple(p["sat_out"] for p in players)
    view.trick = tuple((t["seat"], _move(t["move"])) for t in data["trick"])
    view.plays = tuple((t["seat"], _move(t["move"])) for t in data["plays"])
    view.finish_order = tuple(data["finish_order"])
    view.roles = tuple(p["role"] for p in players)
    view.scores = tuple(p["score"] for p in players)
    exchange = data.get("exchange")
    view._exchange = (  # type: ignore[attr-defined]
        None if exchange is None else (
            [_card(c) for c in exchange["gave"]], [_card(c) for c in exchange["received"]]
        )
    )
    return view


def _card(text: str) -> Any:
    from arena.game import Card

    return Card.parse(text)
