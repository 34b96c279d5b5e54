"""``arena ratings`` fits the terminal (80 columns and narrower) and marks a bot that never
played a move, with its first fault."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.game import Rules
from arena.records import RecordWriter
from arena.referee import Limits, MatchSpec, Seat, run_match

BOTS = Path(__file__).with_name("start_bots.py")
LABELS = ["greedy", "random", "a-rather-long-label", "lowest"]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ratings") / "records.jsonl"
    with RecordWriter(path) as writer:
        for seed in range(3):
            seats = tuple(Seat(label=label, name=label.split("-")[0] if "-" not in label
                               else "mc") for label in LABELS)
            writer.write(run_match(MatchSpec(
                match_id=f"m{seed}", seed=seed, rules=Rules.preset("standard", rounds=2),
                limits=Limits(), seats=seats)))
        dead = Seat(label="dead", host="command",
                    command=shlex.join([sys.executable, str(BOTS), "exit3"]))
        writer.write(run_match(MatchSpec(
            match_id="m-dead", seed=9, rules=Rules.preset("standard", rounds=2),
            limits=Limits(), seats=(Seat(label="greedy", name="greedy"), dead))))
    return path


def ratings(path: Path, columns: int) -> list[str]:
    result = CliRunner().invoke(main, ["ratings", str(path)], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


@pytest.mark.parametrize("columns", [80, 70, 60])
def test_the_leaderboard_fits_the_terminal_with_whole_numbers(records: Path,
                                                              columns: int) -> None:
    lines = ratings(records, columns)
    board = lines[:lines.index(next(line for line in lines if line.startswith("left out")))]
    assert all(len(line.rstrip()) <= columns for line in board)
    assert not any("…" in line for line in board)  # no cell cut to 0…
    rows = [line.split() for line in board[1:] if line.split() and line.split()[0].isdigit()]
    assert len(rows) == 5
    assert {row[2] for row in rows} >= {"greedy", "random", "lowest"}  # rank, its range, bot
    for row in rows:  # the deal score and its interval are whole
        assert any(len(cell) == 5 and cell[1] == "." for cell in row)
        assert any(len(cell) == 11 and cell[5] == "-" for cell in row)
    if columns == 80:
        assert "left out at this width: ordinal, timeouts" in " ".join(lines)


def test_a_wide_terminal_shows_every_column(records: Path) -> None:
    lines = ratings(records, 200)
    header = next(line for line in lines if "deal score" in line)
    for name in ("ordinal", "timeouts", "mu ± sigma", "1st"):
        assert name in header
    assert not any(line.startswith("left out") for line in lines)


def test_a_bot_that_never_played_is_marked_with_its_first_fault(records: Path) -> None:
    lines = ratings(records, 200)
    (row,) = [line for line in lines if " dead" in line and line.split()[0].isdigit()]
    assert "dead (never played)" in row
    (note,) = [line for line in lines if line.startswith("dead never played a move: ")]
    assert "crash at start in 1/1 matches" in note and "exit code 3" in note


def test_a_head_to_head_too_wide_for_the_terminal_is_a_list_of_whole_pairs(
        records: Path) -> None:
    lines = ratings(records, 60)
    start = next(i for i, line in enumerate(lines) if line.startswith("head to head"))
    assert lines[start].startswith("head to head (pairs that shared a table)")
    pairs = lines[start:]
    assert all(len(line.rstrip()) <= 60 for line in pairs)
    assert not any("…" in line for line in pairs)  # no label cut to gre…, but folded
    (row,) = [i for i, line in enumerate(pairs) if line.split()[:2] == ["a-rather-l", "greedy"]]
    assert pairs[row + 1].split() == ["ong-label"]
    wide = ratings(records, 200)
    assert any(line.startswith("head to head: share of shared deals") for line in wide)


def test_a_leagues_strengths_fit_60_columns_and_keep_the_anchor_and_retired_marks() -> None:
    import io

    from rich.console import Console

    from arena.cli._leaderboard import print_strengths
    from arena.ratings import StrengthBoard, StrengthLine

    lines_in = [StrengthLine(label=label, rank=rank, strength=strength, low=strength - 0.3,
                             high=strength + 0.3, sets=28, deals=224, active=rank is not None,
                             anchor=label == "greedy")
                for label, rank, strength in (("greedy-2", 1, 0.25), ("greedy", 2, 0.0),
                                              ("passer", None, -5.28))]
    board = StrengthBoard(lines=lines_in, confidence=0.95, resamples=50, top=3, p_top=0.5)
    for width, whole in ((60, False), (100, True)):
        out = io.StringIO()
        print_strengths(board, Console(file=out, width=width, soft_wrap=False), clusters=50)
        lines = out.getvalue().splitlines()
        text = " ".join(" ".join(lines).split())
        assert all(len(line.rstrip()) <= width for line in lines)
        assert "95% intervals over 50 duplicate sets" in text and "strength " in text
        assert "-5.58 .. -4.98" in text
        if whole:
            assert "anchor" in next(line for line in lines if " greedy " in line)
            assert "retired" in next(line for line in lines if " passer " in line)
        else:
            assert "anchor: greedy; retired: passer; left out at this width: deals" in text
