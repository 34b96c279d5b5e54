"""examples/c-bot compiles with the machine's C compiler and plays whole matches cleanly."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from arena.game import Rules
from arena.records import deal_moves
from arena.referee import Limits, MatchSpec, Seat, run_match

SOURCE = Path(__file__).resolve().parents[2] / "examples" / "c-bot" / "bot.c"
CC = shutil.which("cc")


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if CC is None:
        pytest.skip("no C compiler (cc) on this machine: apt-get install gcc to build "
                    "examples/c-bot")
    binary = tmp_path_factory.mktemp("c-bot") / "bot"
    subprocess.run([CC, "-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o", str(binary),
                    str(SOURCE)], check=True, capture_output=True, timeout=120)
    return binary


@pytest.mark.parametrize("preset", ["standard", "daifugo"])
def test_the_c_example_plays_whole_matches_without_a_fault(c_bot: Path, preset: str) -> None:
    seats = (Seat(label="c", command=str(c_bot), host="command"),
             Seat(label="random", name="random"), Seat(label="greedy", name="greedy"),
             Seat(label="lowest", name="lowest"))
    returns = 0
    for seed in range(3):
        record = run_match(MatchSpec(match_id=f"c-{seed}", seed=seed, seats=seats,
                                     rules=Rules.preset(preset), limits=Limits()))
        assert [f for d in record["deals"] for f in d["faults"]] == []
        assert record["seats"][0]["bot"] == "c-first"
        plays = [m for d in record["deals"] for m in deal_moves(d)
                 if m.seat == 0 and m.move != "pass"]
        assert len(plays) > 10
        returns += sum(e["from"] == 0 and e["kind"] == "return"
                       for d in record["deals"] for e in d.get("exchanges") or ())
    assert returns > 0  # it gave cards back as President or Vice-President
