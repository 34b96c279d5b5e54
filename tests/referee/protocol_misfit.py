"""A command bot (run as a program) that breaks the protocol in the way argv[1] names."""

import json
import os
import sys

mode = sys.argv[1]
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        ready = {"type": "ready", "id": msg["id"]}
        if mode == "bad-views":
            ready["views"] = "xml"
        print(json.dumps(ready), flush=True)
    elif msg["type"] == "play":
        if mode == "wrong-id":
            print(json.dumps({"type": "move", "id": msg["id"] + 100, "move": "pass"}), flush=True)
        elif mode == "huge-line":
            sys.stdout.write("x" * (2 << 20))
            sys.stdout.flush()
        elif mode == "error":
            print(json.dumps({"type": "error", "id": msg["id"], "message": "out of ideas"}),
                  flush=True)
        elif mode == "wrong-type":
            print(json.dumps({"type": "exchange", "id": msg["id"], "cards": []}), flush=True)
        elif mode == "close-stdout":
            os.close(1)
            sys.stdin.read()
        elif mode == "not-a-string":
            print(json.dumps({"type": "move", "id": msg["id"], "move": {"cards": ["3C"]}}),
                  flush=True)
