"""A command bot that writes down every byte the referee sends it, then plays simply.

Written against docs/protocol.md alone (no arena import). Usage:
``python spy_bot.py LOGFILE``; each line received is appended to LOGFILE as
it arrived. It leads its lowest card, beats a single with its lowest higher card,
passes otherwise, and gives away its first cards in an exchange (an
illegal gift is just its own fault).
"""

import json
import sys

RANKS = "3456789TJQKA2"


def reply(hand: list, pile: object) -> str:
    if pile is None:
        return hand[0]
    if isinstance(pile, str) and len(pile) == 2 and pile[0] in RANKS:
        higher = [c for c in hand if c[0] in RANKS and RANKS.index(c[0]) > RANKS.index(pile[0])]
        if higher:
            return higher[0]
    return "pass"


log = open(sys.argv[1], "ab", buffering=0)  # noqa: SIM115 - open for the bot's whole life
for raw in sys.stdin.buffer:
    log.write(raw)
    msg = json.loads(raw)
    kind = msg["type"]
    if kind == "start":
        answer = {"type": "ready", "id": msg["id"], "name": "spy"}
    elif kind in ("play", "exchange"):
        view = msg["view"]
        hand = view["hand"].split() if isinstance(view["hand"], str) else list(view["hand"])
        if kind == "exchange":
            answer = {"type": "exchange", "id": msg["id"], "cards": hand[: msg["count"]]}
        else:
            move = reply(hand, view["pile"])
            answer = {"type": "move", "id": msg["id"], "move": move}
    elif kind == "quit":
        break
    else:
        continue
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
