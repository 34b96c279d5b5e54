"""A league's field stays bounded whatever its config or ``entries.json`` says: labels of at
most MAX_LABEL characters, config files of at most MAX_CONFIG_BYTES, at most MAX_FIELD
entrants, no trace of an entrant retired before it sat at a table, and the config parsed
again only when it changed (docs/league.md, "Bounds")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from arena.tournament import ConfigError, load_config, run_tournament
from arena.tournament._config._checks import MAX_CONFIG_BYTES
from arena.tournament._formats._base import ConfigFile
from arena.tournament._league import MAX_FIELD, MAX_LABEL

from .helpers import load_records
from .test_league_run import FIELD, _config, _Editor


def test_an_over_long_label_is_refused_in_one_line(tmp_path: Path) -> None:
    long = "x" * (MAX_LABEL + 1)
    config = _config(tmp_path, [*FIELD, f"{{name: passer, label: {long}}}"])
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    message = str(caught.value)
    assert f"a league's labels are at most {MAX_LABEL}" in message
    assert long not in message  # the label is cut in its own error
    load_config(_config(tmp_path, [*FIELD, f"{{name: passer, label: {'x' * MAX_LABEL}}}"]))


def test_an_over_long_label_in_entries_keeps_the_field(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "entries.json").write_text(json.dumps([{"name": "passer",
                                                   "label": "y" * 1_000_000}]))
    editor = _Editor(tmp_path / "unused", {})
    run_tournament(_config(tmp_path, FIELD, deals=9), out=out, jobs=1, reporter=editor)
    assert any(f"a league's labels are at most {MAX_LABEL}" in n for n in editor.notes)
    assert max(len(n) for n in editor.notes) < 300
    assert b"yyyy" not in (out / "records.jsonl").read_bytes()


def test_a_config_over_the_size_bound_is_refused_in_one_line(tmp_path: Path) -> None:
    config = _config(tmp_path, FIELD)
    text = config.read_text()
    config.write_text(text + "#" * (MAX_CONFIG_BYTES - len(text) - 1) + "\n")
    load_config(config)  # at the bound
    config.write_text(text + "#" * MAX_CONFIG_BYTES + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert str(caught.value).count("\n") == 0
    assert f"over {MAX_CONFIG_BYTES // 1024} KiB" in str(caught.value)


def test_a_field_over_the_bound_is_refused(tmp_path: Path) -> None:
    bots = [f"{{name: random, label: r{i}}}" for i in range(MAX_FIELD + 1)]
    with pytest.raises(ConfigError, match=f"a league's field holds at most {MAX_FIELD}"):
        load_config(_config(tmp_path, bots))


def test_a_field_grown_over_the_bound_while_it_runs_is_not_applied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.tournament._league_plan.MAX_FIELD", len(FIELD) + 1)
    config = _config(tmp_path, FIELD, deals=60)
    grown = config.read_text().replace("highest]", "highest, passer, {name: lowest, "
                                       "label: l2}]")
    editor = _Editor(config, {2: grown})
    run_tournament(config, out=tmp_path / "out", jobs=1, reporter=editor)
    refused = [n for n in editor.notes if n.startswith("config not applied")]
    assert len(refused) == 1 and f"over a league's {len(FIELD) + 1}" in refused[0]
    labels = {s["label"] for r in load_records(tmp_path / "out" / "records.jsonl")
              for s in r["seats"]}
    assert labels.isdisjoint({"passer", "l2"})


def test_an_entrant_retired_before_it_sat_leaves_no_trace(tmp_path: Path) -> None:
    config = _config(tmp_path, FIELD, deals=90)
    text = config.read_text()
    ghost = "g" * MAX_LABEL
    added = text.replace("highest]", f"highest, {{name: passer, label: {ghost}, "
                         "retired: true}]")
    editor = _Editor(config, {2: added, 4: text})
    run_tournament(config, out=tmp_path / "out", jobs=1, reporter=editor)
    records = load_records(tmp_path / "out" / "records.jsonl")
    assert max(r["round"] for r in records) >= 5
    assert all(ghost not in json.dumps(r["league"]) for r in records)
    assert ghost not in (tmp_path / "out" / "league.jsonl").read_text()
    # one that played keeps its results, and its place in the field, once retired
    retired = text.replace("lowest,", "{name: lowest, retired: true},")
    editor = _Editor(config, {3: retired})
    config.write_text(text)
    run_tournament(config, out=tmp_path / "again", jobs=1, reporter=editor)
    last = load_records(tmp_path / "again" / "records.jsonl")[-1]["league"]["entrants"]
    assert {"label": "lowest", "active": False, "anchor": False} in last


def test_the_config_is_parsed_again_only_when_it_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    read = ConfigFile.read

    def counted(self: ConfigFile) -> object:
        reads.append(self.path)
        return read(self)

    monkeypatch.setattr(ConfigFile, "read", counted)
    config = _config(tmp_path, FIELD, deals=90)
    editor = _Editor(config, {3: config.read_text().replace("highest]", "highest, passer]")})
    run_tournament(config, out=tmp_path / "out", jobs=1, reporter=editor)
    assert len(editor.statuses) >= 6
    assert len(reads) == 2, reads  # the first round's and the edit's
    assert "passer joined" in editor.notes


def test_a_large_fields_jackknife_is_the_small_fields_to_rounding() -> None:
    from arena.ratings._spread_large import draw_spread_large
    from arena.ratings._strength import _draw_spread, posterior_mode
    from arena.tournament._league import LeagueRules
    from arena.tournament._league_sim import PlantedLeague

    league = PlantedLeague([0.1 * i for i in range(40)], LeagueRules(), seed=3)
    for _ in range(4):
        league.play_round(league.assess())
    data = league.data()
    theta, precision, _ = posterior_mode(data, 1.0)
    dense = _draw_spread(data, theta, precision, 1.0)
    large = draw_spread_large(data, theta, precision, 1.0)
    assert np.abs(dense).max() > 0.01
    assert np.allclose(dense, large, rtol=0, atol=1e-12)


def test_arena_runs_one_blas_thread_unless_told() -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    code = "import arena, os; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert run.stdout.strip() == "1"
    told = subprocess.run([sys.executable, "-c", code], env={**env, "OPENBLAS_NUM_THREADS": "4"},
                          capture_output=True, text=True, check=True)
    assert told.stdout.strip() == "4"


def test_an_over_large_entry_is_refused_in_one_line(tmp_path: Path) -> None:
    from arena.tournament._league import MAX_ENTRY

    big = f"{{name: passer, label: p, version: {'v' * MAX_ENTRY}}}"
    with pytest.raises(ConfigError, match=f"a league's entries .* are at most {MAX_ENTRY}"):
        load_config(_config(tmp_path, [*FIELD, big]))
    out = tmp_path / "out"
    out.mkdir()
    (out / "entries.json").write_text(json.dumps([{"name": "passer", "label": "p",
                                                   "version": "v" * MAX_ENTRY}]))
    editor = _Editor(tmp_path / "unused", {})
    run_tournament(_config(tmp_path, FIELD, deals=9), out=out, jobs=1, reporter=editor)
    assert any(f"are at most {MAX_ENTRY}" in n for n in editor.notes), editor.notes
    assert "vvvv" not in (out / "league.jsonl").read_text()
