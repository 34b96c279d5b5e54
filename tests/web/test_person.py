"""The person's host with trio alone: a seat's page answers through a channel."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
import trio
import trio.testing

from arena.game import Rules
from arena.referee import BotFault, Deadline, InlineHost, MatchSpec, Seat, play_match
from arena.web._person import Gate, PersonSeat, Refusal, clean_name, error_message
from arena.web._person_host import PersonHost
from arena.web._roster import Roster


def _spec(rounds: int = 2) -> MatchSpec:
    seats = (Seat("p", name="person", host="web"), Seat("greedy", name="greedy"),
             Seat("random", name="random"))
    return MatchSpec("m", 7, seats, Rules.preset("runs", rounds=rounds))


async def _page(person: PersonSeat, seen: list[dict[str, Any]], pick: int = 0,
                stop_after: int | None = None) -> None:
    """A page that answers every request with its first legal move or cards."""
    inbox = person.attach()
    async for text in inbox:
        message = json.loads(text)
        seen.append(message)
        if message["type"] == "play":
            assert person.receive(json.dumps({"type": "move",
                                              "move": message["legal"][pick]})) is None
        elif message["type"] == "exchange":
            cards = message["view"]["hand"][:message["count"]]
            assert person.receive(json.dumps({"type": "exchange", "cards": cards})) is None
        elif message["type"] == "match_end":
            return
        if stop_after is not None and len(seen) >= stop_after:
            person.detach(inbox)
            return


async def _play(person: PersonSeat, page: Any, spec: MatchSpec | None = None
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The match of ``spec`` (``_spec()``'s by default), the person at seat 0 answering
    through ``page``: its record, and every message the page got."""
    seen: list[dict[str, Any]] = []
    hosts = [PersonHost(person), InlineHost("greedy"), InlineHost("random")]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(page, person, seen)
        record = await play_match(spec or _spec(), hosts=hosts)
        person.finish({"scores": record["scores"]})
    return record, seen


def test_a_person_plays_a_whole_match_and_the_record_says_web() -> None:
    record, seen = trio.run(_play, PersonSeat(0, "p"), _page)
    assert record["seats"][0]["host"] == "web"
    assert len(record["deals"]) == 2
    assert not any(d["faults"] for d in record["deals"])
    kinds = {m["type"] for m in seen}
    assert {"start", "play", "turn", "end_deal", "match_end"} <= kinds
    assert "exchange" in kinds  # the second deal has an exchange the person takes part in
    # every move the person sent is in the record, in order
    sent = [m["legal"][0] for m in seen if m["type"] == "play"]
    mine = [mv for d in record["deals"] for s, mv in zip(d["movers"], d["moves"], strict=True)
            if s == 0]
    assert mine == sent


def test_the_seat_receives_its_own_view_only_and_no_seed() -> None:
    _, seen = trio.run(_play, PersonSeat(0, "p"), _page)
    start = next(m for m in seen if m["type"] == "start")
    assert "seed" not in start
    for message in seen:
        if "view" in message:
            assert message["view"]["seat"] == 0
            assert set(message["view"]) == {"seat", "deal", "hand", "to_move", "players",
                                             "pile", "trick", "plays", "finish_order",
                                             "places", "revolution", "exchange"}
        if message["type"] == "end_deal":
            assert message["result"]["seat"] == 0 and "hands" not in message["result"]


