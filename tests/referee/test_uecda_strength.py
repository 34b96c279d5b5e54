"""benchmarks/strength.py's reading of its records and its one-line refusals (the benchmark
itself needs UECda programs built outside the project: it is not run here)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from arena.ratings import simulate_records

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength.py"


def _strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("arena_strength_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _records(tmp_path: Path, strengths: dict[str, float]) -> Path:
    path = tmp_path / "records.jsonl"
    with path.open("w") as out:
        for record in simulate_records(strengths, sets=12, players=5, deals=20, seed=3):
            out.write(json.dumps(record) + "\n")
    return path


def _mean_points(path: Path, label: str) -> float:
    total = games = 0
    for line in path.read_text().splitlines():
        record = json.loads(line)
        seat = [s["label"] for s in record["seats"]].index(label)
        for deal in record["deals"]:
            total += deal["points"][seat]
            games += 1
    return total / games


def test_the_tables_give_points_per_game_and_the_paired_difference(tmp_path: Path) -> None:
    strength = _strength()
    path = _records(tmp_path, {"fujigokoro": 0.0, "mc": 1.5, "kit-1": 0.0, "kit-2": 0.0,
                               "kit-3": 0.0})
    text = strength.report(path, "mc")
    rows = {line.split("|")[1].strip(): line.split("|")[2:-1] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| bot")}
    assert set(rows) == {"fujigokoro", "mc", "kit (3, pooled)"}
    games, blocks = int(rows["mc"][0]), int(rows["mc"][1])
    assert (games, blocks) == (12 * 5 * 20, 12 * 5)
    mc, fuji = _mean_points(path, "mc"), _mean_points(path, "fujigokoro")
    assert float(rows["mc"][2]) == pytest.approx(mc, abs=5e-4)
    low, high = (float(v) for v in rows["mc"][3].split("-"))
    assert low < mc < high
    found = re.search(r"paired difference mc - fujigokoro: ([-+][0-9.]+) points per game, "
                      r"95% ([-+][0-9.]+) to ([-+][0-9.]+)", text)
    assert found is not None
    diff, dlow, dhigh = (float(v) for v in found.groups())
    assert diff == pytest.approx(mc - fuji, abs=5e-4)
    assert 0 < dlow < diff < dhigh  # a planted stronger bot: the interval lies above 0


def test_the_think_times_are_read_per_bot_from_the_moves(tmp_path: Path) -> None:
    strength = _strength()
    path = tmp_path / "records.jsonl"
    with path.open("w") as out:
        for n, record in enumerate(simulate_records(
                {"fujigokoro": 0.0, "mc": 0.0, "kit-1": 0.0, "kit-2": 0.0, "kit-3": 0.0},
                sets=2, players=5, deals=4, seed=5)):
            labels = [s["label"] for s in record["seats"]]
            fuji, mc = labels.index("fujigokoro"), labels.index("mc")
            for k, deal in enumerate(record["deals"]):
                # the champion thinks 1..n ms over the run, mc always 7 ms; a move the record
                # did not time counts for neither
                deal["movers"] = [fuji, mc, mc]
                deal["moves"] = ["3C", "pass", "4D"]
                deal["think_us"] = [(n * 4 + k + 1) * 1000, 7000, None]
            out.write(json.dumps(record) + "\n")
    rows = {line.split("|")[1].strip(): line.split("|")[-2].strip()
            for line in strength.report(path, "mc").splitlines()
            if line.startswith("| ") and not line.startswith("| bot")}
    times = [float(ms) for ms in range(1, 2 * 5 * 4 + 1)]
    median, p99 = np.percentile(times, [50, 99])
    assert rows["fujigokoro"] == f"{median:.0f}, {p99:.0f}, 40"
    assert rows["mc"] == "7, 7, 7"
    assert rows["kit (3, pooled)"] == "-"


def test_a_missing_program_is_named_in_one_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    strength = _strength()
    kit = tmp_path / "client"
    kit.write_text("#!/bin/sh\n")
    kit.chmod(0o755)
    status = strength.main(["--kit", str(kit), "--fujigokoro", str(tmp_path / "nowhere"),
                            "--fujigokoro-params", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "nowhere" in err and "--fujigokoro" in err
    assert strength.main(["--kit", str(kit), "--fujigokoro", str(kit),
                          "--fujigokoro-params", str(tmp_path / "none")]) == 2
    assert "parameter folder" in capsys.readouterr().err
