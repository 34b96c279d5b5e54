"""The after-move head of ``learned``'s network (``--after``, :mod:`bots.after`; its
gradients are checked with the trainer's, tests/env/test_train.py): it reads the hand each
move leaves and the cards unseen, the trainer and the bot score a move alike, a fitted head
travels in the network file, and a file with a broken head or a plan that cannot fit one
is refused in one line."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from arena.env import encoding
from arena.game import Match, Rules
from arena.train import Plan, run
from arena.train._feats import attach
from arena.train._fit import Trainer, batch_features, scores
from arena.train._improve import Tuning
from arena.train._label import load_shards
from bots.after import AFTER_LAYERS, after_inputs
from bots.learned import LearnedBot, Network, load_network


def _plan(folder: Path, **options: object) -> Plan:
    return Plan(folder, shards=2, per_shard=1, budget=4, hidden=16, epochs=2,
                tuning=Tuning(steps=0), **options)  # type: ignore[arg-type]


def test_a_fitted_head_is_played_as_it_was_fitted_and_travels_in_the_file(
        tmp_path: Path) -> None:
    made = run(_plan(tmp_path / "after", after=8), lambda _: None)
    network = load_network(made)
    assert sorted(network.after) == sorted(AFTER_LAYERS)
    assert network.after["a0"].shape[1] == 8 and load_network(made).meta["plan"]["after"] == "8"
    assert "after" not in load_network(run(_plan(tmp_path / "none"), lambda _: None)).meta["plan"]

    assert np.abs(network.after["a2"]).max() > 0  # fitted: it starts at 0

    # The trainer's scores (its agreement, the fit's checks) are the bot's, move by move (the
    # labels keep the move features in float16, the bot computes them afresh); a head whose
    # scores weigh (its last layer drawn large) shows a difference of the two.
    coder = encoding(Rules.preset("runs"), 4)
    paths = sorted((tmp_path / "after" / "labels").glob("shard-????.npz"))
    data = attach(coder, load_shards(paths), paths)
    arrays = _arrays(network) | {"a2": np.random.default_rng(1).standard_normal(8).astype(
        np.float32) * 3}
    heavy = Network(arrays, network.meta)
    trainer = Trainer(arrays)
    trainer.coder = coder
    rows = np.arange(min(40, len(data["action"])))
    fitted = scores(trainer, data, rows, coder.action_size)
    masks = np.unpackbits(data["mask"][rows], axis=1, count=coder.action_size)
    bare = Network({k: v for k, v in arrays.items() if k not in AFTER_LAYERS}, network.meta)
    gaps = []
    for row, mask in zip(rows, masks, strict=True):
        legal = np.flatnonzero(mask)
        played = heavy.scores(data["obs"][row], legal)
        assert np.allclose(fitted[row, legal], played, atol=1e-3)
        gap = played - bare.scores(data["obs"][row], legal)
        gaps.append(float(gap.max() - gap.min()))
    assert max(gaps) > 0.1, gaps  # the head tells the moves apart
    legal = np.flatnonzero(masks[0])
    # What the head reads of each move: the hand the move leaves, the cards not seen.
    feats = batch_features(data, rows)
    assert feats is not None
    inputs = after_inputs(coder, data["obs"][rows], *feats)
    cards = coder.segments[0].length
    assert inputs.shape == (len(feats[0]), 2 * cards + feats[2].shape[1])
    for entry, (row, action) in enumerate(zip(*feats[:2], strict=True)):
        observation = data["obs"][row]
        hand = coder.cards(coder.field(observation, "hand"))
        left = list(hand)
        for card in coder.move(int(action)).cards:
            left.remove(card)
        assert sorted(map(str, coder.cards(inputs[entry, :cards]))) == sorted(map(str, left))
        played = coder.field(observation, "played").reshape(4, cards).max(axis=0)
        seen = {str(c) for c in hand + coder.cards(played) if not c.is_joker}
        unseen = {str(c) for c in coder.cards(inputs[entry, cards:2 * cards]) if not c.is_joker}
        assert len(unseen) == 52 - len(seen) and not unseen & seen

    # The bot plays a whole match with it.
    bot = LearnedBot(weights=str(made))
    match = Match(Rules.preset("runs"), 4, 5)
    bot.bind(0, Rules.preset("runs"), 4, random.Random(0))
    while (decision := match.pending) is not None:
        view = match.view(decision.seat)
        if decision.kind == "exchange":
            match.give(bot.exchange(view, decision.count))
        else:
            move = bot.play(view)
            assert move in view.legal_moves()
            match.play(move)


def _arrays(network: Network) -> dict[str, np.ndarray]:  # type: ignore[type-arg]
    names = ("w0", "b0", "w1", "b1", "wm", "bm", "wg", "bg", "wf", "bf")
    return {name: getattr(network, name) for name in names} | network.after


def test_a_broken_head_or_a_plan_that_cannot_fit_one_is_refused_in_one_line(
        tmp_path: Path) -> None:
    network = load_network(run(_plan(tmp_path / "after", after=4), lambda _: None))
    arrays = _arrays(network)
    with pytest.raises(ValueError, match="after-move head lacks the arrays a2"):
        Network({k: v for k, v in arrays.items() if k != "a2"}, network.meta)
    with pytest.raises(ValueError, match=r"the network's a1 has shape \(4, 3\), not \(4, 4\)"):
        Network(arrays | {"a1": arrays["a1"][:, :3]}, network.meta)
    with pytest.raises(ValueError, match="needs the features head"):
        Network({k: v for k, v in arrays.items() if k not in ("wf", "bf")}, network.meta)
    with pytest.raises(ValueError, match="--after must be at least 0, not -1"):
        _plan(tmp_path, after=-1)
    with pytest.raises(ValueError, match="--after: the after-move head reads the move features"):
        _plan(tmp_path, after=4, features=False)
