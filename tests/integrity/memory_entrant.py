"""A command bot whose processes together, not one by one, need more memory than it may use.

Usage: ``python memory_entrant.py MARKER CHILDREN MB``. At its first decision it forks
CHILDREN processes that each fill MB MiB and then hold it (sleeping until killed), and
answers once each has filled its share or died; then it plays as entrant_play.py says.
MARKER is in the command line of every process it starts, so a test finds any that
survive. Standard library only: :func:`fill` serves the process bot of the same test.
"""

import json
import os
import sys
import time


def fill(children: int, mb: int) -> int:
    """Fork ``children`` processes that each fill ``mb`` MiB and hold it; how many said they
    had (the others died first)."""
    reads = []
    for _ in range(children):
        r, w = os.pipe()
        if os.fork() == 0:  # the child: fill its share, say so, hold it until killed
            os.close(r)
            hoard = b"\x01" * (mb << 20)
            os.write(w, b"x")
            while hoard:
                time.sleep(1000)
        os.close(w)
        reads.append(r)
    filled = 0
    for r in reads:
        filled += len(os.read(r, 1))  # nothing: that child was killed before it said so
        os.close(r)
    return filled


def main() -> None:
    from entrant_play import answer as play

    children, mb = int(sys.argv[2]), int(sys.argv[3])
    forked = False
    for raw in sys.stdin.buffer:
        msg = json.loads(raw)
        if msg["type"] == "start":
            out = {"type": "ready", "id": msg["id"], "name": "memory-entrant"}
        elif msg["type"] in ("play", "exchange"):
            if not forked:
                forked = True
                fill(children, mb)
            out = play(msg)
        elif msg["type"] == "quit":
            break
        else:
            continue
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
