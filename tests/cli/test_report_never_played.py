"""The report marks a bot that never made a move of its own, with its first fault line."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from arena.game import Rules
from arena.records import RecordWriter
from arena.referee import Limits, MatchSpec, Seat, run_match
from arena.report import write_report
from tests.report.helpers import js_value

BOTS = Path(__file__).with_name("start_bots.py")
ROOT_LOCALES = Path(__file__).resolve().parents[2] / "arena" / "web" / "locales"


def test_the_report_marks_a_bot_that_never_played_and_gives_its_first_fault(
        tmp_path: Path) -> None:
    dead = Seat(label="dead", host="command",
                command=shlex.join([sys.executable, str(BOTS), "exit3"]))
    with RecordWriter(tmp_path / "records.jsonl") as writer:
        for seed in range(2):
            writer.write(run_match(MatchSpec(
                match_id=f"m{seed}", seed=seed, rules=Rules.preset("standard", rounds=2),
                limits=Limits(), seats=(Seat(label="greedy", name="greedy"), dead,
                                        Seat(label="lowest", name="lowest")))))
    write_report(tmp_path, resamples=20)
    bots = js_value(tmp_path / "report" / "data" / "summary.js", "ARENA_SUMMARY")["bots"]
    assert bots["dead"]["never_played"] is True
    assert bots["dead"]["first_fault"].startswith("crash at start in 2/2 matches: ")
    assert "exit code 3" in bots["dead"]["first_fault"]
    for label in ("greedy", "lowest"):
        assert bots[label]["never_played"] is False and bots[label]["first_fault"] is None
    script = (tmp_path / "report" / "report.js").read_text(encoding="utf-8")
    assert '"report.never_played_note"' in script  # the page shows both under the leaderboard
    messages = json.loads((ROOT_LOCALES / "en" / "report.json").read_text(encoding="utf-8"))
    assert "never played a move: {fault}" in messages["report.never_played_note"]
