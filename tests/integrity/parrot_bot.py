"""A command bot that starts properly, then answers every request with the bytes of a file.

Usage: ``python parrot_bot.py PAYLOAD``. Written against docs/protocol.md
alone: the payload is whatever a hostile entrant might send instead of an
answer (not JSON, deep JSON, huge JSON, wrong types...).
"""

import json
import sys

payload = open(sys.argv[1], "rb").read()  # noqa: SIM115
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    message = json.loads(line)
    if message["type"] == "start":
        out.write(json.dumps({"type": "ready", "id": message["id"]}).encode() + b"\n")
    elif message["type"] in ("play", "exchange"):
        out.write(payload + b"\n")
    elif message["type"] == "quit":
        break
    out.flush()
