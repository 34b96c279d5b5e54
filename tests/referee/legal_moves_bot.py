"""A command bot that asks for the legal moves (or, given ``off``, does not) and checks them.

With the moves asked for, every ``play`` request must carry ``legal``: exactly the moves
the seat's view allows, each in its canonical text, with ``pass`` last when it is legal.
The bot plays one of them at random. Without, a request must carry no ``legal``. On any
disagreement it answers with an ``error`` message, which the referee records as a crash.
"""

import json
import random
import sys

from arena.game import Rules
from arena.referee.lowlevel import view_from_dict

ask = sys.argv[1:] != ["off"]
rng = random.Random(7)
rules = None
for line in sys.stdin:
    msg = json.loads(line)
    kind, answer = msg["type"], None
    if kind == "start":
        rules = Rules.from_dict(msg["rules"])
        answer = {"type": "ready", "name": "legal-check", "legal_moves": ask}
    elif kind == "play":
        expected = [str(m) for m in view_from_dict(msg["view"], rules).legal_moves()]
        if not ask:
            ok = "legal" not in msg
            move = expected[0]
        else:
            ok = msg.get("legal") == expected and (
                "pass" not in expected or expected[-1] == "pass")
            move = rng.choice(msg.get("legal") or ["?"])
        answer = ({"type": "move", "move": move} if ok else
                  {"type": "error", "message": f"legal {msg.get('legal')} != {expected}"})
    elif kind == "exchange":
        answer = {"type": "exchange", "cards": msg["view"]["hand"][: msg["count"]]}
    elif kind == "quit":
        break
    if answer is not None:
        answer["id"] = msg["id"]
        print(json.dumps(answer), flush=True)