def test_an_illegal_move_gets_the_rules_reason_and_changes_nothing() -> None:
    async def main() -> None:
        person = PersonSeat(0, "p")
        hosts = [PersonHost(person), InlineHost("greedy"), InlineHost("random")]
        errors: list[str | None] = []

        async def page() -> None:
            inbox = person.attach()
            async for text in inbox:
                message = json.loads(text)
                if message["type"] == "play":
                    hand = message["view"]["hand"]
                    not_held = next(c for c in ("3C", "3D", "3H", "3S", "4C", "4D")
                                    if c not in hand)
                    errors.append(person.receive(json.dumps({"type": "move",
                                                             "move": not_held})))
                    if message["view"]["pile"] is None and message["view"]["plays"] == []:
                        errors.append(person.receive('{"type":"move","move":"pass"}'))
                    errors.append(person.receive('{"type":"move","move":"ZZ"}'))
                    errors.append(person.receive('{"type":"exchange","cards":[]}'))
                    errors.append(person.receive("not json"))
                    assert person.receive(json.dumps({"type": "move",
                                                      "move": message["legal"][0]})) is None
                    errors.append(person.receive(json.dumps({"type": "move",
                                                             "move": message["legal"][0]})))
                if message["type"] == "match_end":
                    return

        async with trio.open_nursery() as nursery:
            nursery.start_soon(page)
            record = await play_match(_spec(1), hosts=hosts)
            person.finish({})
        assert not record["deals"][0]["faults"]
        assert all(e for e in errors)
        assert any("does not hold" in e for e in errors if e)
        # the rules' refusal carries its code and values for the page's language
        held = next(e for e in errors if e and "does not hold" in e)
        assert isinstance(held, Refusal)
        assert (held.code, held.values) == ("illegal.not_held", {"cards": held.rsplit(" ", 1)[1]})
        assert error_message(held) == {"type": "error", "message": held,
                                       "code": "illegal.not_held", "values": held.values}
        assert error_message("not a JSON message") == {"type": "error",
                                                       "message": "not a JSON message"}
        assert any("not a move" in e for e in errors if e)
        assert any(e == "it is not your turn" for e in errors)
        assert any(e == "not a JSON message" for e in errors)
        if any("leader may not pass" in (e or "") for e in errors):
            pass  # the rules' own reason, when the person led the deal

    trio.run(main)


def test_a_person_who_leaves_gets_the_seat_back_with_the_current_view() -> None:
    async def main() -> None:
        person = PersonSeat(0, "p", absence_s=60)
        hosts = [PersonHost(person), InlineHost("greedy"), InlineHost("random")]
        first: list[dict[str, Any]] = []
        again: list[dict[str, Any]] = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_page, person, first, 0, 3)
            async def later() -> None:
                await trio.sleep(30)  # away for 30 s of the 60 allowed
                await _page(person, again)
            nursery.start_soon(later)
            record = await play_match(_spec(1), hosts=hosts)
            person.finish({})
        assert not record["deals"][0]["faults"]
        assert again[0]["type"] == "start"  # resent, then the latest view
        assert again[1]["type"] in ("play", "turn") and "view" in again[1]

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def _caught_up(inbox: trio.MemoryReceiveChannel[str]) -> list[dict[str, Any]]:
    """What a page opened now is sent at once (the seat's state)."""
    got: list[dict[str, Any]] = []
    while True:
        try:
            got.append(json.loads(inbox.receive_nowait()))
        except trio.WouldBlock:
            return got


def test_a_page_opened_after_an_answer_gets_the_turn_not_the_request_again() -> None:
    """A request answered is over: a page opened before the referee's next word (after a
    deal's last move, say, or before the next deal's exchange) gets the seat's own turn with
    the same view, never the request to answer again."""
    async def main() -> tuple[list[tuple[dict[str, Any], list[dict[str, Any]]]],
                              dict[str, Any]]:
        person = PersonSeat(0, "p")
        hosts = [PersonHost(person), InlineHost("greedy"), InlineHost("random")]
        reopened: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

        async def page() -> None:
            inbox = person.attach()
            while True:
                message = json.loads(await inbox.receive())
                if message["type"] == "play":
                    answer = json.dumps({"type": "move", "move": message["legal"][0]})
                elif message["type"] == "exchange":
                    answer = json.dumps({"type": "exchange",
                                         "cards": message["view"]["hand"][:message["count"]]})
                elif message["type"] == "match_end":
                    return
                else:
                    continue
                assert person.receive(answer) is None
                person.detach(inbox)  # the page closed and opened again at once
                inbox = person.attach()
                reopened.append((message, _caught_up(inbox)))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(page)
            record = await play_match(_spec(), hosts=hosts)
            person.finish({"scores": record["scores"]})
        return reopened, record

    reopened, record = trio.run(main)
    assert not any(d["faults"] for d in record["deals"])
    assert {request["type"] for request, _ in reopened} == {"play", "exchange"}
    for request, caught_up in reopened:
        assert [m["type"] for m in caught_up if m["type"] in ("play", "exchange")] == []
        last = [m for m in caught_up if "view" in m][-1]
        assert last == {"type": "turn", "seat": 0, "kind": request["type"],
                        "view": request["view"]}


