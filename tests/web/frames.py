"""What a spectator heard of a match, against the match's record."""

from __future__ import annotations

import json
import re
from typing import Any

CARD = re.compile(r"^(?:[3-9TJQKA2][SHDC]|10[SHDC]|JK)$")


def check_frames(frames: list[dict[str, Any]], record: dict[str, Any], match_id: str) -> None:
    """The match's frames, against its record: each move in its place, and no card named
    anywhere but in the move that plays it; no hand, exchanged card or seed at all."""
    events: list[dict[str, Any]] = []
    for frame in frames:
        if frame.get("topic") != f"match:{match_id}":
            continue
        if frame.get("type") == "events":  # a snapshot (a socket that reconnected, or a
            events = list(frame["events"])  # page behind its table): anew
        elif frame.get("type") == "batch":  # what came together, in order
            events += frame["events"]
        else:
            events.append(frame)
    assert events, "the page heard nothing of the match"
    text = json.dumps(events)
    assert str(record["seed"]) not in text
    assert not any(key in text for key in ('"hand', '"cards"', '"seed"'))
    for event in events:
        rest = {k: v for k, v in event.items() if k != "move"}
        strings = [v for v in json.dumps(rest).replace('"', " ").replace(",", " ").split()]
        assert not [s for s in strings if CARD.match(s)], event
    by_deal: dict[int, list[tuple[int, str]]] = {}
    for event in events:
        if event.get("type") == "move":
            by_deal.setdefault(event["deal"], []).append((event["seat"], event["move"]))
    for number, moves in by_deal.items():
        deal = record["deals"][number]
        recorded = list(zip(deal["movers"], deal["moves"], strict=True))
        # The page may have joined mid-match: what it heard is the end of each deal's moves.
        assert moves == recorded[len(recorded) - len(moves):], f"deal {number}: a gap"
