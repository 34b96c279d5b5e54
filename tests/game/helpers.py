"""Small helpers shared by the rules tests: terse constructors and a scripted deal driver."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from arena.game import Card, Deal, IllegalMove, Move, Rules

RANKS = "3456789TJQKA2"
SUITS = "CDHS"
FULL_DECK = [r + s for r in RANKS for s in SUITS]


def card(text: str) -> Card:
    """Parse one card."""
    return Card.parse(text)


def move(text: str) -> Move:
    """Parse one move."""
    return Move.parse(text)


def moves(*texts: str) -> set[Move]:
    """A set of parsed moves, to compare with ``legal_moves`` results."""
    return {Move.parse(t) for t in texts}


def names(cards: Iterable[Any]) -> list[str]:
    """Sorted canonical names of cards (a multiset, as a sorted list)."""
    return sorted(str(c) for c in cards)


def legal_set(found: list[Move]) -> set[Move]:
    """The moves of a legal-move list as a set, checking each occurs only once."""
    assert len(found) == len(set(found)), f"duplicates in {sorted(map(str, found))}"
    return set(found)


def play(deal: Deal, *texts: str) -> None:
    """Play a scripted sequence of moves; each must be legal."""
    for text in texts:
        deal.play(text)


def snapshot(deal: Deal, players: int) -> str:
    """Everything observable about a deal, as one JSON string, to detect any change."""
    state = {
        "hands": [names(deal.hand(s)) for s in range(players)],
        "to_move": deal.to_move,
        "pile": None if deal.pile is None else str(deal.pile),
        "revolution": deal.revolution,
        "finish_order": list(deal.finish_order),
        "finished": deal.finished,
        "moves": [[s, str(m)] for s, m in deal.moves],
        "legal": sorted(str(m) for m in deal.legal_moves()) if not deal.finished else [],
        "views": [deal.view(s).to_dict() for s in range(players)],
    }
    return json.dumps(state, sort_keys=True, default=str)


def assert_illegal(deal: Deal, attempt: Any, players: int) -> IllegalMove:
    """Assert ``attempt`` is rejected with a reason and leaves the deal exactly as it was."""
    before = snapshot(deal, players)
    try:
        deal.play(attempt)
    except IllegalMove as exc:
        assert str(exc).strip(), f"IllegalMove for {attempt!r} carries no reason"
        assert snapshot(deal, players) == before, f"rejected {attempt!r} changed the deal"
        return exc
    raise AssertionError(f"{attempt!r} was accepted")


def played_cards(deal: Deal) -> Counter[str]:
    """Every card played so far in the deal (jokers counted as ``JK``)."""
    out: Counter[str] = Counter()
    for _seat, m in deal.moves:
        out.update(str(c) for c in m.cards)
    return out


def rules(**options: Any) -> Rules:
    """Rules with options."""
    return Rules(**options)
