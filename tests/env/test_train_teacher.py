"""The teacher of the training pipeline (``--teacher``): ``guided`` labels the matches in
place of ``expert``, the same whatever ``--jobs``, names itself in the labels, the fit and
the network, and a folder keeps the labels of one teacher."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from arena.train import Plan, label_shards, run
from arena.train._fit import batch_targets
from arena.train._improve import Tuning
from arena.train._run import _teacher
from bots.learned import WEIGHTS, load_network

NO_STEPS = Tuning(steps=0)


def _plan(folder: Path, **options: object) -> Plan:
    return Plan(folder, shards=2, per_shard=1, budget=4, hidden=16, epochs=1,
                tuning=NO_STEPS, **options)  # type: ignore[arg-type]


def test_a_guided_teacher_labels_other_choices_and_names_itself(tmp_path: Path) -> None:
    lines: list[str] = []
    guided = run(_plan(tmp_path / "guided", teacher="guided"), lines.append)
    expert = run(_plan(tmp_path / "expert"), lines.append)
    digest = hashlib.sha256((WEIGHTS / "learned-runs.npz").read_bytes()).hexdigest()[:12]
    assert (tmp_path / "guided" / "labels" / "teacher.txt").read_text() == f"guided by {digest}\n"
    assert not (tmp_path / "expert" / "labels" / "teacher.txt").exists()
    meta = load_network(guided).meta["plan"]
    assert meta["teacher"] == f"guided by {digest}"
    assert "teacher" not in load_network(expert).meta["plan"]  # expert's runs as before
    with np.load(tmp_path / "guided" / "labels" / "shard-0000.npz") as g, \
            np.load(tmp_path / "expert" / "labels" / "shard-0000.npz") as e:
        assert np.array_equal(g["obs"][0], e["obs"][0])  # the same match's first decision...
        assert not np.array_equal(g["action"], e["action"])  # ...and other choices after

    with pytest.raises(ValueError, match=r"labelled by guided by \w+, not expert"):
        run(_plan(tmp_path / "guided"), lines.append)


def test_an_mc_teacher_labels_at_its_rounds_and_replays_from_the_seed(tmp_path: Path) -> None:
    """``--teacher mc`` labels with ``mc`` at ``--budget`` rounds (no clock: the labels
    replay), names itself, and chooses otherwise than ``expert``."""
    made = [run(_plan(tmp_path / name, teacher="mc"), lambda line: None) for name in "ab"]
    run(_plan(tmp_path / "expert"), lambda line: None)
    assert (tmp_path / "a" / "labels" / "teacher.txt").read_text() == "mc\n"
    assert load_network(made[0]).meta["plan"]["teacher"] == "mc"
    shards = [np.load(tmp_path / name / "labels" / "shard-0000.npz") for name in ("a", "b",
                                                                                   "expert")]
    with shards[0] as a, shards[1] as b, shards[2] as e:
        assert all(np.array_equal(a[k], b[k]) for k in a.files)
        assert not np.array_equal(a["action"], e["action"])


def test_guided_labels_are_the_same_whatever_the_jobs(tmp_path: Path) -> None:
    teacher = _teacher(Plan(tmp_path, budget=2, teacher="guided"))
    made = [[path.read_bytes() for path in label_shards(
        tmp_path / str(jobs), "runs", 4, 5, 3, 1, teacher, lambda line: None, jobs=jobs)]
        for jobs in (1, 2)]
    assert made[0] == made[1]


def test_bad_teachers_are_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError,
                       match="--teacher must be one of expert, guided, mc, not 'random'"):
        Plan(Path("x"), teacher="random")
    with pytest.raises(ValueError, match="--teacher-weights: only --teacher guided"):
        Plan(Path("x"), teacher_weights=WEIGHTS / "learned-runs.npz")
    with pytest.raises(ValueError, match=r"learned-uecda\.npz: a network of another table"):
        Plan(Path("x"), teacher="guided", teacher_weights=WEIGHTS / "learned-uecda.npz")
    with pytest.raises(ValueError, match=r"nosuch\.npz: not a network of the bot learned"):
        Plan(Path("x"), teacher="guided", teacher_weights=tmp_path / "nosuch.npz")
    with pytest.raises(ValueError, match="no shipped network reads runs at 5 seats"):
        Plan(Path("x"), players=5, teacher="guided")


def test_the_dagger_shards_name_a_guided_teacher(tmp_path: Path) -> None:
    """The DAgger shards are labelled by the plan's teacher, and what they were labelled for
    (``dagger/basis.txt``, compared on resuming) names a teacher other than ``expert``."""
    run(_plan(tmp_path / "g", teacher="guided", dagger=1, dagger_against=("greedy",)),
        lambda _: None)
    digest = hashlib.sha256((WEIGHTS / "learned-runs.npz").read_bytes()).hexdigest()[:12]
    assert (tmp_path / "g" / "dagger" / "basis.txt").read_text().endswith(
        f", teacher guided by {digest}")


def test_mc_s_labels_keep_its_candidates_points_and_the_temperature_spreads_by_them(
        tmp_path: Path) -> None:
    """``mc``'s labels keep each candidate's average points (its choice the best of them),
    and ``--temperature`` spreads a move's target by their softmax: near the best alone
    when cold, near even over the candidates when hot."""
    made = run(_plan(tmp_path / "mc", teacher="mc", soft=1.0, temperature=0.25), lambda _: None)
    assert load_network(made).meta["plan"]["temperature"] == "0.25"
    with np.load(tmp_path / "mc" / "labels" / "shard-0000.npz") as shard:
        data = {k: shard[k] for k in shard.files}
    starts = np.concatenate([[0], np.cumsum(data["soft_count"])])
    searched = [k for k in range(len(data["action"])) if data["soft_count"][k] > 1]
    assert len(searched) > 10
    for k in searched:
        acts, values = (data[name][starts[k]:starts[k + 1]] for name in ("soft_action",
                                                                         "soft_value"))
        assert data["action"][k] == acts[int(np.argmax(values))]
    rows = np.asarray(searched)
    same = np.arange(int(data["mask"].shape[1]) * 8)
    cold, hot = (batch_targets(dict(data), rows, same, len(same), 1.0, t) for t in (1e-3, 1e3))
    assert np.allclose(cold.sum(axis=1), 1) and np.allclose(hot.sum(axis=1), 1)
    chosen = cold[np.arange(len(rows)), data["action"][rows]]
    assert np.allclose(chosen, cold.max(axis=1))  # the best (a tie shares it at 4 rounds)
    counts = data["soft_count"][rows]
    assert np.allclose(hot.max(axis=1), 1 / counts, rtol=1e-2)
    warm = batch_targets(dict(data), rows, same, len(same), 1.0, 0.25)
    assert ((warm.max(axis=1) < 0.99) & (warm.max(axis=1) > 1 / counts + 0.01)).any()
    without = {k: v for k, v in data.items() if k != "soft_value"}
    with pytest.raises(ValueError, match="--temperature needs labels with the candidates'"):
        batch_targets(without, rows, same, len(same), 1.0, 0.25)
    with pytest.raises(ValueError, match="--temperature: only --teacher mc"):
        Plan(Path("x"), temperature=0.25)
    with pytest.raises(ValueError, match="--temperature must be at least 0, not -1"):
        Plan(Path("x"), teacher="mc", temperature=-1)
    with pytest.raises(ValueError, match="--temperature spreads --soft's share"):
        Plan(Path("x"), teacher="mc", temperature=0.25)
