"""A/B runs: duplicate set layout, stopping, determinism across jobs, resuming from the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import ratings_planted_runner as planted_runner
from ratings_planted_runner import play, play_faulty_baseline

from arena.ratings import RatingsError, sprt_from_records
from arena.ratings._ab import AbConfig, bot_spec, run_ab


def _config(challenger: str = "strong", baseline: str = "weak", **kw: object) -> AbConfig:
    return AbConfig(challenger=bot_spec(challenger), baseline=bot_spec(baseline),
                    elo0=0, elo1=40, max_sets=400, **kw)  # type: ignore[arg-type]


def test_bot_spec_forms() -> None:
    assert bot_spec("greedy")["name"] == "greedy"
    assert bot_spec("g2=greedy")["label"] == "g2"
    spec = bot_spec("mine=cmd:python3 bot.py")
    assert (spec["host"], spec["command"], spec["name"]) == ("command", "python3 bot.py", None)
    with pytest.raises(ValueError, match="expected NAME"):
        bot_spec("=greedy")


def test_a_set_rotates_every_seat_over_one_seed() -> None:
    config = _config(players=4)
    seats, reference = config.seats()
    assert [s["label"] for s in seats] == ["strong", "weak", "weak#2", "weak#3"]
    assert reference == ["weak", "weak#2", "weak#3"]
    specs = config.set_specs(3)
    assert len(specs) == 8  # four rotations, of the order and of its mirror
    assert len({spec["seed"] for spec in specs}) == 1
    assert {spec["set"] for spec in specs} == {"ab-s3"}
    assert len({spec["match_id"] for spec in specs}) == 8
    for seat in range(4):
        labels = [spec["seats"][seat]["label"] for spec in specs]
        assert sorted(labels) == sorted(2 * [s["label"] for s in seats])  # each bot twice
    assert config.set_specs(4)[0]["seed"] != specs[0]["seed"]


def test_a_set_seats_every_pair_in_both_play_orders() -> None:
    # rotating alone would always put the baseline right after the challenger
    specs = _config(players=4, field=[bot_spec("twin")]).set_specs(0)
    after = {"weak after strong": 0, "strong after weak": 0}
    for spec in specs:
        labels = [seat["label"] for seat in spec["seats"]]
        c, b = labels.index("strong"), labels.index("weak")
        if (c + 1) % 4 == b:
            after["weak after strong"] += 1
        if (b + 1) % 4 == c:
            after["strong after weak"] += 1
    assert after["weak after strong"] == after["strong after weak"] > 0


def test_two_players_need_no_mirror() -> None:
    assert len(_config(players=2).set_specs(0)) == 2


def test_field_bots_and_label_clashes() -> None:
    config = _config(players=3, field=[bot_spec("twin")])
    assert [s["label"] for s in config.seats()[0]] == ["strong", "weak", "twin"]
    with pytest.raises(ValueError, match="repeated: weak"):
        _config(challenger="weak").seats()
    with pytest.raises(ValueError, match="do not fit"):
        _config(players=2, field=[bot_spec("twin")]).seats()


def test_stronger_challenger_is_accepted_and_progress_is_reported(tmp_path: Path) -> None:
    seen: list[float] = []
    result = run_ab(_config(players=2), runner=play, out=tmp_path / "ab.jsonl",
                    on_set=lambda status: seen.append(status.llr))
    assert result.status.decision == "H1"
    assert len(seen) == result.status.sets == result.sets_played
    assert seen[-1] >= result.status.upper > max(seen[:-1])
    lines = (tmp_path / "ab.jsonl").read_text().splitlines()
    assert len(lines) == 2 * result.sets_played
    replay = sprt_from_records([json.loads(x) for x in lines], "strong", "weak", elo0=0,
                               elo1=40, max_sets=400)
    assert replay == result.status


def test_equal_bots_are_not_accepted() -> None:
    result = run_ab(_config("twin", "weak", players=3), runner=play)
    assert result.status.decision == "H0"


def test_jobs_do_not_change_the_decision(tmp_path: Path) -> None:
    one = run_ab(_config(players=2), runner=play)
    two = run_ab(_config(players=2), runner=play, jobs=2, out=tmp_path / "ab.jsonl")
    assert one.status == two.status
    # sets still running when the test stopped are written too, never thrown away
    lines = (tmp_path / "ab.jsonl").read_text().splitlines()
    assert len(lines) >= 2 * two.status.sets


def test_rerun_reuses_the_sets_in_the_file(tmp_path: Path) -> None:
    out = tmp_path / "ab.jsonl"
    first = run_ab(_config(players=2), runner=play, out=out)
    planted_runner.CALLS.clear()
    again = run_ab(_config(players=2), runner=play, out=out)
    assert again.status == first.status
    assert again.sets_reused == first.status.sets and again.sets_played == 0
    assert planted_runner.CALLS == []


def test_rerun_with_other_options_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "ab.jsonl"
    run_ab(_config(players=2), runner=play, out=out)
    with pytest.raises(RatingsError, match="another seed or other seats"):
        run_ab(_config(players=2, seed=5), runner=play, out=out)


def test_faults_of_the_tested_sets_are_counted() -> None:
    result = run_ab(_config(players=2), runner=play_faulty_baseline)
    assert result.faults == {"weak": 3 * 2 * result.status.sets}  # 3 deals x 2 matches a set
    assert result.to_dict()["faults"] == result.faults
