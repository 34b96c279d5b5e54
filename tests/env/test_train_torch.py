"""The cloning stage's PyTorch backend (``--backend torch``): the same batches and Adam as
the numpy trainer, the gradients by autograd, so both backends fit the same network; it
runs when PyTorch is installed (the extra ``train``) and is refused in one line when not."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from arena.env import encoding
from arena.game import Rules
from arena.train import Plan, Trainer, init_params, run
from arena.train._feats import shard_features
from arena.train._improve import Tuning
from arena.train._suits import permutations
from bots.learned import LearnedBot, load_network
from tests.bots.test_legality import checked_match

from .test_train import _tiny_data

needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="PyTorch is not installed (the extra train)")


@needs_torch
@pytest.mark.parametrize("soft", [0.0, 0.5])
def test_both_backends_fit_the_same_network(soft: float) -> None:
    from arena.train._torch import TorchTrainer

    data, actions = _tiny_data()
    coder = encoding(Rules.preset("runs"), 4)
    data = data | shard_features(coder, data)
    fitted = []
    for backend in (Trainer, TorchTrainer):
        trainer = backend(init_params(data["obs"].shape[1], actions, data["hand"].shape[1],
                                      16, 1, features=True))
        losses = [trainer.epoch_pass(data, actions, 32, np.random.default_rng(epoch),
                                     permutations(coder), soft) for epoch in range(2)]
        fitted.append((losses, trainer.params))
    (numpy_losses, numpy_params), (torch_losses, torch_params) = fitted
    assert np.allclose(numpy_losses, torch_losses, rtol=1e-5)
    assert numpy_losses[1][0] < numpy_losses[0][0]  # it learns
    for name, weights in numpy_params.items():
        assert np.allclose(weights, torch_params[name], atol=1e-4), name


@needs_torch
def test_a_tiny_torch_run_exports_the_network_learned_plays(tmp_path: Path) -> None:
    plan = Plan(tmp_path / "run", shards=2, per_shard=1, budget=4, hidden=16, epochs=2,
                tuning=Tuning(steps=0), backend="torch")
    lines: list[str] = []
    out = run(plan, lines.append)
    assert any("epoch 2/2" in line for line in lines)
    network = load_network(out)
    assert network.meta["plan"]["backend"] == "torch" and network.wf is not None
    match = checked_match(["learned", "greedy", "learned", "greedy"],
                          Rules.preset("runs", rounds=2), 5,
                          factories={"learned": lambda: LearnedBot(str(out))})
    assert match.finished


def test_the_torch_backend_without_torch_is_refused_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.train._run.torch_missing",
                        lambda: "the torch backend needs PyTorch: pip install 'x[train]'")
    with pytest.raises(ValueError, match="the torch backend needs PyTorch"):
        Plan(Path("x"), backend="torch")
    with pytest.raises(ValueError, match="--backend must be numpy or torch, not 'jax'"):
        Plan(Path("x"), backend="jax")
