"""``arena play`` shows the table as it is played: each trick's end, each player going out,
what the Scum's exchange took and brought, and says what Ctrl-C left behind."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import arena.cli._play as play
from arena.cli import main

TYPED = "1\n1 2\n" * 400  # the first legal move; "1 2" answers an exchange of two


def _play(tmp_path: Path, seed: int) -> tuple[str, dict[str, Any]]:
    records = tmp_path / "play.jsonl"
    result = CliRunner().invoke(main, ["play", "--seed", str(seed), "--records", str(records),
                                       "greedy", "lowest", "random"], input=TYPED)
    assert result.exit_code == 0, result.output
    (line,) = records.read_text().splitlines()
    return result.output, json.loads(line)


def test_trick_ends_and_players_going_out_are_marked(tmp_path: Path) -> None:
    out, record = _play(tmp_path, 5)
    assert "(trick ends)" in out
    outs = re.findall(r"^  (.+) \(seat (\d)\): .*\(goes out", out, flags=re.MULTILINE)
    # each deal's first three finishers go out on a play (the last is left with cards)
    firsts = {str(seat) for deal in record["deals"] for seat in deal["finish_order"][:3]}
    assert {seat for _, seat in outs} >= firsts - {"0"} and outs
    assert not re.search(r"\b1 cards\b", out) and " 1 card " in out


def test_the_scum_is_told_what_was_taken_and_what_came_back(tmp_path: Path) -> None:
    out, record = _play(tmp_path, 5)
    gave = {d["deal"]: [c for e in d["exchanges"] if e["kind"] == "gift" and e["from"] == 0
                        for c in e["cards"]] for d in record["deals"]}
    came = {d["deal"]: [c for e in d["exchanges"] if e["kind"] == "return" and e["to"] == 0
                        for c in e["cards"]] for d in record["deals"]}
    gifts = [(deal, cards) for deal, cards in gave.items() if cards]
    assert gifts  # seed 5 makes the person the Scum
    for deal, cards in gifts:
        to = {"scum": "the President", "vice-scum": "the Vice-President"}[
            record["deals"][deal]["roles"][0]]
        line = (f"  exchange: your {' '.join(sorted(cards))} went to {to} by rule; "
                f"you received {' '.join(sorted(came[deal]))}")
        shown = [sorted_cards(x) for x in out.splitlines() if x.startswith("  exchange: ")]
        assert sorted_cards(line) in shown


def sorted_cards(line: str) -> str:
    """An exchange line with its two card lists in a fixed order (the view sorts by rank)."""
    head, _, rest = line.partition("your ")
    gave, _, rest = rest.partition(" went")
    middle, _, got = rest.partition("received ")
    return f"{head}your {' '.join(sorted(gave.split()))} went{middle}received " + " ".join(
        sorted(got.split()))


def test_the_give_back_prompt_does_not_say_the_person_leads(tmp_path: Path) -> None:
    out, _ = _play(tmp_path, 4)  # seed 4 makes the person give back cards
    lines = out.splitlines()
    asks = [k for k, line in enumerate(lines) if line.startswith("  you received ")]
    assert asks
    for k in asks:
        assert lines[k - 2] == "  pile: empty"  # then "your hand: ...", then the prompt


def test_ctrl_c_before_the_end_leaves_no_empty_records_file_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(play, "run_match", interrupted)
    records = tmp_path / "play.jsonl"
    result = CliRunner().invoke(main, ["play", "--records", str(records), "greedy"])
    assert result.exit_code == 130
    assert not records.exists()
    assert result.stderr.strip() == (f"interrupted: the match is recorded only once it ends; "
                                     f"no {records} was left behind")
    records.write_text("{}\n")
    result = CliRunner().invoke(main, ["play", "--records", str(records), "greedy"])
    assert result.exit_code == 130 and records.read_text() == "{}\n"
    assert result.stderr.strip().endswith(f"{records} is as it was")