def test_a_person_away_past_the_limit_is_a_timeout_fault() -> None:
    async def main() -> dict[str, Any]:
        person = PersonSeat(0, "p", absence_s=120)
        hosts = [PersonHost(person), InlineHost("greedy"), InlineHost("random")]
        return await play_match(_spec(1), hosts=hosts)  # nobody ever opens the page

    record = trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    faults = [f for d in record["deals"] for f in d["faults"]]
    assert faults and {f["kind"] for f in faults} == {"timeout"}
    assert all(f["seat"] == 0 for f in faults)
    assert "120 s" in faults[0]["detail"]


def test_a_stand_in_plays_for_a_person_away_past_the_limit_until_they_return() -> None:
    async def main() -> tuple[dict[str, Any], PersonSeat, list[dict[str, Any]]]:
        stood = trio.Event()

        class Watched(Roster):  # the stand-in's decisions are told to the table's pages
            def changed(self) -> None:
                super().changed()
                if len(person.stood_in) >= 3:
                    stood.set()

        person = PersonSeat(0, "p", absence_s=30, roster=Watched())
        hosts = [PersonHost(person, InlineHost("greedy")), InlineHost("greedy"),
                 InlineHost("random")]
        seen: list[dict[str, Any]] = []

        async def back_later() -> None:
            await stood.wait()
            await _page(person, seen)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(back_later)
            record = await play_match(_spec(2), hosts=hosts)
            person.finish({"scores": record["scores"]})
        return record, person, seen

    record, person, seen = trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    assert not any(d["faults"] for d in record["deals"])  # no timeout: greedy played
    assert person.stand_in == "greedy" and len(person.stood_in) >= 3
    for decision in person.stood_in:
        if decision["kind"] == "play":
            assert record["deals"][decision["deal"]]["movers"][decision["move"]] == 0
    # once back, the person decides again, and the stand-in's decisions all came before
    sent = [m["legal"][0] for m in seen if m["type"] == "play"]
    assert sent
    stood = [(d["deal"], d["move"]) for d in person.stood_in if d["kind"] == "play"]
    mine = [(d["deal"], i) for d in record["deals"] for i, s in enumerate(d["movers"]) if s == 0]
    assert mine[:len(stood)] == stood and len(mine) == len(stood) + len(sent)


def test_the_seat_clock_is_a_timeout_when_set() -> None:
    async def main() -> None:
        person = PersonSeat(0, "p", seat_ms=5000)
        person.attach()  # a page is open but never answers
        view_match = _spec(1)
        hosts = [PersonHost(person), InlineHost("greedy"), InlineHost("random")]
        record = await play_match(view_match, hosts=hosts)
        faults = [f for d in record["deals"] for f in d["faults"]]
        assert faults and faults[0]["kind"] == "timeout" and "5000 ms" in faults[0]["detail"]

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_decide_raises_the_fault_at_the_deadline_given() -> None:
    async def main() -> None:
        person = PersonSeat(0, "p")
        person.attach()
        match = _spec(1)
        from arena.game import Match
        view = Match(match.rules, 3, 7).view(0)
        with pytest.raises(BotFault) as caught:
            await person.decide("play", view, 0, Deadline.after(trio.current_time(), 1))
        assert caught.value.kind == "timeout"
        assert caught.value.detail == "no answer within the 1000 ms allowed"
        # out of time, the request is over: a page opened now is not asked it
        assert [m["type"] for m in _caught_up(person.attach()) if "view" in m] == ["turn"]

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_tokens_names_and_the_gate() -> None:
    async def main() -> None:
        token = secrets.token_urlsafe(24)
        person = PersonSeat(0, "p", token=token)
        assert person.admits(token)
        assert not person.admits(token[:-1] + ("A" if token[-1] != "A" else "B"))
        assert not person.admits("")
        # The seat keeps the token's digest only: nothing of it is in the seat's state.
        assert token not in repr(vars(person)) and token.encode() not in repr(vars(person)
                                                                             ).encode()
        assert person.receive(json.dumps({"type": "name", "name": "<b>Ann</b>\u0000 " * 9})
                              ) is None
        assert person.name == clean_name("<b>Ann</b> " * 9) and len(person.name) == 32
        assert person.receive('{"type":"name","name":5}') == "'name' must be text"
        assert person.receive('{"type":"hello"}') is not None
        assert person.receive("[1]") is not None

    trio.run(main)
    gate = Gate(rate=1, burst=3)
    assert [gate.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert gate.allow(1.0) and not gate.allow(1.0)
