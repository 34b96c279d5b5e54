"""The training pipeline of the bot ``learned`` (arena.train), in a tiny run without PyTorch:
labels from expert, the numpy trainer's gradients, resuming, and the exported network
entered as a bot."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.bot import Bot
from arena.env import encoding
from arena.game import Card, Deal, Match, Move, Rules
from arena.train import Plan, Samples, Trainer, init_params, label_match, label_shards, run
from arena.train._feats import shard_features
from arena.train._fit import batch_features, batch_targets
from arena.train._improve import Tuning, described
from arena.train._suits import permutations
from bots import ExpertBot, GreedyBot, HighestBot, LowestBot
from bots.learned import FEATURES, WEIGHTS, LearnedBot, load_network
from tests.bots.test_legality import checked_match


@cache
def _tiny_data(seed: int = 3) -> tuple[dict[str, np.ndarray], int]:
    rules = Rules.preset("runs", rounds=2)
    coder = encoding(rules, 4)
    samples = Samples()
    label_match(rules, 4, seed, lambda: ExpertBot(budget=4, move_ms=10**7), samples)
    obs_size = coder.segments[-1].offset + coder.segments[-1].length
    return samples.arrays(obs_size, coder.segments[0].length), coder.action_size


def test_labels_are_legal_choices_of_the_teacher_and_replay() -> None:
    data, actions = _tiny_data()
    assert len(data["action"]) > 50 and len(data["gift"]) > 0
    mask = np.unpackbits(data["mask"], axis=1, count=actions)
    assert mask[np.arange(len(mask)), data["action"]].all()  # the teacher's move is legal
    assert (mask.sum(axis=1) > 1).all()  # forced moves teach nothing and are left out
    assert (data["gift"] <= data["hand"]).all() and (data["gift"].sum(axis=1) > 0).all()
    again, _ = _tiny_data.__wrapped__()
    assert all(np.array_equal(data[k], again[k]) for k in data)
    # the teacher's playouts: its choice among its candidates, the most played where it searched
    assert len(data["soft_count"]) == len(data["action"]) and (data["soft_count"] > 0).all()
    starts = np.concatenate([[0], np.cumsum(data["soft_count"])])
    searched = 0
    for k, action in enumerate(data["action"]):
        acts = data["soft_action"][starts[k]:starts[k + 1]]
        visits = data["soft_visits"][starts[k]:starts[k + 1]]
        assert mask[k, acts].all() and action == acts[visits.argmax()]
        searched += len(acts) > 1
    assert searched > 10


def test_shards_labelled_in_several_processes_are_the_ones_labelled_in_one(
        tmp_path: Path) -> None:
    def teacher() -> ExpertBot:
        return ExpertBot(budget=2, move_ms=10**7)

    made: dict[int, list[bytes]] = {}
    for jobs in (1, 2):
        spent: list[float] = []
        paths = label_shards(tmp_path / str(jobs), "runs", 4, 5, 3, 1, teacher,
                             lambda line: None, spent.append, jobs)
        made[jobs] = [path.read_bytes() for path in paths]
        assert len(spent) == 3 and (min(spent) > 0) == (jobs > 1)  # the workers' CPU
    assert made[1] == made[2]


def test_soft_targets_spread_the_teacher_s_playouts() -> None:
    data, actions = _tiny_data()
    data = dict(data)
    rows = np.arange(len(data["action"]))
    same = np.arange(actions)
    hard = batch_targets(data, rows, same, actions, 0.0)
    assert np.array_equal(hard.argmax(axis=1), data["action"]) and (hard.max(axis=1) == 1).all()
    half = batch_targets(data, rows, same, actions, 0.5)
    assert np.allclose(half.sum(axis=1), 1)
    mask = np.unpackbits(data["mask"], axis=1, count=actions)
    assert (half[mask == 0] == 0).all()
    assert (half.max(axis=1) < 1).sum() > 10  # spread where the teacher searched
    coder = encoding(Rules.preset("runs"), 4)
    _, new_action, _ = permutations(coder)[5]
    renamed = batch_targets(data, rows, new_action, actions, 0.5)
    assert np.allclose(renamed[:, new_action], half)
    trainer = Trainer(init_params(data["obs"].shape[1], actions, data["hand"].shape[1], 8, 1))
    assert trainer.move_loss(data["obs"], mask, hard) == pytest.approx(
        trainer.move_loss(data["obs"], mask, data["action"]))
    with pytest.raises(ValueError, match="soft targets need labels with the teacher's"):
        batch_targets({k: v for k, v in data.items() if not k.startswith("soft")}, rows,
                      same, actions, 0.5)


@pytest.mark.parametrize("head", ["move", "features", "gift", "soft", "after"])
def test_the_trainer_s_gradients_are_the_loss_s(head: str) -> None:
    data, actions = _tiny_data()
    coder = encoding(Rules.preset("runs"), 4)
    trainer = Trainer(init_params(data["obs"].shape[1], actions, data["hand"].shape[1], 8, 1,
                                  features=head in ("features", "after"),
                                  after=4 if head == "after" else 0))
    trainer.coder = coder
    if head == "after":  # drawn away from 0, where it starts, so the head's layers learn
        trainer.params["a2"] = np.random.default_rng(2).standard_normal(4).astype(np.float32)
    rows = np.arange(6)
    feats = batch_features(data | shard_features(coder, data), rows)

    def loss(grads: dict[str, np.ndarray] | None = None) -> float:
        if head != "gift":
            mask = np.unpackbits(data["mask"][rows], axis=1, count=actions)
            target = (batch_targets(dict(data), rows, np.arange(actions), actions, 0.7)
                      if head == "soft" else data["action"][rows])
            return trainer.move_loss(data["obs"][rows], mask, target, grads, feats)
        return trainer.gift_loss(data["gift_obs"][:3], data["hand"][:3], data["gift"][:3], grads)

    grads = {k: np.zeros_like(v) for k, v in trainer.params.items()}
    loss(grads)
    rng = np.random.default_rng(0)
    step = 1e-3 if head == "after" else 1e-2  # the head's small units: a step past a kink
    names = {"move": ("w0", "b1", "wm"), "soft": ("w0", "b1", "wm"),
             "features": ("w0", "wf", "bf", "wm"), "gift": ("w0", "b1", "wg"),
             "after": ("a0", "ah", "ab0", "a1", "a2", "w1", "wf")}[head]
    for name in names:
        weights = trainer.params[name]
        nonzero = np.flatnonzero(grads[name])
        for flat in rng.choice(nonzero, size=min(3, len(nonzero)), replace=False):
            index = np.unravel_index(flat, weights.shape)
            kept = weights[index]
            weights[index] = kept + step
            up = loss()
            weights[index] = kept - step
            down = loss()
            weights[index] = kept
            assert (up - down) / (2 * step) == pytest.approx(grads[name][index], rel=0.05,
                                                              abs=1e-4), (name, index)


TINY = Tuning(steps=2, deals=1, held=1, check=1, patience=5)


def test_a_tiny_run_trains_resumes_and_enters_a_match(tmp_path: Path) -> None:
    plan = Plan(tmp_path / "run", shards=2, per_shard=1, budget=4, hidden=16, epochs=2,
                tuning=TINY, soft=0.5)
    lines: list[str] = []
    out = run(plan, lines.append)
    assert out == tmp_path / "run" / "learned-runs.npz"
    assert any("epoch 2/2" in line for line in lines) and any("CPU time" in line for line in lines)
    assert any("improve: step 2/2" in line for line in lines)
    network = load_network(out)
    assert network.meta["preset"] == "runs" and network.meta["moves"] > 50
    assert network.meta["plan"]["soft"] == "0.5"
    assert set(network.meta["cpu_seconds"]) == {"label", "fit", "improve"}
    assert network.meta["cpu_seconds"]["label"] > 0
    assert network.wf is not None and network.bf is not None
    assert network.exchange == network.meta["exchange"] == "greedy"
    assert network.meta["improved"]["steps"] == 2
    assert set(network.meta["improved"]["held_points"]) == {"cloned", "best"}
    shards = sorted((tmp_path / "run" / "labels").glob("shard-????.npz"))
    stamps = [p.stat().st_mtime_ns for p in shards]

    lines.clear()
    run(Plan(tmp_path / "run", shards=2, per_shard=1, budget=4, hidden=16, epochs=3,
             tuning=TINY), lines.append)
    assert [p.stat().st_mtime_ns for p in shards] == stamps  # the labels are not made again
    assert "fit: resumed after epoch 2" in lines and any("epoch 3/3" in line for line in lines)
    assert Trainer.load(tmp_path / "run" / "state.npz").epoch == 3
    assert any("improve: step 1/2" in line for line in lines)  # a new fit is tuned afresh

    lines.clear()
    run(Plan(tmp_path / "run", shards=2, per_shard=1, budget=4, hidden=16, epochs=3,
             tuning=replace(TINY, steps=3)), lines.append)
    steps = [line for line in lines if line.startswith("improve: step")]
    assert len(steps) == 1 and steps[0].startswith("improve: step 3/3")  # resumed

    lines.clear()  # more shards: the saved fit was made from other data, so it is not resumed
    run(Plan(tmp_path / "run", shards=3, per_shard=1, budget=4, hidden=16, epochs=3,
             tuning=TINY), lines.append)
    assert [p.stat().st_mtime_ns for p in shards] == stamps  # only the new shard is labelled
    assert any("fitted for another plan (runs 4 seats, seed 1, 2 shards of 1" in line
               for line in lines)
    assert "fit: resumed after epoch 3" not in lines
    assert any("epoch 1/3" in line for line in lines) and any("epoch 3/3" in line for line in lines)
    assert any("improve: step 1/2" in line for line in lines)  # and tuned afresh
    assert "3 shards of 1" in Trainer.load(tmp_path / "run" / "state.npz").basis

    bots = {"learned": lambda: LearnedBot(str(out))}
    match = checked_match(["learned", "greedy", "learned", "mc"], Rules.preset("runs", rounds=2),
                          5, factories=bots)
    assert match.finished


def test_bad_plans_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="--shards must be at least 2"):
        Plan(Path("x"), shards=1)
    with pytest.raises(ValueError, match="nosuch"):
        Plan(Path("x"), preset="nosuch")
    with pytest.raises(ValueError, match="--steps must be at least 0, not -1"):
        Plan(Path("x"), tuning=Tuning(steps=-1))
    with pytest.raises(ValueError, match="--held-deals must be at least 1, not 0"):
        Plan(Path("x"), tuning=Tuning(held=0))
    with pytest.raises(ValueError, match="--exchange must be greedy or network, not 'x'"):
        Plan(Path("x"), exchange="x")
    with pytest.raises(ValueError, match="--jobs must be at least 1, not 0"):
        Plan(Path("x"), jobs=0)
    with pytest.raises(ValueError, match=r"--soft must be between 0 and 1, not 1\.5"):
        Plan(Path("x"), soft=1.5)


@pytest.mark.parametrize("seed", [1, 2])
def test_renaming_the_suits_of_a_deal_renames_its_observations_and_actions(seed: int) -> None:
    rules = Rules.preset("daifugo")
    coder = encoding(rules, 4)
    renamings = permutations(coder)
    assert len(renamings) == 24
    # C -> H, D -> S, H -> C, S -> D: suit s becomes (2, 3, 0, 1)[s]
    obs_index, new_action, old_action = renamings[
        list(itertools.permutations(range(4))).index((2, 3, 0, 1))]
    names = str.maketrans("CDHS", "HSCD")
    first = Match(rules, 4, seed).deal
    hands = [first.hand(seat) for seat in range(4)]
    deal = Deal.from_hands(rules, hands, 0)
    renamed = Deal.from_hands(rules, [[Card.parse(str(c).translate(names)) for c in hand]
                                      for hand in hands], 0)
    rng = random.Random(seed)
    for _ in range(30):
        if deal.finished:
            break
        seat = deal.to_move
        view, other = deal.view(seat), renamed.view(seat)
        observation, mask = coder.observe(view), coder.action_mask(view.legal_moves())
        assert np.array_equal(coder.observe(other), observation[obs_index])
        assert np.array_equal(coder.action_mask(other.legal_moves()), mask[old_action])
        move = rng.choice(view.legal_moves())
        twin = Move.parse(str(move).translate(names))
        assert coder.index(twin) == new_action[coder.index(move)]
        deal.play(move)
        renamed.play(twin)


def test_the_improvement_s_opponents_fill_the_other_seats_in_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.train import _improve
    from bots import GreedyBot, McBot

    greedy, mc = _improve.opponents(["greedy", "mc:3"])
    assert isinstance(greedy(), GreedyBot) and not isinstance(greedy(), McBot)
    made = mc()
    assert isinstance(made, McBot) and made.playouts == 3
    tables: list[list[str]] = []

    def play(bots: list[object], rules: Rules, seed: int) -> dict[str, list[int]]:
        tables.append([type(bot).__name__ for bot in bots])
        return {"scores": [0, 1, 2, 3]}

    monkeypatch.setattr(_improve, "play_bots", play)
    network = load_network(WEIGHTS / "learned-runs.npz")
    assert _improve.duplicate_points(network, Rules.preset("runs"), [7], [greedy, mc]) == 1.5
    assert tables == [["LearnedBot", "GreedyBot", "McBot", "GreedyBot"],
                      ["GreedyBot", "LearnedBot", "GreedyBot", "McBot"],
                      ["McBot", "GreedyBot", "LearnedBot", "GreedyBot"],
                      ["GreedyBot", "McBot", "GreedyBot", "LearnedBot"]]
    for bad, said in [("nosuch", "--against nosuch: "), ("mc:x", "--against mc:x: PLAYOUTS"),
                      ("greedy:3", "--against greedy:3: ")]:
        with pytest.raises(ValueError, match=said):
            Plan(Path("x"), tuning=Tuning(against=(bad,)))


def test_a_league_seats_its_snapshots_from_the_seed_and_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.train import _improve

    network = load_network(WEIGHTS / "learned-runs.npz")
    plan = Tuning(steps=4, deals=1, held=1, check=2, patience=5, league=2)
    tables: list[list[object]] = []
    play = _improve.play_bots

    def seen(bots: list[Bot], rules: Rules, seed: int) -> dict[str, Any]:
        tables.append(list(bots))
        return play(bots, rules, seed)

    monkeypatch.setattr(_improve, "play_bots", seen)
    lines: list[str] = []
    whole = _improve.improve(network, 7, plan, tmp_path / "whole.json", progress=lines.append)
    state = json.loads((tmp_path / "whole.json").read_text())
    assert state["basis"].endswith("league 2")
    snapshots = state["snapshots"]
    assert len(snapshots) == 3 and snapshots[0] == [0.0] * (len(FEATURES) + 1)  # cloned, steps 2, 4
    assert snapshots[1] != snapshots[0] and snapshots[2] == state["theta"]
    assert any("kept as snapshot 1 of the league" in line for line in lines)
    assert whole.meta["improved"]["league"] == {"every": 2, "snapshots": 3}
    kept = _improve.tuned(network, np.asarray(snapshots[1])).bf

    def beside(table: list[object]) -> bool:  # snapshot 1 sits at the table
        return any(isinstance(bot, LearnedBot) and np.array_equal(bot.networks[0].bf, kept)
                   for bot in table)

    # the matches of the cloned check and steps 1 and 2 (4 + 8 + 8) come before it is kept
    assert not any(beside(table) for table in tables[:20])
    assert any(beside(table) for table in tables[20:])
    assert any(isinstance(bot, GreedyBot) and not isinstance(bot, LearnedBot)
               for table in tables[20:] for bot in table)  # the built-ins still play
    draw = _improve.league_draw(7, 3, 8, 4, 2)
    assert np.array_equal(draw, _improve.league_draw(7, 3, 8, 4, 2))
    assert not np.array_equal(draw, _improve.league_draw(8, 3, 8, 4, 2))
    assert set(np.unique(draw)) == {-1, 0, 1}

    saves = [0]

    def interrupted() -> None:
        saves[0] += 1
        if saves[0] == 4:  # the cloned check's save, then steps 1, 2 and 3
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _improve.improve(network, 7, plan, tmp_path / "cut.json", progress=lines.append,
                         spent=interrupted)
    cut = json.loads((tmp_path / "cut.json").read_text())
    assert cut["step"] == 3 and len(cut["snapshots"]) == 2
    again = _improve.improve(network, 7, plan, tmp_path / "cut.json", progress=lines.append)
    assert (tmp_path / "cut.json").read_bytes() == (tmp_path / "whole.json").read_bytes()
    assert again.bf is not None and whole.bf is not None
    assert np.array_equal(again.bf, whole.bf) and np.array_equal(again.wm, whole.wm)


def test_without_a_league_the_built_ins_alone_sit_beside_the_network(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.train import _improve

    tables: list[list[str]] = []

    def play(bots: list[Bot], rules: Rules, seed: int) -> dict[str, list[int]]:
        tables.append([type(bot).__name__ for bot in bots])
        return {"scores": [seed % 7, 1, 2, 3]}

    monkeypatch.setattr(_improve, "play_bots", play)
    network = load_network(WEIGHTS / "learned-runs.npz")
    shown: list[tuple[int, int, str]] = []
    tuned = _improve.improve(network, 7, TINY, tmp_path / "improve.json", progress=print,
                             bar=lambda done, total, what: shown.append((done, total, what)))
    assert len(tables) == 4 + 2 * 8 + 2 * 4
    # the bar counts every match, and the plan foresaw them all
    assert [done for done, _, _ in shown[:-1]] == list(range(1, len(tables) + 1))
    assert {total for _, total, _ in shown} == {len(tables)}
    assert shown[4][2] == "improve: step 1/2" and shown[-1][2] == "improve: done"
    assert all(sorted(table) == ["GreedyBot"] * 3 + ["LearnedBot"] for table in tables)
    state = json.loads((tmp_path / "improve.json").read_text())
    assert "snapshots" not in state and "ab" not in state
    assert not {"league", "ab"} & set(tuned.meta["improved"])
    # a network's meta says of a plan without a league or A/B checks what it always said
    before = ("steps", "deals", "check", "held", "patience", "sigma", "rate", "against")
    assert described(TINY) == str({name: getattr(TINY, name) for name in before})
    assert "'league': 3" in described(replace(TINY, league=3))
    assert "'ab_against'" in described(replace(TINY, ab_every=1))


def test_an_ab_check_is_what_arena_ab_says(tmp_path: Path) -> None:
    from arena.tournament import ab_config, run_tournament
    from arena.train import _improve

    network = load_network(WEIGHTS / "learned-runs.npz")
    played: list[int] = []
    status = _improve.ab_check(network, "greedy", 2, lambda: played.append(1))
    assert status.sets == 2 and status.decision == "inconclusive" and len(played) == 16
    # arena ab learned greedy --preset runs --max-sets 2: the shipped network is the same one
    seats = [{"label": "learned", "name": "learned"}, {"label": "greedy", "name": "greedy"}]
    result = run_tournament(ab_config(seats, preset="runs", max_sets=2), out=tmp_path / "ab",
                            jobs=1)
    assert result.sprt == status.to_dict()
    cheap = _improve.ab_check(network, "mc:1", 1)
    assert cheap.sets == 1 and 0.0 <= cheap.score <= 1.0


def test_bad_league_and_ab_options_are_refused_in_one_line() -> None:
    for tuning, said in [(Tuning(league=-1), "--league must be at least 0, not -1"),
                         (Tuning(ab_every=-2), "--ab-every must be at least 0, not -2"),
                         (Tuning(ab_sets=0), "--ab-sets must be at least 1, not 0"),
                         (Tuning(ab_against=("nosuch",)), "--ab-against nosuch: "),
                         (Tuning(ab_against=("mc:0",)), "--ab-against mc:0: PLAYOUTS"),
                         (Tuning(ab_against=("learned",)), "--ab-against learned: the network")]:
        with pytest.raises(ValueError, match=said):
            Plan(Path("x"), tuning=tuning)


def test_dagger_labels_the_teacher_s_choices_on_the_student_s_play() -> None:
    rules = Rules.preset("runs", rounds=2)
    coder = encoding(rules, 4)
    samples = Samples()
    seats = [(LowestBot, True), (GreedyBot, False), (LowestBot, True), (GreedyBot, False)]
    label_match(rules, 4, 7, HighestBot, samples, seats)

    # the same match played by the seats' bots alone: a teacher asked beside the students
    # changes nothing that is played, and is asked at the students' choices only
    bots: list[Bot] = [make() for make, _ in seats]
    judges = {0: HighestBot(), 2: HighestBot()}
    for seat, bot in [*enumerate(bots), *judges.items()]:
        bot.bind(seat, rules, 4, random.Random(0))
    match, wanted, played = Match(rules, 4, 7), [], []
    while (decision := match.pending) is not None:
        view = match.view(decision.seat)
        if decision.kind == "exchange":
            match.give(bots[decision.seat].exchange(view, decision.count))
            continue
        move = bots[decision.seat].play(view)
        if decision.seat in judges and len(match.deal.legal_moves()) > 1:
            wanted.append(coder.index(judges[decision.seat].play(view)))
            played.append(coder.index(move))
        match.play(move)
    assert samples.action == wanted and len(wanted) > 30
    assert wanted != played  # the labels are the teacher's, not the moves played
    assert samples.gift == []  # the students' exchanges are not the teacher's


def test_a_run_with_dagger_fits_the_student_s_play_too_and_resumes(tmp_path: Path) -> None:
    plan = Plan(tmp_path / "run", shards=2, per_shard=1, budget=4, hidden=16, epochs=2,
                tuning=TINY, dagger=2, dagger_against=("greedy",))
    lines: list[str] = []
    network = load_network(run(plan, lines.append))
    shards = sorted((tmp_path / "run" / "dagger").glob("shard-????.npz"))
    assert len(shards) == 2 and any(line.startswith("dagger runs: shard 2/2") for line in lines)
    added = network.meta["dagger"]["moves"]
    assert added > 50 and any(f"dagger: {added} moves of the student's play" in line
                              for line in lines)
    alone = load_network(run(replace(plan, folder=tmp_path / "alone", dagger=0), lambda _: None))
    assert network.meta["moves"] == alone.meta["moves"] + added
    assert "dagger" not in alone.meta and "dagger" not in alone.meta["plan"]
    assert network.meta["cpu_seconds"]["dagger"] > 0
    stamps = [p.stat().st_mtime_ns for p in shards]

    lines.clear()
    run(plan, lines.append)  # resumed: nothing labelled, fitted nor tuned again
    assert [p.stat().st_mtime_ns for p in shards] == stamps
    assert lines.count("fit: resumed after epoch 2") == 2
    assert not any(line.startswith(("dagger runs", "improve: step")) for line in lines)
    with pytest.raises(ValueError, match="--dagger-against nosuch"):
        Plan(Path("x"), dagger=1, dagger_against=("nosuch",))
