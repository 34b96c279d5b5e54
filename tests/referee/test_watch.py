"""The ``watch`` argument: a match's public events as they happen, and nothing hidden."""

from __future__ import annotations

from typing import Any

import trio

from arena.referee import InlineHost, MatchSpec, play_match, run_match
from tests.matchspecs import match_spec, table_data
from tests.referee.arena_hostile_bots import Cheater, ref

BOTS = ("random", "greedy", "lowest", "highest")


def spec(seed: int = 918_273_645, rounds: int = 3, host: str = "inline") -> MatchSpec:
    seats = [{"label": f"{name}", "name": name, "host": host} for name in BOTS]
    return MatchSpec.from_dict(table_data(seats, seed=seed, rounds=rounds))


def watched(match: MatchSpec) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    record = run_match(match, watch=lambda event: events.append(dict(event)))
    return record, events


def by_deal(events: list[dict[str, Any]], kind: str) -> dict[int, list[dict[str, Any]]]:
    found: dict[int, list[dict[str, Any]]] = {}
    for event in events:
        if event["type"] == kind:
            found.setdefault(event["deal"], []).append(event)
    return found


def test_the_events_tell_the_moves_the_record_holds() -> None:
    record, events = watched(spec())
    assert events[0]["type"] == "match_start" and events[0]["labels"] == list(BOTS)
    assert events[-1] == {"type": "match_end", "scores": record["scores"],
                          "ranking": record["ranking"]}
    moves = by_deal(events, "move")
    ends = by_deal(events, "deal_end")
    for deal in record["deals"]:
        number = deal["deal"]
        assert [(m["seat"], m["move"]) for m in moves[number]] == list(
            zip(deal["movers"], deal["moves"], strict=True))
        (end,) = ends[number]
        assert end["finish_order"] == deal["finish_order"]
        assert end["points"] == deal["points"]
        outs = [e["seat"] for e in events if e["type"] == "out" and e["deal"] == number]
        assert sorted(outs) == sorted(deal["finish_order"])


def test_the_exchange_tells_who_gave_how_many_never_which() -> None:
    record, events = watched(spec(rounds=2))
    exchanges = by_deal(events, "exchange")
    assert 0 not in exchanges
    recorded = record["deals"][1]["exchanges"]
    assert [(e["from"], e["to"], len(e["cards"]), e["kind"]) for e in recorded] == [
        (e["from"], e["to"], e["count"], e["kind"]) for e in exchanges[1]]
    assert all("cards" not in e for e in exchanges[1])


def test_card_counts_follow_the_moves() -> None:
    record, events = watched(spec(seed=11_223_344, rounds=1))
    (start,) = by_deal(events, "deal_start")[0]
    counts = list(start["counts"])
    assert counts == [len(hand) for hand in record["deals"][0]["hands"]]
    for move in by_deal(events, "move")[0]:
        if move["move"] != "pass":
            counts[move["seat"]] -= len(move["move"].split()) if "=" not in move["move"] \
                else len(move["move"].split("=")[1].split())
        assert move["left"] == counts[move["seat"]]


def test_no_hand_exchanged_card_or_seed_reaches_watch() -> None:
    record, events = watched(spec(rounds=3))
    text = repr(events)
    assert str(record["seed"]) not in text
    cards = {card for deal in record["deals"] for hand in deal["hands"] for card in hand}
    for deal in record["deals"]:
        assert str(deal["seed"]) not in text
    for event in events:  # a card is named only by the move that plays it
        rest = repr({k: v for k, v in event.items() if k != "move"})
        assert not [card for card in cards if card in rest], event
    for event in events:
        assert set(event) <= {"type", "match", "labels", "rounds", "players", "deal", "roles",
                              "counts", "from", "to", "count", "kind", "seat", "move", "left",
                              "place", "revolution", "stage", "finish_order", "points",
                              "scores", "ranking"}, event


def test_a_watched_match_is_the_same_match() -> None:
    plain = run_match(spec(seed=5))
    record, _ = watched(spec(seed=5))
    for r in (plain, record):
        r.pop("wall_s")
        for deal in r["deals"]:
            deal.pop("think_us")
    assert plain == record


def test_faults_are_told_without_their_detail() -> None:
    # A bot that plays a card it does not hold: the fault's detail names the card.
    hosts = [InlineHost(ref(Cheater), {})] + [InlineHost(name, {}) for name in BOTS[1:]]
    match = match_spec(table_data(rounds=2), hosts)
    events: list[dict[str, Any]] = []
    record = run_match(match, hosts=hosts, watch=lambda e: events.append(dict(e)))
    faults = [e for e in events if e["type"] == "fault"]
    recorded = [f for d in record["deals"] for f in d["faults"]]
    assert recorded and [(f["seat"], f["kind"]) for f in faults] == [
        (f["seat"], f["kind"]) for f in recorded]
    assert all(set(f) == {"type", "deal", "seat", "kind", "stage"} for f in faults)
    assert all(f["detail"] not in repr(events) for f in recorded)


def test_the_trio_driver_feeds_watch_too() -> None:
    events: list[dict[str, Any]] = []
    record = trio.run(lambda: play_match(spec(seed=3, rounds=1, host="process"),
                                         watch=lambda e: events.append(dict(e))))
    moves = [(e["seat"], e["move"]) for e in events if e["type"] == "move"]
    deal = record["deals"][0]
    assert moves == list(zip(deal["movers"], deal["moves"], strict=True))
