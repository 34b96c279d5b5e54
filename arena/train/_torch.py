"""The cloning stage's PyTorch backend (``python -m arena.train --backend torch``): the
losses of :class:`arena.train.Trainer` and their gradients by PyTorch's autograd, on the
CPU, where the numpy trainer works them out by hand.

Everything else is the numpy trainer's: the batches (the same draws of the same generator,
the same renamed suits), Adam's update of the same arrays, the state file and the exported
network. PyTorch only computes each batch's gradients, over tensors that share the
parameters' memory, so a run may resume under either backend and the file ``learned``
loads needs no PyTorch. It needs the extra ``train`` (``pip install
'arena-president[train]'``).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import numpy.typing as npt

from ._fit import NEG, GiftBatch, MoveBatch, Params, Trainer

__all__ = ["TorchTrainer", "torch_missing"]


def _torch() -> Any:
    """PyTorch, imported when first used (it is an optional extra, with no stubs needed
    to check this module)."""
    return importlib.import_module("torch")


def torch_missing() -> str | None:
    """Why the backend cannot run here (PyTorch is not installed), or none."""
    try:
        _torch()
    except ImportError:
        return ("the torch backend needs PyTorch: pip install 'arena-president[train]' "
                "(or --backend numpy)")
    return None


class TorchTrainer(Trainer):
    """:class:`arena.train.Trainer` whose gradients PyTorch's autograd computes."""

    def fit_batch(self, moves: MoveBatch | None, gifts: GiftBatch | None) -> tuple[float, float]:
        """One Adam step on the summed losses of a batch of moves and one of exchange
        returns, their gradients by autograd; the two mean losses."""
        torch = _torch()
        p = {name: torch.from_numpy(v).requires_grad_() for name, v in self.params.items()}
        neg = torch.tensor(float(NEG))
        total = torch.zeros(())
        losses = [0.0, 0.0]
        if moves is not None:
            obs, mask, action, feats = moves
            h = _trunk(p, torch.from_numpy(obs.astype(np.float32)))
            raw = h @ p["wm"] + p["bm"]
            if feats is not None and "wf" in p:
                rows, acts, values = (torch.from_numpy(np.ascontiguousarray(a))
                                      for a in feats)
                weighed = ((h @ p["wf"] + p["bf"])[rows] * values).sum(dim=1)
                raw = raw.index_put((rows, acts), weighed, accumulate=True)
            logits = torch.where(torch.from_numpy(mask > 0), raw, neg)
            loss = torch.nn.functional.cross_entropy(
                logits, torch.from_numpy(action.astype(np.float32 if action.ndim == 2
                                                       else np.int64)))
            total = total + loss
            losses[0] = float(loss.detach())
        if gifts is not None:
            obs, hand, gift = gifts
            h = _trunk(p, torch.from_numpy(obs.astype(np.float32)))
            logits = torch.where(torch.from_numpy(hand > 0), h @ p["wg"] + p["bg"], neg)
            target = torch.from_numpy(gift.astype(np.float32))
            target = target / target.sum(dim=1, keepdim=True).clamp(min=1)
            loss = -(target * torch.log_softmax(logits, dim=1)).sum() / len(obs)
            total = total + loss
            losses[1] = float(loss.detach())
        total.backward()
        self.apply(_grads(p, self.params))
        return losses[0], losses[1]


def _trunk(p: dict[str, Any], x: Any) -> Any:
    torch = _torch()
    h1 = torch.relu(x @ p["w0"] + p["b0"])
    return torch.relu(h1 @ p["w1"] + p["b1"])


def _grads(tensors: dict[str, Any], params: Params) -> Params:
    """The gradient of each parameter as a numpy array (zero where none reached it)."""
    out: dict[str, npt.NDArray[np.float32]] = {}
    for name, tensor in tensors.items():
        grad = tensor.grad
        out[name] = (grad.numpy().astype(np.float32) if grad is not None
                     else np.zeros_like(params[name]))
    return out
