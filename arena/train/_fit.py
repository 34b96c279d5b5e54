"""Behaviour cloning in numpy: the network of ``bots.learned`` fitted to the teacher's
choices by Adam on the cross-entropy of the masked softmax (moves) and of the softmax over
the hand's natural cards (exchange returns).

The trainer needs numpy only, so ``make test`` trains a tiny network without PyTorch; the
state (weights, Adam's moments, the epoch) is saved after every epoch and a run resumes
from it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.env import Encoding
from bots.after import AFTER_LAYERS, after_backward, after_forward, after_inputs, after_width
from bots.learned import FEATURE_LAYERS, FEATURES, LAYERS

from ._label import SAVEZ
from ._suits import Renaming

__all__ = ["Trainer", "batch_targets", "export", "init_params"]

Params = dict[str, npt.NDArray[np.float32]]
Data = dict[str, npt.NDArray[Any]]
Feats = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float32]]
"""A batch's move features: per entry its row in the batch, its action and its features."""
MoveBatch = tuple[npt.NDArray[np.int8], npt.NDArray[Any], npt.NDArray[Any], Feats | None]
"""A batch of moves: observations, legal-action masks, the teacher's actions (or a
distribution over the actions a move, :func:`batch_targets`), features."""
GiftBatch = tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8]]
"""A batch of exchange returns: observations, hands and the cards given, as card flags."""
NEG = np.float32(-1e9)
_SAVE: Callable[..., None] = np.savez


def init_params(obs_size: int, actions: int, cards: int, hidden: int, seed: int,
                features: bool = False, after: int = 0) -> Params:
    """He-initialised weights, zero biases, drawn from ``seed``; with ``features``, the head
    that weighs the move features (:data:`bots.learned.FEATURES`) too, and with ``after``
    units the after-move head (:mod:`bots.after`; drawn last, its scores 0 at first)."""
    rng = np.random.default_rng(seed)
    shapes = {"w0": (obs_size, hidden), "w1": (hidden, hidden), "wm": (hidden, actions),
              "wg": (hidden, cards), "wf": (hidden, len(FEATURES))}
    params: Params = {}
    for name in LAYERS + (FEATURE_LAYERS if features else ()):
        if name.startswith("w"):
            rows, cols = shapes[name]
            params[name] = (rng.standard_normal((rows, cols)) * np.sqrt(2 / rows)).astype(
                np.float32)
        else:
            params[name] = np.zeros(shapes["w" + name[1:]][1], dtype=np.float32)
    if features and after:
        width = after_width(cards, len(FEATURES))
        for name, rows, cols in (("a0", width, after), ("ah", hidden, after), ("a1", after, after)):
            params[name] = (rng.standard_normal((rows, cols)) * np.sqrt(2 / rows)).astype(
                np.float32)
        params |= {name: np.zeros(after, dtype=np.float32) for name in ("ab0", "ab1", "a2")}
    return params


