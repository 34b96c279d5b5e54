"""``arena ratings`` on a league's records gives the league's own standings: the same fit
(anchors, versions ``LABEL@2``, retired entrants marked), from the records alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from arena.cli import main
from arena.ratings import rate, rate_files, read_many
from arena.tournament import run_tournament

from .helpers import load_records

HEAD = ("name: lr\nseed: 11\nrules: {preset: runs, rounds: 2}\nplayers: 3\n"
        "format: {type: league, min_sets: 2, resamples: 20, stop: {deals: DEALS}}\n")


def _write(path: Path, deals: int, bots: str) -> Path:
    path.write_text(HEAD.replace("DEALS", str(deals)) + f"bots: [{bots}]\n", encoding="utf-8")
    return path


def _league(tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """A league of five, then resumed with one entrant retired and one in a new version."""
    config = tmp_path / "league.yaml"
    out = tmp_path / "out"
    _write(config, 40, "{name: greedy, anchor: true}, random, lowest, highest, passer")
    run_tournament(config, out=out, jobs=1)
    _write(config, 90, "{name: greedy, anchor: true}, random, {name: lowest, retired: true}, "
                       "{name: highest, version: 2}, passer")
    result = run_tournament(config, out=out, jobs=1)
    assert result.league is not None
    return result.league, out


def test_arena_ratings_gives_the_leagues_own_leaderboard(tmp_path: Path) -> None:
    league, out = _league(tmp_path)
    run = CliRunner().invoke(main, ["ratings", str(out / "records.jsonl"), "--json",
                                    "--resamples", "50"])
    assert run.exit_code == 0, run.output
    board = json.loads(run.output)["league"]
    assert board is not None
    lines = {line["label"]: line for line in board["entrants"]}
    own = {row["label"]: row for row in league["ratings"]}
    assert set(lines) == set(own) == {"greedy", "random", "lowest", "highest", "highest@2",
                                      "passer"}
    for label, row in own.items():
        line = lines[label]
        assert abs(line["strength"] - row["strength"]) < 1e-5, label
        assert (line["sets"], line["deals"], line["active"], line["anchor"]) == (
            row["sets"], row["deals"], row["active"], row["anchor"]), label
        assert line["low"] <= line["strength"] <= line["high"]
    assert lines["greedy"]["anchor"] and abs(lines["greedy"]["strength"]) < 1e-9
    assert not lines["lowest"]["active"] and lines["lowest"]["rank"] is None
    assert not lines["highest"]["active"] and lines["highest@2"]["active"]
    assert lines["lowest"]["sets"] > 0 and lines["highest"]["sets"] > 0
    ranked = sorted((line for line in board["entrants"] if line["active"]),
                    key=lambda line: line["rank"])
    assert [line["label"] for line in ranked] == league["order"]
    text = CliRunner().invoke(main, ["ratings", str(out), "--resamples", "50"])
    assert text.exit_code == 0, text.output
    assert "league: Plackett-Luce strengths" in text.output
    shown = [line.split() for line in text.output.splitlines()]
    assert next(cells[:2] for cells in shown if "lowest" in cells) == ["-", "lowest"]
    assert any("highest" in cells and "retired" in cells for cells in shown)
    assert any("greedy" in cells and "anchor" in cells for cells in shown)


def test_every_league_record_carries_its_rounds_field(tmp_path: Path) -> None:
    _, out = _league(tmp_path)
    records = load_records(out / "records.jsonl")
    assert all("league" in record for record in records)
    last = max(record["round"] for record in records)
    field = next(r["league"] for r in records if r["round"] == last)
    assert {e["label"]: e["active"] for e in field["entrants"]} == {
        "greedy": True, "random": True, "lowest": False, "highest": False, "highest@2": True,
        "passer": True}
    first = next(r["league"] for r in records if r["round"] == 0)
    assert all(e["active"] for e in first["entrants"]) and len(first["entrants"]) == 5
    fast = rate_files(out / "records.jsonl", resamples=10).strengths
    plain = rate(read_many([out / "records.jsonl"]), resamples=10).strengths
    assert fast is not None and fast == plain  # the typed reader reads the field as the plain


def test_a_round_robins_records_carry_no_league_and_rate_without_one(tmp_path: Path) -> None:
    config = tmp_path / "rr.yaml"
    config.write_text("name: rr\nseed: 3\nplayers: 3\nrules: {preset: runs, rounds: 1}\n"
                      "bots: [greedy, random, lowest]\n", encoding="utf-8")
    run_tournament(config, out=tmp_path / "rr", jobs=1)
    assert all("league" not in r for r in load_records(tmp_path / "rr" / "records.jsonl"))
    assert rate_files(tmp_path / "rr", resamples=10).strengths is None


def test_a_malformed_league_field_is_an_error_naming_its_match(tmp_path: Path) -> None:
    import pytest

    from arena.ratings import RatingsError

    _, out = _league(tmp_path)
    lines = (out / "records.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    record["league"] = {"entrants": [{"label": "greedy", "active": "yes", "anchor": False}]}
    lines[3] = json.dumps(record)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RatingsError, match=f"match '{record['match_id']}': 'league' must be"):
        rate_files(bad, resamples=10)
    run = CliRunner().invoke(main, ["ratings", str(bad)])
    assert run.exit_code != 0 and "'league' must be an object" in run.output
    assert "Traceback" not in run.output


def test_a_leagues_closing_table_is_its_standings_document(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    """The league's closing table shows the entrants of ``standings.json``, rated once at
    the end (by ``write_standings``): the run rates no file again to print it."""
    import arena.ratings

    def again(*args: object, **kwargs: object) -> None:
        raise AssertionError("the run rated its records a second time")

    monkeypatch.setattr(arena.ratings, "rate_files", again)
    config = _write(tmp_path / "league.yaml", 40,
                    "{name: greedy, anchor: true}, random, lowest, highest")
    out = tmp_path / "out"
    run = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-j", "1"],
                             terminal_width=200)
    assert run.exit_code == 0, run.output
    document = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    entrants = document["ratings"]["league"]["entrants"]
    table = run.output[run.output.index("League standings"):].splitlines()
    for line in entrants:
        row = next(cells for cells in (t.split() for t in table) if line["label"] in cells)
        shown = f"{line['strength']:+.2f}" if line["sets"] else "-"
        assert shown in row, (line, row)
        if line["sets"]:
            assert f"{line['low']:+.2f}" in row and f"{line['high']:+.2f}" in row, (line, row)
