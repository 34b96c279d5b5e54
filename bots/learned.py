"""``learned``: a policy network trained by cloning ``expert`` (docs/learning.md), played
with numpy alone.

The network reads the observation of :mod:`arena.env` (docs/learning.md, "Observations"):
two hidden layers of rectified units, then two heads, one score per action of the encoding
(the move: the best-scored legal action, one forward pass per decision over the
legal-action mask) and one score per card of the hand field (the exchange: the best-scored
natural cards of the hand). Its weights are one ``.npz`` file per preset in
``bots/weights/`` (written by ``python -m arena.train``); the bot loads the file of the
match's rules when the match starts. It draws nothing at random: the same view gives the
same move.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.bot import MatchInfo
from arena.env import PlayedCards, PolicyBot, encoding
from arena.game import Card, Move, Rules, View

from ._greedy import GreedyBot

__all__ = ["WEIGHTS", "LearnedBot", "Network", "fits", "load_network", "supported"]

WEIGHTS = Path(__file__).parent / "weights"
"""Where the shipped networks lie, one ``learned-<preset>.npz`` per preset."""
LAYERS = ("w0", "b0", "w1", "b1", "wm", "bm", "wg", "bg")
"""The arrays of a network file, in the order of the forward pass."""


class Network:
    """The trained network of one preset and table size, as numpy arrays (float32)."""

    def __init__(self, arrays: dict[str, npt.NDArray[Any]], meta: dict[str, Any]) -> None:
        missing = [name for name in LAYERS if name not in arrays]
        if missing:
            raise ValueError(f"a network file lacks the arrays {', '.join(missing)}")
        self.w0, self.b0, self.w1, self.b1, self.wm, self.bm, self.wg, self.bg = (
            np.asarray(arrays[name], dtype=np.float32) for name in LAYERS)
        self.meta = meta
        self.preset = str(meta["preset"])
        self.players = int(meta["players"])
        coder = encoding(Rules.preset(self.preset), self.players)
        want = {"w0": (coder.segments[-1].offset + coder.segments[-1].length, None),
                "wm": (None, coder.action_size)}
        for name, (rows, cols) in want.items():
            shape = getattr(self, name).shape
            if (rows is not None and shape[0] != rows) or (cols is not None and shape[1] != cols):
                raise ValueError(f"the network of {self.preset!r} has {name} of shape {shape}, "
                                 f"not the encoding's ({rows}, {cols})")

    def hidden(self, observation: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        """The last hidden layer for ``observation`` (its 0/1 flags pick rows of ``w0``)."""
        h = self.w0[np.flatnonzero(observation)].sum(axis=0) + self.b0
        np.maximum(h, 0, out=h)
        h = h @ self.w1 + self.b1
        np.maximum(h, 0, out=h)
        return h  # type: ignore[no-any-return]

    def act(self, observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> int:
        """The legal action of the highest score (the lowest such action on a tie)."""
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        scores = self.hidden(observation) @ self.wm[:, legal] + self.bm[legal]
        return int(legal[int(np.argmax(scores))])

    def gift(self, observation: npt.NDArray[np.int8], hand: list[Card], count: int) -> list[Card]:
        """The ``count`` natural cards of ``hand`` of the highest exchange scores."""
        naturals = sorted(c for c in hand if not c.is_joker)
        scores = self.hidden(observation) @ self.wg + self.bg
        order = sorted(naturals, key=lambda c: (-float(scores[c.index]), c.index))
        return order[:count]


def load_network(path: Path) -> Network:
    """The network in ``path``; a ``ValueError`` naming the file if it is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != "meta"}
            meta = json.loads(str(data["meta"]))
        return Network(arrays, meta)
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"{path}: not a network of the bot learned ({error})") from None


@cache
def _shipped(preset: str) -> Network:
    return load_network(WEIGHTS / f"learned-{preset}.npz")


def supported() -> list[str]:
    """The presets the shipped weights were trained for."""
    return sorted(p.stem.removeprefix("learned-") for p in WEIGHTS.glob("learned-*.npz"))


def fits(network: Network, rules: Rules, players: int) -> bool:
    """Whether ``network`` reads the encoding of ``rules`` at ``players`` seats: the same
    table size, observation and actions as its preset's (the number of deals, the points
    and the other options that leave the encoding as it is may differ)."""
    if network.players != players:
        return False
    coder = encoding(rules, players)
    return bool(coder.action_size == network.wm.shape[1]
                and coder.segments[-1].offset + coder.segments[-1].length == network.w0.shape[0])


class LearnedBot(PolicyBot):
    """Plays the network trained for the match's encoding, ``greedy`` where it has none."""

    description = ("a policy network cloned from expert, numpy only; trained for the presets "
                   "runs and daifugo at 4 players, plays greedy elsewhere")

    def __init__(self, weights: str | None = None) -> None:
        super().__init__()
        self.networks = ([load_network(Path(weights))] if weights is not None
                         else [_shipped(preset) for preset in supported()])
        self.network: Network | None = None
        self.fallback = GreedyBot()

    def bind(self, seat: int, rules: Rules, players: int, rng: random.Random) -> None:
        """Bind the bot, and ``greedy`` beside it for the rules no network reads."""
        super().bind(seat, rules, players, rng)
        self.fallback.bind(seat, rules, players, rng)
        self.network = self._network(rules, players)

    def start_match(self, info: MatchInfo) -> None:
        """Take the network of the match's rules."""
        super().start_match(info)
        self.network = self._network(info.rules, info.players)

    def _network(self, rules: Rules, players: int) -> Network | None:
        return next((n for n in self.networks if fits(n, rules, players)), None)

    def act(self, observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> int:
        """The network's action."""
        assert self.network is not None
        return self.network.act(observation, mask)

    def play(self, view: View) -> Move:
        """One forward pass over the encoded view and its legal-action mask."""
        if self.network is None:
            return self.fallback.play(view)
        return super().play(view)

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """The natural cards the exchange head scores highest."""
        if self.network is None:
            return self.fallback.exchange(view, count)
        observation = encoding(view.rules, view.players).observe(view, PlayedCards(view.players))
        return list(self.network.gift(observation, list(view.hand), count))
