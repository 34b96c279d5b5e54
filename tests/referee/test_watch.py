"""The ``watch`` argument: a match's public events as they happen, and nothing hidden."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
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


class Listener:
    """A watch that listens from its ``wake``-th look on (``listening``)."""

    def __init__(self, wake: int) -> None:
        self.wake = wake
        self.looks = 0
        self.events: list[dict[str, Any]] = []

    def __call__(self, event: Mapping[str, Any]) -> None:
        self.events.append(dict(event))

    def listening(self) -> bool:
        self.looks += 1
        return self.looks >= self.wake



PLAY = ("move", "out", "clear", "fault")
"""The events of a deal's play: a watch that does not listen yet is not told them."""


def _hosts(cheat: bool) -> list[InlineHost]:
    return [InlineHost(ref(Cheater) if cheat else "random", {})] + [
        InlineHost(name, {}) for name in BOTS[1:]]


@pytest.mark.parametrize(("on_fault", "cheat"), [("pass", False), ("pass", True),
                                                 ("forfeit", True)])
def test_a_watch_that_listens_late_is_told_the_deal_in_play_as_it_was_played(
        on_fault: str, cheat: bool) -> None:
    """Until it listens, the deals' starts, exchanges and ends; then the current deal's play
    so far, replayed: from its first move on, what a watch listening from the start was told."""
    for seed in (5, 77, 4242):
        data = table_data(seed=seed, rounds=3, rules={"on_fault": on_fault})
        hosts = _hosts(cheat)
        eager: list[dict[str, Any]] = []
        record = run_match(match_spec(data, hosts), hosts=hosts, watch=eager.append)
        looks = sum(len(d["moves"]) for d in record["deals"])
        for wake in (1, 2, 7, looks // 3, looks // 2, looks - 1, looks + 50):
            late = Listener(wake)
            hosts = _hosts(cheat)
            run_match(match_spec(data, hosts), hosts=hosts, watch=late)
            told = late.events
            assert [e for e in told if e["type"] not in PLAY] == [
                e for e in eager if e["type"] not in PLAY]
            first = next((e for e in told if e["type"] == "move"), None)
            if first is None:  # never listened: no move told
                assert wake > looks
                continue
            number = first["deal"]
            assert [e for e in told if e["type"] in PLAY and e["deal"] >= number] == [
                e for e in eager if e["type"] in PLAY and e["deal"] >= number]
            start = next(e for e in eager if e["type"] == "move" and e["deal"] == number)
            assert told[told.index(first):] == eager[eager.index(start):]
            if wake <= 2:
                assert told == eager
