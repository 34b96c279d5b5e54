"""Views on the wire: both encodings rebuild, in the bot's process, the view the referee made."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.game import Match, Rules, View
from arena.referee import CommandHost, Limits, Seat, make_host, play_match
from arena.referee.lowlevel import (
    DeltaDecoder,
    DeltaEncoder,
    FullEncoder,
    decode,
    encode,
    view_from_dict,
)
from tests.matchspecs import match_spec
from tests.recordtools import record_faults


def random_rules(rng: random.Random) -> Rules:
    return Rules.preset(
        "standard", jokers=rng.choice([0, 1, 2]), runs=rng.random() < 0.5,
        revolution=rng.random() < 0.5, pass_is_final=rng.random() < 0.5,
        eight_stop=rng.random() < 0.5, on_fault=rng.choice(["forfeit", "pass"]), rounds=3,
    )


def decisions(rules: Rules, players: int, seed: int) -> Any:
    """Every decision of a seeded match of random answers, with a fault now and then."""
    rng = random.Random(seed)
    match = Match(rules, players, seed)
    while (pending := match.pending) is not None:
        view = match.view(pending.seat)
        yield pending, view
        if rng.random() < 0.05:
            match.fault(rng.choice(["crash", "timeout"]), "test")
        elif pending.kind == "exchange":
            match.give(rng.sample(view.hand, pending.count))
        else:
            moves = view.legal_moves()
            match.play(moves[rng.randrange(len(moves))])


def same_view(rebuilt: View, view: View) -> None:
    assert rebuilt.to_dict() == view.to_dict()
    assert rebuilt.legal_moves() == view.legal_moves()
    assert rebuilt.hand == view.hand and rebuilt.places == view.places
    assert rebuilt.gave == view.gave and rebuilt.received == view.received


@pytest.mark.parametrize("seed", range(24))
def test_delta_and_full_views_rebuild_the_view_the_referee_made(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = rng.randint(2, 8)
    encoders = [DeltaEncoder() for _ in range(players)]
    fulls = [FullEncoder() for _ in range(players)]
    decoders = [DeltaDecoder(rules, seat) for seat in range(players)]
    seen = 0
    for pending, view in decisions(rules, players, seed):
        seat = pending.seat
        line = encode({"type": pending.kind, "id": 1, "delta": encoders[seat].encode(view)})
        same_view(decoders[seat].view(decode(line.rstrip(b"\n"))["delta"]), view)
        full = fulls[seat].encode(view)
        assert full == {k: v for k, v in view.to_dict().items() if k != "rules"}
        same_view(view_from_dict(decode(encode({"view": full, "type": "play"}))["view"], rules),
                  view)
        seen += 1
    assert seen > 20


FIELDS: dict[str, Callable[[View], object]] = {
    "to_move": lambda v: v.to_move, "hand": lambda v: v.hand, "cards": lambda v: v.counts,
    "passed": lambda v: v.passed, "sat_out": lambda v: v.sat_out, "pile": lambda v: v.pile,
    "revolution": lambda v: v.revolution, "places": lambda v: v.places,
    "roles": lambda v: v.roles, "scores": lambda v: v.scores,
    "exchange": lambda v: (v.gave, v.received),  # copies, taken when the view is sent
}


def test_a_delta_sends_each_play_once_and_a_field_only_when_it_changed() -> None:
    rules = Rules.preset("standard", rounds=2)
    encoders = [DeltaEncoder() for _ in range(4)]
    sent_plays: dict[tuple[int, int], int] = {}
    last_view: dict[tuple[int, int], View] = {}
    last_values: dict[tuple[int, int], dict[str, object]] = {}
    changes = 0
    for pending, view in decisions(rules, 4, 7):
        key = (view.number, pending.seat)
        delta = encoders[pending.seat].encode(view)
        sent_plays[key] = sent_plays.get(key, 0) + len(delta["plays"]) // 2
        values = {field: value(view) for field, value in FIELDS.items()}
        previous = last_values.get(key)
        last_values[key] = values
        last_view[key] = view
        assert delta["trick"] == len(view.trick)
        if previous is None:
            assert set(FIELDS) <= delta.keys()
            continue
        for field in FIELDS:
            changed = values[field] != previous[field]
            assert (field in delta) == changed, field
            changes += changed
    assert changes > 100
    for key, view in last_view.items():
        assert sent_plays[key] == len(view.plays)


def test_a_fresh_encoder_and_decoder_start_over_together() -> None:
    """A restarted bot process gets a new encoder: its first delta carries the whole deal."""
    rules = Rules.preset("standard", rounds=1)
    views = [view for pending, view in decisions(rules, 4, 3) if pending.seat == 0]
    encoder = DeltaEncoder()
    for view in views[:5]:
        encoder.encode(view)
    late = views[5]
    delta = DeltaEncoder().encode(late)
    assert len(delta["plays"]) // 2 == len(late.plays)
    same_view(DeltaDecoder(rules, 0).view(decode(encode({"type": "play", "delta": delta})
                                                 .rstrip(b"\n"))["delta"]), late)


def test_delta_requests_are_a_fraction_of_full_ones() -> None:
    rules = Rules.preset("standard", rounds=2)
    full, delta = FullEncoder(), DeltaEncoder()
    views = [view for pending, view in decisions(rules, 4, 5) if pending.seat == 1]
    full_bytes = sum(len(encode({"type": "play", "view": full.encode(v)})) for v in views)
    delta_bytes = sum(len(encode({"type": "play", "delta": delta.encode(v)})) for v in views)
    assert delta_bytes * 3 < full_bytes


def test_view_from_state_takes_a_hand_as_text_or_cards() -> None:
    view = Match(Rules.preset("standard"), 4, 11).view(0)
    parts: dict[str, Any] = {
        "to_move": view.to_move, "pile": view.pile, "revolution": view.revolution,
        "counts": view.counts, "passed": view.passed, "sat_out": view.sat_out,
        "trick": view.trick, "plays": view.plays, "places": view.places, "roles": view.roles,
        "scores": view.scores,
    }
    text = " ".join(str(c) for c in view.hand)
    for hand in (text, view.hand, [str(c).lower() for c in view.hand]):
        same_view(View.from_state(view.rules, 0, view.number, hand=hand, **parts), view)
    with pytest.raises(ValueError, match="not a card"):
        View.from_state(view.rules, 0, view.number, hand="3C 1Z", **parts)


DELTA_BOT = Path(__file__).parent / "delta_command_bot.py"


@pytest.mark.parametrize("preset_rules", [{"rounds": 2}, {"rounds": 2, "jokers": 2, "runs": True,
                                                         "revolution": True, "eight_stop": True}])
def test_a_command_bot_can_ask_for_delta_views(preset_rules: dict[str, Any]) -> None:
    """A bot written from docs/protocol.md keeps the deal's state from deltas, faultlessly."""
    limits = Limits.from_dict({"move_ms": 2000, "memory_mb": 512})
    host = CommandHost(f"{sys.executable} {DELTA_BOT}", limits=limits)
    hosts = [host] + [make_host(Seat("random", "random"), limits) for _ in range(3)]
    spec = match_spec(
        {"match_id": "delta", "seed": 21, "rules": preset_rules,
         "seats": [{"label": "delta"}, {"label": "r1"}, {"label": "r2"}, {"label": "r3"}],
         "limits": limits.to_dict()}, hosts)
    record = trio.run(lambda: play_match(spec, hosts=hosts))
    assert record_faults(record) == []
    assert record["seats"][0]["bot"] == "delta-lowest" and host.views == "delta"
    assert sum(d["movers"].count(0) for d in record["deals"]) > 10
