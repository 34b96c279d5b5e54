"""``arena run``'s final standings on a 60-column terminal: whole labels and numbers, the
least telling columns left out and named."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from arena.cli._run import _print_final
from arena.tournament import run_tournament

CONFIG = """name: narrow
seed: 3
players: 4
rules: {preset: standard, rounds: 2}
format: {type: round_robin}
bots:
  - greedy
  - {name: greedy, label: greedy-2}
  - {name: lowest, label: a-rather-long-label}
  - random
"""


def test_the_final_standings_fit_60_columns_with_every_label_whole(tmp_path: Path) -> None:
    config = tmp_path / "narrow.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    result = run_tournament(config, out=tmp_path / "out", jobs=1)
    out = io.StringIO()
    _print_final(Console(file=out, width=60, soft_wrap=False), result, 1.0)
    lines = out.getvalue().splitlines()
    table = lines[:next(i for i, line in enumerate(lines) if "matches played" in line)]
    assert all(len(line.rstrip()) <= 60 for line in table)
    assert not any("…" in line for line in table)
    labels = {line.split()[1] for line in table if line.split() and line.split()[0].isdigit()}
    assert {"greedy", "greedy-2", "random", "a-rather-long-label"} <= labels
    header = next(line for line in table if " bot " in line)
    assert "match score" in header and "faults" in header
    caption = " ".join(" ".join(table).split())
    assert "left out at this width: points/match" in caption
