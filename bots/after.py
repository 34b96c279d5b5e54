"""The after-move head of ``learned``'s network: a small network that scores each legal move
by what the seat would hold after it.

The trunk's scores (one per action, and the move features weighed by the trunk) judge a
move by its identity; how the rest of the hand fares against the cards still out (keep an 8
to take the lead back, a pair the last opponent cannot answer) is a matter of the cards
left, move by move. The head reads, for each legal move, the hand after it (the hand
field less the move's cards), the cards the seat has not seen (the hand field's layout:
neither in the hand nor played by any seat) and the move's features, with the trunk's last
hidden layer projected beside them; two rectified layers, one score added to the move's.
It is part of the one forward pass over the legal actions: a batch of one row a move.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.env import Encoding

__all__ = ["AFTER_LAYERS", "after_backward", "after_forward", "after_head", "after_inputs",
           "after_width"]

AFTER_LAYERS = ("a0", "ah", "ab0", "a1", "ab1", "a2")
"""The arrays of the after-move head, in the files that have it: the inputs' weights, the
trunk's projection, the first bias, the second layer and its bias, the score's weights."""

Array = npt.NDArray[np.float32]


def after_width(cards: int, features: int) -> int:
    """The inputs of the head a move: the hand after it and the unseen cards (``cards``
    flags each, the hand field's), its ``features``."""
    return 2 * cards + features


def after_head(arrays: dict[str, npt.NDArray[Any]], coder: Encoding, wf: Array | None,
               hidden: int) -> dict[str, Array]:
    """The head's arrays of a network file (float32; none when it has none), or a
    ``ValueError`` naming the first missing or misshapen one. Only a network with a
    features head (``wf``, ``hidden`` units) may have one."""
    if not any(name in arrays for name in AFTER_LAYERS):
        return {}
    if wf is None:
        raise ValueError("a network with an after-move head needs the features head wf, bf")
    missing = [name for name in AFTER_LAYERS if name not in arrays]
    if missing:
        raise ValueError(f"a network's after-move head lacks the arrays {', '.join(missing)}")
    head = {name: np.asarray(arrays[name], dtype=np.float32) for name in AFTER_LAYERS}
    units = head["ab0"].shape[0]
    want = {"a0": (after_width(coder.segments[0].length, wf.shape[1]), units),
            "ah": (hidden, units), "ab0": (units,), "a1": (units, units), "ab1": (units,),
            "a2": (units,)}
    for name, shape in want.items():
        if head[name].shape != shape:
            raise ValueError(f"the network's {name} has shape {head[name].shape}, not {shape}")
    return head


@cache
def _move_cards(coder: Encoding) -> Array:
    """Each action's cards in the layout of a card field (natural flags, then the jokers)."""
    cards = coder.segments[0].length
    table = np.zeros((coder.action_size, cards), dtype=np.float32)
    for action in range(coder.action_size):
        move = coder.move(action)
        for bit in range(52):
            if move.mask >> bit & 1:
                table[action, bit] = 1
        table[action, 52:52 + move.jokers] = 1
    return table


def after_inputs(coder: Encoding, observations: npt.NDArray[Any], rows: npt.NDArray[np.intp],
                 acts: npt.NDArray[np.intp], features: Array) -> Array:
    """The head's inputs of each move ``acts[i]`` of the decision ``rows[i]`` (a row of
    ``observations``), ``features[i]`` its move features."""
    cards = coder.segments[0].length
    at = next(s.offset for s in coder.segments if s.name == "played")
    hand = observations[:, :cards].astype(np.float32)
    played = observations[:, at:at + coder.players * cards].reshape(
        len(observations), coder.players, cards).max(axis=1)
    unseen = 1 - np.maximum(hand, played)
    return np.concatenate([hand[rows] * (1 - _move_cards(coder)[acts]), unseen[rows],
                           features], axis=1, dtype=np.float32)


def after_forward(params: dict[str, Array], inputs: Array, hidden: Array,
                  rows: npt.NDArray[np.intp]) -> tuple[Array, Array, Array]:
    """Each move's score, and the head's two hidden layers (for :func:`after_backward`);
    ``hidden`` is the trunk's last layer of each decision."""
    u1 = np.maximum(inputs @ params["a0"] + (hidden @ params["ah"])[rows] + params["ab0"], 0)
    u2 = np.maximum(u1 @ params["a1"] + params["ab1"], 0)
    return u2 @ params["a2"], u1, u2


def after_backward(params: dict[str, Array], inputs: Array, hidden: Array,
                   rows: npt.NDArray[np.intp], u1: Array, u2: Array, d_score: Array,
                   grads: dict[str, Array]) -> Array:
    """Add the head's gradients to ``grads`` given the loss's gradient by each move's score;
    the gradient by the trunk's last layer."""
    grads["a2"] += u2.T @ d_score
    du2 = d_score[:, None] * params["a2"][None, :] * (u2 > 0)
    grads["a1"] += u1.T @ du2
    grads["ab1"] += du2.sum(axis=0)
    du1 = (du2 @ params["a1"].T) * (u1 > 0)
    grads["a0"] += inputs.T @ du1
    grads["ab0"] += du1.sum(axis=0)
    by_row = np.zeros((len(hidden), du1.shape[1]), dtype=du1.dtype)
    np.add.at(by_row, rows, du1)
    grads["ah"] += hidden.T @ by_row
    return np.asarray(by_row @ params["ah"].T, dtype=du1.dtype)
