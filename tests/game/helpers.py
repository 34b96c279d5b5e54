"""Small helpers shared by the rules tests: terse constructors and a scripted deal driver."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from arena.bot import Bot
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


def exchange_key(c: Card) -> tuple[int, int]:
    """docs/rules.md section 7's order for the Scum's gift: jokers highest, then rank in the normal
    order, then spades, hearts, diamonds, clubs."""
    if c.is_joker:
        return (99, 99)
    assert c.rank is not None and c.suit is not None
    return (c.rank, "CDHS".index(str(c)[1]))


def top_cards(hand: Iterable[Any], count: int) -> list[str]:
    """The ``count`` highest cards of a hand in the exchange order, as sorted names."""
    cards = sorted((Card.parse(str(c)) for c in hand), key=exchange_key, reverse=True)
    return names(cards[:count])


def bottom_cards(hand: Iterable[Any], count: int) -> list[str]:
    """The ``count`` lowest cards of a hand in the exchange order, as sorted names."""
    cards = sorted((Card.parse(str(c)) for c in hand), key=exchange_key)
    return names(cards[:count])


class _Answerer(Bot):
    """Answers with the first legal move and the lowest cards, or at random from ``rng``."""

    def __init__(self, rng: Any = None) -> None:
        self.shared = rng

    def bind(self, seat: int, rules: Any, players: int, rng: Any) -> None:
        super().bind(seat, rules, players, self.shared if self.shared is not None else rng)

    def play(self, view: Any) -> Any:
        legal = view.legal_moves()
        return legal[0] if self.shared is None else self.shared.choice(legal)

    def exchange(self, view: Any, count: int) -> list[Any]:
        hand = list(view.hand)
        if self.shared is None:
            return bottom_cards(hand, count)
        return [str(c) for c in self.shared.sample(hand, count)]


def drive(match: Any, rng: Any = None, stop_after_deal: int | None = None) -> None:
    """Answer a match's decisions through the referee's one loop (``arena.referee.play_on``):
    a random (or the first) legal move, and for an exchange the ``count`` lowest cards (random
    ones with ``rng``, one generator for every seat). Stops when the match is over, or when
    deal ``stop_after_deal`` has finished. Every answer must be accepted: a fault the referee
    finds fails (faults the test applied itself before are left alone)."""
    from arena.referee import play_on

    bots = [_Answerer(rng) for _ in range(match.players)]
    earlier = len(match._faults)  # the test's own, in the deal under way
    deals = play_on(match, bots, until_deal=stop_after_deal)
    faults = [f for i, deal in enumerate(deals) for f in deal["faults"][earlier if i == 0 else 0:]]
    assert not faults, faults


# The shuffle as docs/rules.md documents it (SplitMix64 driving Fisher-Yates), written from the
# documentation so that the engine's dealing is checked against the published algorithm.
_M64 = (1 << 64) - 1


def _mix(z: int) -> int:
    z &= _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def documented_deal_seed(match_seed: int, number: int) -> int:
    """Deal ``number``'s seed: mix(S + d * 0xD1B54A32D192ED03)."""
    return _mix(match_seed + number * 0xD1B54A32D192ED03)


def documented_hands(match_seed: int, number: int, players: int, jokers: int) -> list[list[str]]:
    """The hands of deal ``number`` of a match, dealt as docs/rules.md section 3 says."""
    deck = FULL_DECK + ["JK"] * jokers
    state = documented_deal_seed(match_seed, number)
    for i in range(len(deck) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _M64
        j = (_mix(state) * (i + 1)) >> 64
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, c in enumerate(deck):
        hands[(i + number) % players].append(c)
    return [sorted(h) for h in hands]
