"""Whatever a bot says, its record stays bounded: fault details, names and versions are cut
to the lengths docs/records.md gives, and ``arena show`` prints none of the bot's escapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

from arena.records import MAX_DETAIL, MAX_NAME, RecordWriter
from arena.referee import CommandHost, InlineHost, Limits, play_match
from tests.matchspecs import match_spec

HERE = Path(__file__).parent


def play_against(command: str) -> dict[str, Any]:
    """A match of 2 deals of ``command`` against two built-in bots."""
    limits = Limits.from_dict({"move_ms": 3000, "start_ms": 20000})
    hosts = [CommandHost(command, limits=limits), InlineHost("random"), InlineHost("greedy")]
    spec = match_spec({"match_id": "parrot", "seed": 11, "rules": {"rounds": 2},
                       "limits": {"move_ms": 3000, "start_ms": 20000}}, hosts)
    return trio.run(lambda: play_match(spec, hosts=hosts))


def test_a_wordy_bot_makes_a_small_record_and_a_clean_show(tmp_path: Path) -> None:
    record = play_against(f"{sys.executable} {HERE / 'wordy_bot.py'}")
    seat = record["seats"][0]
    assert len(seat["bot"]) == MAX_NAME and len(seat["version"]) == MAX_NAME
    faults = [f for deal in record["deals"] for f in deal["faults"] if f["seat"] == 0]
    assert faults and all(len(f["detail"]) <= MAX_DETAIL for f in faults)
    assert "characters cut" in faults[0]["detail"]
    assert any("output tail" in f["detail"] and "\x1b]0;" in f["detail"] for f in faults)
    size = len(json.dumps(record))
    assert size < 40 * 1024 + len(faults) * (MAX_DETAIL + 200), size  # 94 MB before
    RecordWriter(tmp_path / "records.jsonl").write(record)
    shown = subprocess.run(
        [str(Path(sys.executable).parent / "arena"), "show", str(tmp_path), "parrot"],
        capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert "bot error" in shown.stdout  # the faults are there, without their escapes
    assert not any(ch in shown.stdout for ch in "\x1b\x07\x9b\x9d"), repr(shown.stdout[:300])
