"""A small finished league for the leaderboard tests: an anchor, a retired entrant and an
entrant in its second version, written by ``arena run`` as an organiser runs it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.cli import main

HEAD = ("name: leaguetest\nseed: 11\nrules: {preset: runs, rounds: 2}\nplayers: 3\n"
        "format: {type: league, min_sets: 2, resamples: 20, stop: STOP}\n")
FIRST = "{name: greedy, anchor: true}, random, lowest, highest, passer"
SECOND = ("{name: greedy, anchor: true}, random, {name: lowest, retired: true}, "
          "{name: highest, version: 2}, passer")


def run_league(folder: Path) -> Path:
    """``arena run`` of the league to 40 deals, then on with ``lowest`` retired and ``highest``
    in a new version (``highest@2``) until P(order of top 2) reaches 0.6; the output
    folder."""
    config = folder / "league.yaml"
    out = folder / "out"
    for stop, bots in (("{deals: 40}", FIRST), ("{confident: 0.6, top: 2}", SECOND)):
        config.write_text(HEAD.replace("STOP", stop) + f"bots: [{bots}]\n", encoding="utf-8")
        result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-j", "1",
                                           "-q"])
        assert result.exit_code == 0, result.output
    return out
