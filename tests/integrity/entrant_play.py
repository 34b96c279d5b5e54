"""How the test entrants play (docs/protocol.md alone, no arena import): simply, legally enough.

Lead the lowest card, beat a single with the lowest higher card, pass otherwise; in an
exchange give the first cards (an illegal gift is only the entrant's own fault).
"""

RANKS = "3456789TJQKA2"


def reply(hand: list, pile: object) -> str:
    if pile is None:
        return hand[0]
    if isinstance(pile, str) and len(pile) == 2 and pile[0] in RANKS:
        higher = [c for c in hand if c[0] in RANKS and RANKS.index(c[0]) > RANKS.index(pile[0])]
        if higher:
            return higher[0]
    return "pass"


def answer(msg: dict) -> dict:
    """The answer to a play or exchange request."""
    view = msg["view"]
    hand = view["hand"].split() if isinstance(view["hand"], str) else list(view["hand"])
    if msg["type"] == "exchange":
        return {"type": "exchange", "id": msg["id"], "cards": hand[: msg["count"]]}
    return {"type": "move", "id": msg["id"], "move": reply(hand, view["pile"])}