def _softmax_grad(logits: npt.NDArray[np.float32],
                  target: npt.NDArray[np.float32]) -> tuple[float, npt.NDArray[np.float32]]:
    """Mean cross-entropy of rows of ``logits`` against distributions ``target``, and its
    gradient."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    total = exp.sum(axis=1, keepdims=True)
    log_p = shifted - np.log(total)
    loss = float(-(target * log_p).sum() / len(logits))
    return loss, ((exp / total - target) / len(logits)).astype(np.float32)


class Trainer:
    """Adam over a network's parameters; :meth:`step` fits one batch of each head."""

    def __init__(self, params: Params, rate: float = 1e-3) -> None:
        self.params = params
        self.rate = rate
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0
        self.epoch = 0
        self.basis = ""
        """What the state was fitted for (the data and the fit's options; saved with it)."""
        self.coder: Encoding | None = None
        """The encoding of the observations, which the after-move head reads (set by the
        fit: it is not saved)."""

    def _trunk(self, x: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], ...]:
        p = self.params
        h1 = np.maximum(x @ p["w0"] + p["b0"], 0)
        h2 = np.maximum(h1 @ p["w1"] + p["b1"], 0)
        return h1, h2

    def _back_trunk(self, x: npt.NDArray[np.float32], h1: npt.NDArray[np.float32],
                    h2: npt.NDArray[np.float32], d2: npt.NDArray[np.float32],
                    grads: Params) -> None:
        p = self.params
        d2 = d2 * (h2 > 0)
        grads["w1"] += h1.T @ d2
        grads["b1"] += d2.sum(axis=0)
        d1 = (d2 @ p["w1"].T) * (h1 > 0)
        grads["w0"] += x.T @ d1
        grads["b0"] += d1.sum(axis=0)

    def move_loss(self, obs: npt.NDArray[np.int8], mask: npt.NDArray[Any],
                  action: npt.NDArray[np.integer[Any]], grads: Params | None = None,
                  feats: Feats | None = None) -> float:
        """Cross-entropy of the masked softmax against ``action`` (the teacher's actions, or
        rows of distributions over the actions); adds its gradient to ``grads``. ``feats``
        (the legal actions' move features) are weighed by the head ``wf`` when the
        network has one."""
        p = self.params
        x = obs.astype(np.float32)
        h1, h2 = self._trunk(x)
        raw = h2 @ p["wm"] + p["bm"]
        weighed = feats is not None and "wf" in p
        if weighed:
            assert feats is not None
            rows, acts, values = feats
            g = h2 @ p["wf"] + p["bf"]
            raw[rows, acts] += (g[rows] * values).sum(axis=1)
            if "a0" in p:
                assert self.coder is not None
                inputs = after_inputs(self.coder, obs, rows, acts, values)
                after, u1, u2 = after_forward(p, inputs, h2, rows)
                raw[rows, acts] += after
        logits = np.where(mask > 0, raw, NEG).astype(np.float32)
        if action.ndim == 2:
            target = action.astype(np.float32)
        else:
            target = np.zeros_like(logits)
            target[np.arange(len(action)), action] = 1
        loss, d = _softmax_grad(logits, target)
        if grads is not None:
            grads["wm"] += h2.T @ d
            grads["bm"] += d.sum(axis=0)
            d2 = d @ p["wm"].T
            if weighed:
                dg = np.zeros((len(h2), values.shape[1]), dtype=np.float32)
                np.add.at(dg, rows, d[rows, acts][:, None] * values)
                grads["wf"] += h2.T @ dg
                grads["bf"] += dg.sum(axis=0)
                d2 += dg @ p["wf"].T
                if "a0" in p:
                    d2 += after_backward(p, inputs, h2, rows, u1, u2, d[rows, acts], grads)
            self._back_trunk(x, h1, h2, d2, grads)
        return loss

    def gift_loss(self, obs: npt.NDArray[np.int8], hand: npt.NDArray[np.int8],
                  gift: npt.NDArray[np.int8], grads: Params | None = None) -> float:
        """Cross-entropy of the softmax over the hand's cards against the cards given."""
        p = self.params
        x = obs.astype(np.float32)
        h1, h2 = self._trunk(x)
        logits = np.where(hand > 0, h2 @ p["wg"] + p["bg"], NEG).astype(np.float32)
        target = gift.astype(np.float32)
        target /= np.maximum(target.sum(axis=1, keepdims=True), 1)
        loss, d = _softmax_grad(logits, target)
        if grads is not None:
            grads["wg"] += h2.T @ d
            grads["bg"] += d.sum(axis=0)
            self._back_trunk(x, h1, h2, d @ p["wg"].T, grads)
        return loss

    def apply(self, grads: Params, beta1: float = 0.9, beta2: float = 0.999) -> None:
        """One Adam step."""
        self.t += 1
        for name, g in grads.items():
            self.m[name] = beta1 * self.m[name] + (1 - beta1) * g
            self.v[name] = beta2 * self.v[name] + (1 - beta2) * g * g
            m_hat = self.m[name] / (1 - beta1 ** self.t)
            v_hat = self.v[name] / (1 - beta2 ** self.t)
            self.params[name] -= (self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(
                np.float32)

    def epoch_pass(self, data: Data, actions: int, batch: int, rng: np.random.Generator,
                   renamings: list[Renaming] | None = None, soft: float = 0.0,
                   temperature: float = 0.0) -> tuple[float, float]:
        """One pass over ``data`` in shuffled batches, each batch's suits renamed by one of
        ``renamings`` drawn at random (none: as labelled); the mean move and gift losses.
        With ``soft`` above 0, a move's target is ``soft`` of the teacher's playouts'
        distribution over its candidates (by their average points at ``temperature`` above
        0) and the rest its choice (:func:`batch_targets`)."""
        moves = rng.permutation(len(data["action"]))
        gifts = rng.permutation(len(data["gift"]))
        steps = max(1, -(-len(moves) // batch))
        gift_batch = max(1, -(-len(gifts) // steps))
        move_total = gift_total = 0.0
        for k in range(steps):
            obs_index, new_action, old_action = (
                renamings[int(rng.integers(len(renamings)))] if renamings
                else (slice(None), np.arange(actions), slice(None)))
            rows = moves[k * batch:(k + 1) * batch]
            move_batch: MoveBatch | None = None
            if len(rows):
                mask = np.unpackbits(data["mask"][rows], axis=1, count=actions)[:, old_action]
                move_batch = (data["obs"][rows][:, obs_index], mask,
                              batch_targets(data, rows, new_action, actions, soft,
                                            temperature)
                              if soft else new_action[data["action"][rows]],
                              batch_features(data, rows, new_action))
            gift_rows = gifts[k * gift_batch:(k + 1) * gift_batch]
            cards = (obs_index if isinstance(obs_index, slice)
                     else obs_index[:data["hand"].shape[1]])
            gift_batch_: GiftBatch | None = None
            if len(gift_rows):
                gift_batch_ = (data["gift_obs"][gift_rows][:, obs_index],
                               data["hand"][gift_rows][:, cards], data["gift"][gift_rows][:, cards])
            move_loss, gift_loss = self.fit_batch(move_batch, gift_batch_)
            move_total += move_loss * len(rows)
            gift_total += gift_loss * len(gift_rows)
        self.epoch += 1
        return move_total / max(len(moves), 1), gift_total / max(len(gifts), 1)

    def fit_batch(self, moves: MoveBatch | None, gifts: GiftBatch | None) -> tuple[float, float]:
        """One Adam step on the summed losses of a batch of moves and one of exchange
        returns (either may be none); the two mean losses."""
        grads = {name: np.zeros_like(v) for name, v in self.params.items()}
        move_loss = self.move_loss(*moves[:3], grads, moves[3]) if moves is not None else 0.0
        gift_loss = self.gift_loss(*gifts, grads) if gifts is not None else 0.0
        self.apply(grads)
        return move_loss, gift_loss

    def save(self, path: Path) -> None:
        """The whole state, for resuming."""
        state = {f"p_{k}": v for k, v in self.params.items()}
        state |= {f"m_{k}": v for k, v in self.m.items()}
        state |= {f"v_{k}": v for k, v in self.v.items()}
        partial = path.with_suffix(".part.npz")
        _SAVE(partial, t=np.int64(self.t), epoch=np.int64(self.epoch),
                 rate=np.float64(self.rate), basis=np.str_(self.basis), **state)
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> Trainer:
        """A trainer saved by :meth:`save`."""
        with np.load(path) as data:
            names = [n[2:] for n in data.files if n.startswith("p_")]
            trainer = cls({n: data[f"p_{n}"] for n in names}, float(data["rate"]))
            trainer.m = {n: data[f"m_{n}"] for n in names}
            trainer.v = {n: data[f"v_{n}"] for n in names}
            trainer.t = int(data["t"])
            trainer.epoch = int(data["epoch"])
            trainer.basis = str(data["basis"]) if "basis" in data.files else ""
        return trainer


def batch_features(data: Data, rows: npt.NDArray[np.intp],
                   new_action: npt.NDArray[np.intp] | None = None) -> Feats | None:
    """The move features of ``data``'s decisions ``rows`` (their actions renamed by
    ``new_action``), or none where the data has none (:func:`arena.train._feats.attach`)."""
    if "feat_start" not in data:
        return None
    starts = data["feat_start"][rows]
    lens = data["feat_start"][rows + 1] - starts
    ends = np.cumsum(lens)
    entries = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - lens, lens)
    entries += np.repeat(starts, lens)
    acts = data["feat_act"][entries].astype(np.intp)
    if new_action is not None:
        acts = new_action[acts]
    return (np.repeat(np.arange(len(rows)), lens), acts,
            data["feat"][entries].astype(np.float32))


def batch_targets(data: Data, rows: npt.NDArray[np.intp], new_action: npt.NDArray[np.intp],
                  actions: int, soft: float, temperature: float = 0.0
                  ) -> npt.NDArray[np.float32]:
    """The targets of ``data``'s decisions ``rows`` (their actions renamed by
    ``new_action``): ``1 - soft`` on the teacher's action and ``soft`` spread over its
    candidates (``soft_*``, :class:`arena.train.Samples`) in proportion to their playouts,
    or with ``temperature`` above 0 by the softmax of their average points over it (what
    ``mc`` reports: a move a playout's noise away from the best keeps most of the weight)."""
    if "soft_count" not in data:
        raise ValueError("soft targets need labels with the teacher's playouts "
                         "(shards labelled before they were kept): label again or --soft 0")
    if temperature > 0 and len(data.get("soft_value", ())) != len(data["soft_action"]):
        raise ValueError("--temperature needs labels with the candidates' average points "
                         "(shards labelled before they were kept, or by expert): label "
                         "again with --teacher mc, or --temperature 0")
    if "soft_start" not in data:
        data["soft_start"] = np.concatenate([[0], np.cumsum(data["soft_count"])])
    starts = data["soft_start"][rows]
    lens = data["soft_count"][rows]
    ends = np.cumsum(lens)
    entries = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - lens, lens)
    entries += np.repeat(starts, lens)
    row = np.repeat(np.arange(len(rows)), lens)
    if temperature > 0:
        value = data["soft_value"][entries].astype(np.float32) / np.float32(temperature)
        top = np.full(len(rows), -np.inf, dtype=np.float32)
        np.maximum.at(top, row, value)
        weight = np.exp(value - top[row])
    else:
        weight = data["soft_visits"][entries].astype(np.float32)
    totals = np.zeros(len(rows), dtype=np.float32)
    np.add.at(totals, row, weight)
    target = np.zeros((len(rows), actions), dtype=np.float32)
    np.add.at(target, (row, new_action[data["soft_action"][entries]]),
              soft * weight / np.maximum(totals[row], 1))
    target[np.arange(len(rows)), new_action[data["action"][rows]]] += 1 - soft
    return target


def scores(trainer: Trainer, data: Data, rows: npt.NDArray[np.intp],
           actions: int) -> npt.NDArray[np.float32]:
    """The network's masked scores of ``data``'s decisions ``rows``."""
    p = trainer.params
    mask = np.unpackbits(data["mask"][rows], axis=1, count=actions)
    _, h2 = trainer._trunk(data["obs"][rows].astype(np.float32))
    raw = h2 @ p["wm"] + p["bm"]
    feats = batch_features(data, rows)
    if feats is not None and "wf" in p:
        batch, acts, values = feats
        raw[batch, acts] += ((h2 @ p["wf"] + p["bf"])[batch] * values).sum(axis=1)
        if "a0" in p:
            assert trainer.coder is not None
            inputs = after_inputs(trainer.coder, data["obs"][rows], batch, acts, values)
            raw[batch, acts] += after_forward(p, inputs, h2, batch)[0]
    return np.where(mask > 0, raw, NEG).astype(np.float32)


def agreement(trainer: Trainer, data: Data, actions: int, chunk: int = 2048) -> float:
    """The share of ``data``'s moves where the network's choice is the teacher's."""
    hits = 0
    for start in range(0, len(data["action"]), chunk):
        rows = np.arange(start, min(start + chunk, len(data["action"])))
        hits += int((scores(trainer, data, rows, actions).argmax(axis=1)
                     == data["action"][rows]).sum())
    return hits / max(len(data["action"]), 1)


def export(params: Params, meta: dict[str, Any], path: Path,
           progress: Callable[[str], None] = print) -> None:
    """Write the network file ``bots.learned`` loads: float16 weights, compressed, and
    ``meta`` (its preset, table size and how it was trained) as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {name: params[name].astype(np.float16)
              for name in LAYERS + FEATURE_LAYERS + AFTER_LAYERS if name in params}
    SAVEZ(path, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    progress(f"exported {path} ({path.stat().st_size / 1e6:.2f} MB)")
