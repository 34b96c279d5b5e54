"""A command bot that asks for delta views and keeps the deal's state itself.

Written against docs/protocol.md alone (no arena import), as a bot in any
language would be. It leads its lowest card and passes otherwise, and it
checks on every request that the state it rebuilt agrees with what the
referee sent (the pile is the last play of the trick, the first view of a
deal carries every field, later ones only what changed); on any
disagreement it answers
with an ``error`` message, which the referee records as a crash fault.
"""

import json
import sys

state: dict = {}


def check(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


FIELDS = ("to_move", "hand", "cards", "passed", "sat_out", "pile", "revolution", "places",
          "roles", "scores", "exchange")


def apply(delta: dict) -> None:
    if delta["deal"] != state.get("deal"):
        for key in FIELDS:
            check(key in delta, f"first view of deal {delta['deal']} without {key!r}")
        state.clear()
        state.update(deal=delta["deal"], plays=[])
    flat = delta["plays"]
    check(len(flat) % 2 == 0, "plays is not a flat list of seat, move pairs")
    state["plays"] += [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
    for key in FIELDS:
        if key in delta:
            check(delta[key] != state.get(key, object()), f"{key!r} sent unchanged")
            state[key] = delta[key]
    trick = state["plays"][len(state["plays"]) - delta["trick"]:] if delta["trick"] else []
    played = [move for _, move in trick if move != "pass"]
    check((played[-1] if played else None) == state["pile"],
          f"pile {state['pile']!r} is not the last play of the trick {trick!r}")
    check(len(state["cards"]) == len(state["places"]) == len(state["roles"]), "table sizes")
    check(sum(state["cards"]) > 0 or state["to_move"] is None, "cards left")


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "start":
        state.clear()
        print(json.dumps({"type": "ready", "id": msg["id"], "name": "delta-lowest",
                          "views": "delta"}), flush=True)
    elif kind in ("play", "exchange"):
        try:
            check("view" not in msg, "a full view after asking for deltas")
            apply(msg["delta"])
        except (ValueError, KeyError, TypeError) as exc:
            print(json.dumps({"type": "error", "id": msg["id"], "message": repr(exc)}),
                  flush=True)
            continue
        hand = state["hand"].split()
        if kind == "exchange":
            answer = {"type": "exchange", "id": msg["id"], "cards": hand[: msg["count"]]}
        else:
            move = hand[0] if state["pile"] is None else "pass"
            answer = {"type": "move", "id": msg["id"], "move": move}
        print(json.dumps(answer), flush=True)
    elif kind == "quit":
        break
