"""A command bot that says too much: a 500,000-character name and version in ``ready``, and
to its first request an ``error`` of 1,000,000 characters holding terminal escapes (an
unterminated OSC title, a CSI colour, a bell); at its second it writes them to its stderr
and crashes. Written against docs/protocol.md alone."""

import json
import sys

WORDS = "\x1b]0;pwned" + "\x1b[31m" + "\x07" + "x" * 1_000_000 + "\x1b]0;"
out = sys.stdout
asked = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        out.write(json.dumps({"type": "ready", "id": message["id"], "name": "n" * 500_000,
                              "version": "\x1b]0;" + "v" * 500_000}) + "\n")
    elif message["type"] in ("play", "exchange"):
        asked += 1
        if asked == 2:
            sys.stderr.write(WORDS[:30] + "\n" + WORDS[-10:])
            sys.stderr.flush()
            sys.exit(1)
        out.write(json.dumps({"type": "error", "id": message["id"], "message": WORDS}) + "\n")
    elif message["type"] == "quit":
        break
    out.flush()
