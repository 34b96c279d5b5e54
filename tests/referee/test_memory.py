"""Referee logic without processes: in-memory hosts under trio's autojump clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import Bot
from arena.game import Match, Move, Rules, View
from arena.records import deal_moves
from arena.referee import BotFault, InlineHost, MatchSpecError, play_match
from arena.referee.testing import MemoryHost
from tests.matchspecs import match_spec, table_data
from tests.recordtools import record_faults


def lowest_legal(request: dict[str, Any]) -> object:
    """A well-behaved scripted bot: its first legal move, its lowest cards."""
    if request["type"] == "play":
        return str(request["view"].legal_moves()[0])
    if request["type"] == "exchange":
        return [str(c) for c in request["view"].hand[: request["count"]]]
    return None


def spec(rounds: int = 1, **extra: Any) -> dict[str, Any]:
    return table_data(match_id="mem", seed=11, rounds=rounds,
                      limits=extra.pop("limits", {"move_ms": 100}), **extra)


def run(spec_: dict[str, Any], hosts: list[MemoryHost | InlineHost]) -> dict[str, Any]:
    clock = trio.testing.MockClock(autojump_threshold=0)
    typed = match_spec(spec_, hosts)
    return trio.run(lambda: play_match(typed, hosts=hosts), clock=clock)


def table(hostile: Callable[[dict[str, Any]], object], players: int = 4) -> list[MemoryHost]:
    hosts = [MemoryHost(lowest_legal, name=f"good{i}") for i in range(players)]
    hosts[1] = MemoryHost(hostile, name="hostile")
    return hosts



def replay(record: dict[str, Any]) -> Match:
    """Replay a record through a fresh Match: the record must hold everything needed.

    Each deal's faults (in the order they happened), exchange returns and
    moves are fed back at the decisions where they were made.
    """
    rules = Rules.from_dict(record["rules"])
    match = Match(rules, len(record["seats"]), record["seed"])
    for deal in record["deals"]:
        faults = list(deal["faults"])
        returns = [e for e in deal["exchanges"] if e["kind"] == "return"]
        moves = deal["moves"]
        assert match.deal_number == deal["deal"]
        while not match.finished and match.deal_number == deal["deal"]:
            decision = match.pending
            assert decision is not None
            fault = faults[0] if faults else None
            if (
                fault is not None
                and fault["seat"] == decision.seat
                and fault["stage"] == decision.kind
                and (decision.kind == "exchange" or fault["move"] == len(match.deal.moves))
            ):
                faults.pop(0)
                if decision.kind == "exchange":
                    returns.pop(0)  # the cards the fault policy gave are recorded as a return
                match.fault(fault["kind"], fault["detail"])
            elif decision.kind == "exchange":
                match.give(returns.pop(0)["cards"])
            else:
                match.play(moves[len(match.deal.moves)])
        assert faults == [] and returns == []
        assert match.history[-1]["finish_order"] == deal["finish_order"]
    assert match.finished
    return match


def test_well_behaved_bots_play_a_whole_match_without_faults() -> None:
    hosts = [MemoryHost(lowest_legal, name=f"b{i}") for i in range(4)]
    record = run(spec(rounds=3), hosts)
    assert record_faults(record) == []
    assert len(record["deals"]) == 3
    assert sorted(record["ranking"]) == [0, 1, 2, 3]
    assert record["decisions"] == sum(
        sum(r["type"] in ("play", "exchange") for r in h.requests) for h in hosts
    )
    assert all(m.ms is not None for deal in record["deals"] for m in deal_moves(deal))
    assert record["scores"] == list(replay(record).scores)


def test_a_bot_sleeping_past_its_deadline_gets_a_timeout_and_the_match_goes_on() -> None:
    async def sleeper(request: dict[str, Any]) -> object:
        if request["type"] == "play":
            await trio.sleep(3600)
        return lowest_legal(request)

    record = run(spec(rounds=2), table(sleeper))
    found = record_faults(record)
    assert [(f["seat"], f["kind"], f["deal"]) for f in found] == [
        (1, "timeout", 0), (1, "timeout", 1)
    ]
    assert all(f["bot"] == "hostile" for f in found)
    # forfeit: the seat leaves each deal at once and takes the worst free place
    assert all(deal["finish_order"][-1] == 1 for deal in record["deals"])


def test_a_hung_bot_and_a_late_one_break_one_rule_in_one_wording_with_one_figure() -> None:
    def sleeping(seconds: float) -> Callable[[dict[str, Any]], Any]:
        async def bot(request: dict[str, Any]) -> object:
            if request["type"] == "play":
                await trio.sleep(seconds)
            return lowest_legal(request)
        return bot

    # 100 ms to move plus 50 of grace allowed; the host waits 500 ms of lag more
    limits = {"move_ms": 100, "grace_ms": 50, "lag_ms": 500}
    late = record_faults(run(spec(limits=limits), table(sleeping(0.3))))[0]
    hung = record_faults(run(spec(limits=limits), table(sleeping(3600))))[0]
    assert late["kind"] == hung["kind"] == "timeout"
    assert late["detail"] == "answered after 300 ms, over the 150 ms allowed (answer discarded)"
    assert hung["detail"] == "no answer within the 150 ms allowed"


def test_time_beyond_move_ms_comes_from_the_bank_until_it_is_spent() -> None:
    async def slow(request: dict[str, Any]) -> object:
        if request["type"] == "play":
            await trio.sleep(0.25)  # 150 ms over move_ms each time
        return lowest_legal(request)

    limits = {"move_ms": 100, "bank_ms": 500, "grace_ms": 10}
    record = run(spec(limits=limits), table(slow))
    moves = [m for m in deal_moves(record["deals"][0]) if m.seat == 1]
    found = record_faults(record)
    # 500 ms of bank pays for three slow moves (450 ms); the fourth has only 50 ms left
    assert len(moves) == 3 and all(m.ms == pytest.approx(250, abs=1) for m in moves)
    assert [(f["seat"], f["kind"]) for f in found] == [(1, "timeout")]


def test_grace_accepts_an_answer_just_after_the_budget() -> None:
    async def late(request: dict[str, Any]) -> object:
        if request["type"] == "play":
            await trio.sleep(0.105)
        return lowest_legal(request)

    record = run(spec(limits={"move_ms": 100, "grace_ms": 10}), table(late))
    assert record_faults(record) == []


@pytest.mark.parametrize(
    "answer, kind",
    [("2C 2D 2H 2S", "illegal"), ("hello", "malformed"), (42, "malformed"), (None, "malformed"),
     (["3C"], "malformed")],
)
def test_answers_are_judged_illegal_or_malformed(answer: object, kind: str) -> None:
    def bad(request: dict[str, Any]) -> object:
        return answer if request["type"] == "play" else lowest_legal(request)

    found = record_faults(run(spec(), table(bad)))
    assert [(f["seat"], f["kind"]) for f in found] == [(1, kind)]
    assert found[0]["stage"] == "play"


def test_an_exception_in_bot_code_is_a_crash_naming_it() -> None:
    def broken(request: dict[str, Any]) -> object:
        if request["type"] == "play":
            raise ZeroDivisionError("oops")
        return lowest_legal(request)

    found = record_faults(run(spec(), table(broken)))
    assert [(f["seat"], f["kind"]) for f in found] == [(1, "crash")]
    assert "ZeroDivisionError: oops" in found[0]["detail"]


def test_on_fault_pass_keeps_the_seat_in_the_deal() -> None:
    def garbage(request: dict[str, Any]) -> object:
        return "nonsense" if request["type"] == "play" else lowest_legal(request)

    record = run(spec(rules={"on_fault": "pass"}), table(garbage))
    found = record_faults(record)
    deal = record["deals"][0]
    assert len(found) > 1 and {f["kind"] for f in found} == {"malformed"}
    # every fault of the seat became a move in the record (a pass, or its lowest single)
    assert deal["movers"].count(1) == len(found)
    assert record["scores"] == list(replay(record).scores)


def test_exchange_faults_are_recorded_with_their_stage() -> None:
    def bad_exchange(request: dict[str, Any]) -> object:
        if request["type"] == "exchange":
            return "give me a break"
        return lowest_legal(request)

    hosts = [MemoryHost(bad_exchange, name=f"b{i}") for i in range(4)]
    record = run(spec(rounds=2), hosts)
    found = record_faults(record)
    assert found and all(f["kind"] == "malformed" and f["stage"] == "exchange" for f in found)
    assert all(f["deal"] == 1 for f in found)


def test_a_bot_failing_to_start_is_not_retried_in_the_match_and_faults_as_the_policy_says(
        ) -> None:
    """Started once: its seat is charged the start fault at every decision it would have
    made (the default policy forfeits its deal), and it is never asked to start again."""
    starts = []

    def no_start(request: dict[str, Any]) -> object:
        if request["type"] == "start":
            starts.append(request)
            raise RuntimeError("cannot start")
        return lowest_legal(request)

    record = run(spec(rounds=3), table(no_start))
    found = record_faults(record)
    assert [(f["seat"], f["kind"], f["deal"]) for f in found] == [
        (1, "crash", 0), (1, "crash", 1), (1, "crash", 2)
    ]
    assert len({f["detail"] for f in found}) == 1 and "cannot start" in found[0]["detail"]
    assert len(starts) == 1


def test_a_bot_too_slow_to_start_is_a_timeout() -> None:
    async def slow_start(request: dict[str, Any]) -> object:
        if request["type"] == "start":
            await trio.sleep(60)
        return lowest_legal(request)

    found = record_faults(run(spec(limits={"move_ms": 100, "start_ms": 1000}), table(slow_start)))
    assert [(f["seat"], f["kind"]) for f in found] == [(1, "timeout")]


class ClockJumper(Bot):
    """An inline bot that 'thinks' for two virtual seconds, which no host can pre-empt."""

    def __init__(self, clock: trio.testing.MockClock) -> None:
        self.clock = clock

    def play(self, view: View) -> Move | str:
        self.clock.jump(2)
        return view.legal_moves()[0]


def test_inline_time_is_measured_after_the_fact_and_a_late_answer_discarded() -> None:
    clock = trio.testing.MockClock(autojump_threshold=0)
    hosts: list[MemoryHost | InlineHost] = [MemoryHost(lowest_legal) for _ in range(4)]
    hosts[2] = InlineHost.from_bot(ClockJumper(clock))
    typed = match_spec(spec(), hosts)
    record = trio.run(lambda: play_match(typed, hosts=hosts), clock=clock)
    found = record_faults(record)
    assert [(f["seat"], f["kind"]) for f in found] == [(2, "timeout")]
    assert "answer discarded" in found[0]["detail"]


def test_end_deal_reaches_every_bot_with_the_deal_history() -> None:
    hosts = [MemoryHost(lowest_legal, name=f"b{i}") for i in range(5)]
    record = run(spec(rounds=2), hosts)
    left_out = [s for s in range(5)
                if all(s not in (x["from"], x["to"]) for x in record["deals"][1]["exchanges"])]
    assert len(left_out) == 1  # five players: the middle place exchanges nothing
    for seat, host in enumerate(hosts):
        ends = [r["result"] for r in host.requests if r["type"] == "end_deal"]
        assert [e["finish_order"] for e in ends] == [d["finish_order"] for d in record["deals"]]
        # only what the seat may know: its own dealt hand, never the others'
        assert [e["hand"] for e in ends] == [d["hands"][seat] for d in record["deals"]]
        assert all("hands" not in e for e in ends)
        for end, deal in zip(ends, record["deals"], strict=True):
            mine = [x for x in deal["exchanges"] if seat in (x["from"], x["to"])]
            assert end["exchanges"] == mine


def test_a_bot_raising_bot_fault_itself_gets_that_kind() -> None:
    def says_timeout(request: dict[str, Any]) -> object:
        if request["type"] == "play":
            raise BotFault("timeout", "scripted")
        return lowest_legal(request)

    assert [f["kind"] for f in record_faults(run(spec(), table(says_timeout)))] == ["timeout"]


@pytest.mark.parametrize(
    "bad, match",
    [({"seed": -1}, "seed"), ({"rules": {"jokers": 7}}, "rules"), ({"limits": {"move_ms": 0}},
     "move_ms"), ({"limits": {"moves": 3}}, "unknown limit")],
)
def test_a_bad_spec_is_refused_with_a_message_naming_the_field(
    bad: dict[str, Any], match: str
) -> None:
    with pytest.raises(MatchSpecError, match=match):
        run({**spec(), **bad}, [MemoryHost(lowest_legal) for _ in range(4)])


def test_a_bad_bot_name_is_a_spec_error() -> None:
    bad = match_spec({**spec(), "seats": [{"name": "no-such-bot"}, {"name": "random"}]})
    with pytest.raises(MatchSpecError, match="no-such-bot"):
        trio.run(play_match, bad)


BEHAVIOURS = ("legal", "legal", "legal", "legal", "garbage", "illegal", "late", "raise", "wrong")


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 6),
    rounds=st.integers(1, 3),
    on_fault=st.sampled_from(["forfeit", "pass"]),
    preset=st.sampled_from(["standard", "daifugo"]),
)
def test_whatever_bots_do_the_match_completes_and_its_record_replays(
    seed: int, players: int, rounds: int, on_fault: str, preset: str
) -> None:
    """Random misbehaviour at every decision: the referee never fails and loses nothing."""
    import random

    chooser = random.Random(seed)

    async def erratic(request: dict[str, Any]) -> object:
        action = chooser.choice(BEHAVIOURS)
        if request["type"] in ("start", "end_deal") or action == "legal":
            return lowest_legal(request)
        if action == "garbage":
            return "¿qué?"
        if action == "illegal":
            return "2C 2D 2H 2S" if request["type"] == "play" else ["3C", "3D", "3H", "3S", "4C"]
        if action == "late":
            await trio.sleep(10)
        if action == "wrong":
            return ["5H"] if request["type"] == "play" else "5H"
        raise RuntimeError("erratic")

    hosts = [MemoryHost(erratic, name=f"e{i}") for i in range(players)]
    record = run(
        {"match_id": "prop", "seed": seed, "limits": {"move_ms": 50},
         "rules": {"preset": preset, "rounds": rounds, "on_fault": on_fault}},
        hosts,
    )
    assert len(record["deals"]) == rounds
    for deal in record["deals"]:
        assert sorted(deal["finish_order"]) == list(range(players))
        assert {f["kind"] for f in deal["faults"]} <= {"timeout", "crash", "illegal", "malformed"}
    assert record["scores"] == replay(record).scores
    assert record["ranking"] == replay(record).ranking()


def test_time_ms_is_the_clocks_budget_told_to_the_bot_and_the_deadline_is_the_referees() -> None:
    """The referee computes time_ms once from the seat's budget (move_ms plus what is left
    of the bank) and cancels a handler at the budget plus grace; the host enforces nothing."""
    told: list[int] = []

    async def slow(request: dict[str, Any]) -> object:
        if request["type"] == "play":
            told.append(request["time_ms"])
            await trio.sleep(0.25)
        return lowest_legal(request)

    limits = {"move_ms": 100, "bank_ms": 500, "grace_ms": 10}
    run(spec(limits=limits), table(slow))
    # 600 ms, then 150 ms less after each slow move, until the bank is gone
    assert told[:4] == [600, 450, 300, 150]
    assert all(t == 100 for t in told[4:])
