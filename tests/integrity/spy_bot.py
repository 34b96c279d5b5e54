"""A command bot that writes down every byte the referee sends it, then plays simply.

Written against docs/protocol.md alone (no arena import). Usage:
``python spy_bot.py LOGFILE``; each line received is appended to LOGFILE as
it arrived. It plays as entrant_play.py says.
"""

import json
import sys

from entrant_play import answer as play

log = open(sys.argv[1], "ab", buffering=0)  # noqa: SIM115 - open for the bot's whole life
for raw in sys.stdin.buffer:
    log.write(raw)
    msg = json.loads(raw)
    kind = msg["type"]
    if kind == "start":
        answer = {"type": "ready", "id": msg["id"], "name": "spy"}
    elif kind in ("play", "exchange"):
        answer = play(msg)
    elif kind == "quit":
        break
    else:
        continue
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
