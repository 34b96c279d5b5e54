"""arena show: a recorded match move by move in the terminal."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.cli._show import cards_text
from arena.records import read_records
from arena.report import replay_deals


def test_show_prints_every_move_and_the_finishing_order(run_folder: Path) -> None:
    path = run_folder / "records.jsonl"
    record = next(r for r in read_records(path) if r["match_id"] == "zz-clumsy-forfeit")
    out = CliRunner().invoke(main, ["show", str(path), "zz-clumsy-forfeit", "--deal", "2"])
    assert out.exit_code == 0, out.output
    labels = [s["label"] for s in record["seats"]]
    deal = record["deals"][1]
    events = replay_deals(record)[1]
    rows = [line.split() for line in out.output.splitlines()
            if line.split() and line.split()[0].isdigit() and len(line.split()) >= 3
            and not line.startswith("seat")]
    numbered = [r for r in rows if r[0] == str(int(r[0]))][4:]  # after the 4 hand rows
    assert [int(r[0]) for r in numbered] == list(range(1, len(events) + 1))
    for row, event in zip(numbered, events, strict=True):
        if event.fault is not None:
            assert f"fault: {event.fault}" in " ".join(row)
        elif event.text != "pass":
            assert str(cards_text(event.text)) in " ".join(row)
    order = ", ".join(f"{place}. {labels[seat]} ({deal['points'][seat]})"
                      for place, seat in enumerate(deal["finish_order"], start=1))
    assert f"finishing order (points): {order}" in out.output
    assert "deal 2 of 3" in out.output and "deal 1 of 3" not in out.output


def test_show_bad_input_is_one_line(run_folder: Path, tmp_path: Path) -> None:
    path = str(run_folder / "records.jsonl")
    for args, message in (([path, "nope"], "no match 'nope'"),
                          ([path, "zz-clumsy-pass", "--deal", "9"], "has 3 deals, not 9"),
                          ([str(tmp_path / "none.jsonl"), "x"], "no such records file")):
        out = CliRunner().invoke(main, ["show", *args])
        assert out.exit_code == 2 and message in out.output
        assert len(out.output.strip().splitlines()) == 1


def test_cards_read_as_a_spectator_reads_them() -> None:
    assert str(cards_text("TH QS JK 3C")) == "10♥ Q♠ Jkr 3♣"
    assert str(cards_text("pass")) == "pass"


def test_a_match_the_referee_failed_to_play_is_one_line_in_show_and_in_the_report(
    run_folder: Path, tmp_path: Path
) -> None:
    from arena.report import ReplayError, write_report

    first = next(iter(read_records(run_folder / "records.jsonl")))
    failed = {"schema": 1, "type": "error", "match_id": "zz-failed", "seed": 1,
              "seats": [{"seat": i, "label": s["label"]} for i, s in enumerate(first["seats"])],
              "error": "RuntimeError: boom (referee.py:1)", "traceback": "Traceback ...\n"}
    folder = tmp_path / "run"
    folder.mkdir()
    path = folder / "records.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(failed) + "\n")
    out = CliRunner().invoke(main, ["show", str(path), "zz-failed"])
    assert out.exit_code == 2
    assert out.output.strip().splitlines() == [
        "Error: match 'zz-failed' was not played (error): RuntimeError: boom (referee.py:1)"]
    try:
        replay_deals(failed)
    except ReplayError as exc:
        assert "not played" in str(exc) and "boom" in str(exc)
    else:
        raise AssertionError("an error record replayed")
    result = write_report(folder, resamples=10)
    assert any("zz-failed" in line and "boom" in line for line in result.unreplayable)
