"""A bot that writes down everything it is told, for the host contract test.

As a Python bot (``contract_bot:Spy``, inline or in a process) it logs what
``start_match``, ``play``, ``exchange`` and ``end_deal`` receive; run as a
program (the command host) it speaks docs/protocol.md on stdin/stdout and
logs the requests. Either way it plays the first legal move and gives back
its lowest cards, so every host plays the same match, and each log line is
normalized to what a bot may know (the view as its ``to_dict`` without the
rules, which a bot learns once at the start).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from arena import Bot, MatchInfo
from arena.game import Card, Move, View


def _write(path: str, kind: str, body: Any) -> None:
    with open(path, "a") as f:
        f.write(json.dumps([kind, body], sort_keys=True) + "\n")


def view_dict(view: View) -> dict[str, Any]:
    return {k: v for k, v in view.to_dict().items() if k != "rules"}


class Spy(Bot):
    def __init__(self, log: str) -> None:
        self.log = log

    def start_match(self, info: MatchInfo) -> None:
        _write(self.log, "start", {"seat": info.seat, "players": info.players,
                                   "match_id": info.match_id, "labels": list(info.labels),
                                   "rules": info.rules.to_dict()})

    def play(self, view: View) -> Move | str:
        _write(self.log, "play", view_dict(view))
        return view.legal_moves()[0]

    def exchange(self, view: View, count: int) -> list[Card | str]:
        _write(self.log, "exchange", {"count": count, "view": view_dict(view)})
        return super().exchange(view, count)

    def end_deal(self, result: dict[str, Any]) -> None:
        _write(self.log, "end_deal", result)


def main(log: str) -> None:
    """The same bot as a program speaking the protocol (for the command host)."""
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "start":
            _write(log, "start", {k: msg[k] for k in ("seat", "players", "match_id", "labels",
                                                      "rules")})
            print(json.dumps({"type": "ready", "id": msg["id"], "legal_moves": True}),
                  flush=True)
        elif kind == "play":
            _write(log, "play", msg["view"])
            print(json.dumps({"type": "move", "id": msg["id"], "move": msg["legal"][0]}),
                  flush=True)
        elif kind == "exchange":
            _write(log, "exchange", {"count": msg["count"], "view": msg["view"]})
            lowest = sorted(msg["view"]["hand"], key=lambda c: Card.parse(c))[:msg["count"]]
            print(json.dumps({"type": "exchange", "id": msg["id"], "cards": lowest}),
                  flush=True)
        elif kind == "end_deal":
            _write(log, "end_deal", msg["result"])
        elif kind == "quit":
            return


if __name__ == "__main__":
    main(sys.argv[1])
