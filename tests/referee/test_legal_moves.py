"""A command bot may ask for the legal moves in its greeting; then every play request has them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.records import deal_moves, read_records
from arena.referee import make_host, play_match
from arena.tournament import run_tournament
from tests.matchspecs import match_spec
from tests.recordtools import record_faults
from tests.referee.scripts import greeting_bot

ROOT = Path(__file__).resolve().parents[2]
CHECKER = Path(__file__).with_name("legal_moves_bot.py")


def _match(command: str, preset: str) -> dict[str, Any]:
    seats = [{"label": "checker", "command": command, "host": "command"}] + [
        {"label": f"greedy-{i}", "name": "greedy"} for i in range(3)
    ]
    spec = match_spec({"match_id": "legal", "seed": 11, "rules": {"preset": preset, "rounds": 2},
                       "seats": seats, "limits": {"move_ms": 5000, "start_ms": 20000}})
    hosts = [make_host(s, spec.limits) for s in spec.seats]
    return trio.run(lambda: play_match(spec, hosts=hosts))


@pytest.mark.parametrize("preset", ["runs", "daifugo"])
def test_requests_carry_exactly_the_legal_moves_when_asked(preset: str) -> None:
    record = _match(f"{sys.executable} {CHECKER}", preset)
    assert not record_faults(record)
    moves = [m.move for d in record["deals"] for m in deal_moves(d) if m.seat == 0]
    assert len(moves) > 10 and "pass" in moves and any(m != "pass" for m in moves)


def test_requests_carry_no_legal_moves_unless_asked() -> None:
    record = _match(f"{sys.executable} {CHECKER} off", "runs")
    assert not record_faults(record)


def test_a_legal_moves_request_that_is_not_a_boolean_fails_the_start(tmp_path: Path) -> None:
    record = _match(greeting_bot(tmp_path, legal_moves="yes"), "runs")
    faults = record_faults(record)
    assert faults and faults[0]["kind"] == "malformed"
    assert "'legal_moves' must be true or false" in faults[0]["detail"]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_javascript_example_plays_a_tournament(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(ROOT)  # the config's command is relative to the repository root
    result = run_tournament(ROOT / "configs" / "node-bot.yaml", out=tmp_path, jobs=1)
    assert result.played == result.total > 0
    records = list(read_records(tmp_path / "records.jsonl"))
    node_moves = 0
    for record in records:
        assert not record_faults(record)
        seat = next(s["seat"] for s in record["seats"] if s["label"] == "node")
        node_moves += sum(m.move != "pass" for d in record["deals"] for m in deal_moves(d)
                          if m.seat == seat)
    assert node_moves > 50
