"""Command bots for the start checks, by their first argument (standard library only).

``nonjson`` prints a greeting instead of the protocol; ``exit3`` exits with status 3 at
once; ``noflush`` answers ``ready`` into a buffer it never flushes; ``probe DIR`` tries
to write ``DIR/probe-written`` and then plays every request's first legal move.
"""

import json
import os
import sys
import time

mode = sys.argv[1]
if mode == "exit3":
    sys.exit(3)
if mode == "nonjson":
    print("hello, I am a bot", flush=True)
    time.sleep(30)
if mode == "noflush":
    # Block-buffered whatever the environment says, and never flushed.
    with open(1, "w", buffering=1 << 16, closefd=False) as out:
        sys.stdin.readline()
        out.write(json.dumps({"type": "ready"}) + "\n")
        time.sleep(30)
if mode == "probe":
    try:
        with open(os.path.join(sys.argv[2], "probe-written"), "w") as file:
            file.write("written from inside the bot\n")
    except OSError:
        pass
    for line in sys.stdin:
        msg = json.loads(line)
        kind, answer = msg["type"], None
        if kind == "start":
            answer = {"type": "ready", "name": "probe", "legal_moves": True}
        elif kind == "play":
            answer = {"type": "move", "move": msg["legal"][0]}
        elif kind == "exchange":
            answer = {"type": "exchange", "cards": msg["view"]["hand"][: msg["count"]]}
        elif kind == "quit":
            break
        if answer is not None:
            answer["id"] = msg["id"]
            print(json.dumps(answer), flush=True)
