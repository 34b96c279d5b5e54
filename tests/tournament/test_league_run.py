"""Format league through arena run: the same records for any jobs and after kill -9 and
resume, and a field that follows the config file while the league runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.tournament import Reporter, run_tournament
from arena.tournament._league_plan import LeagueStatus
from tests.recordtools import kill_run_after

from .helpers import load_records

HEAD = ("name: lg\nseed: 5\nrules: {preset: runs, rounds: 2}\nplayers: 3\n"
        "format: {type: league, min_sets: 2, resamples: 20, stop: {deals: DEALS}}\n")
FIELD = ["greedy", "random", "lowest", "{name: random, label: r2}", "highest"]


def _config(tmp: Path, bots: list[str], deals: int = 60, name: str = "league") -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(HEAD.replace("DEALS", str(deals)) + f"bots: [{', '.join(bots)}]\n",
                    encoding="utf-8")
    return path


def test_a_league_gives_the_same_records_whatever_jobs(tmp_path: Path) -> None:
    config = _config(tmp_path, FIELD)
    one = run_tournament(config, out=tmp_path / "one", jobs=1)
    two = run_tournament(config, out=tmp_path / "two", jobs=2)
    records = load_records(tmp_path / "one" / "records.jsonl")
    assert records == load_records(tmp_path / "two" / "records.jsonl")
    assert one.league is not None and one.league["stop"] == "deals"
    assert one.league["round"] >= 2 and one.league["deals"] >= 60
    assert {r["round"] for r in records} == set(range(one.league["round"]))
    assert one.league == two.league
    again = run_tournament(config, out=tmp_path / "one", jobs=1)
    assert again.played == 0 and again.league == one.league


def test_a_league_on_dask_gives_the_same_records(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="Dask is not installed (pip install arena[dask])")
    config = _config(tmp_path, FIELD, deals=30)
    run_tournament(config, out=tmp_path / "local", jobs=1)
    run_tournament(config, out=tmp_path / "dask", dask="local:2")
    assert load_records(tmp_path / "dask" / "records.jsonl") == load_records(
        tmp_path / "local" / "records.jsonl")


def test_kill_9_then_resume_equals_an_uninterrupted_league(tmp_path: Path) -> None:
    config = _config(tmp_path, FIELD, deals=120)
    out = tmp_path / "killed"
    command = [sys.executable, "-c", "from arena.cli import main; main()", "run", str(config),
               "--out", str(out), "--jobs", "1", "--quiet"]
    records = out / "records.jsonl"
    kill_run_after(command, records, 14, within_s=120)
    partial = records.read_bytes().count(b"\n")
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    whole = run_tournament(config, out=tmp_path / "whole", jobs=1)
    assert partial < whole.played
    assert load_records(records) == load_records(tmp_path / "whole" / "records.jsonl")


class _Editor(Reporter):
    """Edits the config before given rounds, as an organiser would while the league runs."""

    def __init__(self, path: Path, edits: dict[int, str]) -> None:
        self.path, self.edits = path, edits
        self.statuses: list[LeagueStatus] = []
        self.notes: list[str] = []

    def league(self, status: LeagueStatus) -> None:
        self.statuses.append(status)
        edit = self.edits.get(status.round + 1)
        if edit is not None:  # the next round's reread sees it
            self.path.write_text(edit, encoding="utf-8")

    def note(self, line: str) -> None:
        self.notes.append(line)


def test_editing_the_config_during_a_league_adds_retires_and_versions(tmp_path: Path) -> None:
    config = _config(tmp_path, FIELD, deals=150)
    text = config.read_text()
    added = text.replace("highest]", "highest, passer]")
    retired = added.replace("lowest,", "{name: lowest, retired: true},")
    versioned = retired.replace("greedy,", "{name: greedy, version: 2},")
    editor = _Editor(config, {2: added, 4: "name: lg\nplayers: [\n", 5: retired, 7: versioned})
    result = run_tournament(config, out=tmp_path / "out", jobs=1, reporter=editor)
    assert "passer joined" in editor.notes
    assert "lowest retired" in editor.notes
    assert "greedy retired: replaced by greedy@2" in editor.notes
    assert any(n.startswith("config not applied, the field stays as it was:") for n in
               editor.notes)
    by_round: dict[int, set[str]] = {}
    for record in load_records(tmp_path / "out" / "records.jsonl"):
        by_round.setdefault(record["round"], set()).update(s["label"] for s in record["seats"])
    last = max(by_round)
    assert last >= 8
    assert "passer" not in by_round[0] | by_round[1] and "passer" in by_round[2] | by_round[3]
    assert all("lowest" not in by_round[r] for r in range(5, last + 1))
    assert all("greedy" not in by_round[r] for r in range(7, last + 1))
    assert any("greedy@2" in by_round[r] for r in range(7, last + 1))
    assert result.league is not None
    ratings = {row["label"]: row for row in result.league["ratings"]}
    assert ratings["lowest"]["sets"] > 0 and not ratings["lowest"]["active"]
    assert ratings["greedy"]["sets"] > 0 and ratings["greedy@2"]["active"]
    # resumed from the records and league.jsonl: nothing replayed, the same history
    again = run_tournament(config, out=tmp_path / "out", jobs=1)
    assert again.played == 0 and again.league == result.league


def test_validate_says_how_a_league_plays_and_stops(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from arena.cli import main

    budget = CliRunner().invoke(main, ["validate", str(_config(tmp_path, FIELD, deals=90))])
    assert budget.exit_code == 0, budget.output
    assert "5 active, rounds of 1 duplicate set (3 matches) chosen by information" in (
        budget.output)
    assert budget.output.rstrip().endswith("stops after 90 deals")
    assert "0 matches" not in budget.output
    path = tmp_path / "confident.yaml"
    path.write_text(HEAD.replace("{deals: DEALS}", "{confident: 0.9, top: 2}").replace(
        "min_sets: 2", "min_sets: 2, tables_per_round: 3") + "bots: [greedy, random, lowest, "
        "{name: highest, retired: true}]\n", encoding="utf-8")
    confident = CliRunner().invoke(main, ["validate", str(path)])
    assert confident.exit_code == 0, confident.output
    assert ("3 active, rounds of 3 duplicate sets (9 matches) chosen by information, stops "
            "once P(order of top 2) >= 0.9 with 2 sets for every active entrant") in (
                confident.output)


def test_teams_set_while_a_league_runs_seat_mates_apart_from_the_next_round(
        tmp_path: Path) -> None:
    config = _config(tmp_path, FIELD, deals=120)
    text = config.read_text()
    teamed = text.replace("greedy,", "{name: greedy, team: t},").replace(
        "lowest,", "{name: lowest, team: t},")
    impossible = teamed.replace("random,", "{name: random, team: t},", 1).replace(
        "highest]", "{name: highest, team: t}]")  # 2 teams for tables of 3: refused
    editor = _Editor(config, {6: teamed, 8: impossible})
    run_tournament(config, out=tmp_path / "out", jobs=1, reporter=editor)
    assert not any("joined" in n or "retired" in n for n in editor.notes[1:]), editor.notes
    refused = [n for n in editor.notes if n.startswith("config not applied")]
    assert refused and "no table of 3 keeps team-mates apart" in refused[0]
    together = {r["round"] for r in load_records(tmp_path / "out" / "records.jsonl")
                if {"greedy", "lowest"} <= {s["label"] for s in r["seats"]}}
    assert together and max(together) < 6  # met before the team, never after


def test_a_config_left_broken_for_several_rounds_is_refused_in_one_line(
        tmp_path: Path) -> None:
    config = _config(tmp_path, FIELD, deals=120)
    good = config.read_text()
    broken = good.replace("highest]", "highst]")
    editor = _Editor(config, {2: broken, 6: good, 7: "name: lg\nplayers: [\n"})
    run_tournament(config, out=tmp_path / "out", jobs=1, reporter=editor)
    assert len(editor.statuses) > 8  # the broken file stood through rounds 2 to 5
    refused = [n for n in editor.notes if n.startswith("config not applied")]
    assert len(refused) == 2, editor.notes  # once for each breakage, not once a round
    assert "unknown bot 'highst'" in refused[0] and "YAML syntax error" in refused[1]
