"""Nothing a bot sends crashes the referee: any bytes become that bot's fault."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.referee import CommandHost, InlineHost, Limits, play_match, sandbox_mechanism
from arena.referee.child._protocol import ProtocolError, answer_value, decode
from arena.referee.lowlevel import WRITABLE_ENV
from arena.tournament import run_tournament
from tests.matchspecs import match_spec
from tests.recordtools import record_faults

HERE = Path(__file__).parent
DEEP = b"[" * 200_000 + b"]" * 200_000

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=30,
)
messages = st.dictionaries(st.sampled_from(["type", "id", "move", "cards", "views", "x"]),
                           json_values, max_size=5).map(lambda m: json.dumps(m).encode())
nested = st.tuples(st.integers(1, 300_000), st.sampled_from([b"[]", b"{}", b'[{"a":]}'])).map(
    lambda t: t[1][:1] * t[0] + t[1][1:] * t[0]
)
huge = st.integers(0, 3).map(lambda n: b'{"type":"move","id":1,"move":"' + b"9" * (n * 400_000)
                             + b'"}')
payloads = st.binary(max_size=300) | messages | nested | huge | st.just(DEEP)


@settings(max_examples=300, deadline=None)
@given(payloads)
def test_the_decoder_turns_any_bytes_into_a_message_or_a_protocol_error(data: bytes) -> None:
    try:
        message = decode(data)
    except ProtocolError:
        return
    assert isinstance(message, dict) and isinstance(message["type"], str)
    for request in ("start", "play", "exchange"):
        try:
            answer_value(message, request, 1)
        except ValueError:
            pass
        except Exception as exc:  # a BotFault (the bot said 'error') is the only other answer
            assert type(exc).__name__ == "BotFault"


def play_against(command: str) -> dict[str, Any]:
    limits = Limits.from_dict({"move_ms": 3000, "start_ms": 20000})
    hosts = [CommandHost(command, limits=limits), InlineHost("random"), InlineHost("greedy")]
    spec = match_spec({"match_id": "parrot", "seed": 11, "rules": {"rounds": 1},
                       "limits": {"move_ms": 3000, "start_ms": 20000}}, hosts)
    return trio.run(lambda: play_match(spec, hosts=hosts))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(payloads)
def test_a_live_command_bot_sending_anything_only_costs_itself(data: bytes) -> None:
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".payload") as file:
        file.write(data)
        file.flush()
        record = play_against(f"{sys.executable} {HERE / 'parrot_bot.py'} {file.name}")
    faults = record_faults(record)
    assert all(f["seat"] == 0 for f in faults)
    assert len(record["deals"]) == 1 and sorted(record["ranking"]) == [0, 1, 2]


def test_deep_json_is_a_malformed_fault_and_the_tournament_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WRITABLE_ENV, str(tmp_path))  # where the payload is, under bubblewrap
    tmp_path.chmod(0o755)  # open to the bot's uid (pytest makes it 0700)
    payload = tmp_path / "deep.json"
    payload.write_bytes(DEEP)
    config = {
        "name": "deep", "seed": 1, "players": 3, "rules": {"rounds": 2},
        "format": {"type": "round_robin"}, "jobs": 1,
        "bots": [{"label": "deep",
                  "command": f"{sys.executable} {HERE / 'parrot_bot.py'} {payload}"},
                 {"name": "greedy"}, {"name": "random"}],
        "limits": {"move_ms": 3000, "start_ms": 20000,
                   "sandbox": sandbox_mechanism() is not None},
        "out": str(tmp_path / "out"),
    }
    result = run_tournament(config)
    assert result.complete and not result.errors
    records = [json.loads(x) for x in (tmp_path / "out" / "records.jsonl").read_text().split("\n")
               if x]
    faults = [f for r in records for f in record_faults(r)]
    assert faults and {f["kind"] for f in faults} == {"malformed"}
    assert all("nested too deeply" in f["detail"] for f in faults)
    assert result.silent == ["deep"]
