"""A command bot that tries one thing an entrant must not do, then plays as entrant_play.py says.

Usage: ``python hostile_entrant.py MARKER MODE [ARGS...]``. What the attempt
achieved goes into the ``version`` of its ``ready`` message (and so into the
record): the only channel out of the sandbox the test relies on. MARKER is
in the command line of every process it starts, so the test can find any
that survive. Modes:

- ``plain``: nothing (the reference entrant);
- ``read PATH...``: read files (the run's config, records, secret seed);
- ``connect PORT``: open a TCP connection to 127.0.0.1:PORT;
- ``write DIR``: create a file in DIR (the run's output folder);
- ``forkbomb``: fork a tree of 255 processes that sleep forever;
- ``setsid``: fork a child that leaves the process group and sleeps forever;
- ``proc``: read the command lines of every process it can see in /proc.
"""

import json
import os
import socket
import sys
import time

from entrant_play import answer as play

mode, args = sys.argv[2], sys.argv[3:]


def attempt() -> str:
    if mode == "read":
        seen = []
        for path in args:
            try:
                with open(path, "rb") as file:
                    seen.append(f"{len(file.read())}B")
            except OSError as exc:
                seen.append(type(exc).__name__)
        return "read:" + ",".join(seen)
    if mode == "connect":
        try:
            socket.create_connection(("127.0.0.1", int(args[0])), timeout=2).close()
            return "connect:ok"
        except OSError as exc:
            return f"connect:{type(exc).__name__}"
    if mode == "write":
        try:
            with open(os.path.join(args[0], "planted.txt"), "w") as file:
                file.write("planted")
            return "write:ok"
        except OSError as exc:
            return f"write:{type(exc).__name__}"
    if mode == "forkbomb":
        if os.fork() == 0:
            for _ in range(8):  # a binary tree: 2**8 - 1 processes, each asleep
                if os.fork() == 0:
                    continue
                os.fork()
            while True:
                time.sleep(60)
        return "forkbomb:started"
    if mode == "setsid":
        if os.fork() == 0:
            os.setsid()
            while True:
                time.sleep(60)
        return "setsid:started"
    if mode == "proc":
        lines = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/cmdline", "rb") as file:
                        lines.append(file.read().replace(b"\0", b" ").decode(errors="replace"))
                except OSError:
                    pass
        return "proc:" + " | ".join(lines)
    return "plain"


for raw in sys.stdin.buffer:
    msg = json.loads(raw)
    if msg["type"] == "start":
        out = {"type": "ready", "id": msg["id"], "name": "entrant", "version": attempt()[:4000]}
    elif msg["type"] in ("play", "exchange"):
        out = play(msg)
    elif msg["type"] == "quit":
        break
    else:
        continue
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
