"""``OUT/entries.json``: entries a program adds to a league's field beside its config join
it as the config's do (a changed one as LABEL@2), and a bad file keeps the field as it was."""

from __future__ import annotations

import json
from pathlib import Path

from arena.tournament import Reporter, run_tournament

from .helpers import load_records

CONFIG = ("name: entries\nseed: 5\nrules: {preset: runs, rounds: 1}\nplayers: 3\n"
          "format: {type: league, min_sets: 1, resamples: 20, stop: {deals: DEALS}}\n"
          "bots: [greedy, random, lowest]\n")


def _run(tmp_path: Path, deals: int) -> set[str]:
    config = tmp_path / "league.yaml"
    config.write_text(CONFIG.replace("DEALS", str(deals)), encoding="utf-8")
    run_tournament(config, out=tmp_path / "out", jobs=1)
    return {seat["label"] for record in load_records(tmp_path / "out" / "records.jsonl")
            for seat in record["seats"]}


def test_entries_join_the_field_and_a_change_is_a_new_version(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "entries.json").write_text(json.dumps([{"name": "highest", "label": "sub"}]))
    assert "sub" in _run(tmp_path, 12)
    (out / "entries.json").write_text(json.dumps([{"name": "passer", "label": "sub",
                                                   "version": 2}]))
    labels = _run(tmp_path, 40)
    assert {"sub", "sub@2"} <= labels
    field = json.loads((out / "league.jsonl").read_text().splitlines()[-1])["field"]
    active = {e["label"]: e["active"] for e in field}
    assert active["sub"] is False and active["sub@2"] is True


def test_a_bad_entries_file_keeps_the_field(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "entries.json").write_text(json.dumps([{"name": "random", "label": "greedy"}]))
    config = tmp_path / "league.yaml"
    config.write_text(CONFIG.replace("DEALS", "9"), encoding="utf-8")
    notes: list[str] = []

    class Notes(Reporter):
        def note(self, line: str) -> None:
            notes.append(line)

    run_tournament(config, out=out, jobs=1, reporter=Notes())
    assert any("entries not applied: the label 'greedy'" in line for line in notes), notes
    labels = {seat["label"] for record in load_records(out / "records.jsonl")
              for seat in record["seats"]}
    assert labels == {"greedy", "random", "lowest"}
