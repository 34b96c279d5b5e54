"""``learned``: a policy network trained by cloning a search bot (``mc`` or ``expert``,
docs/learning.md), played with numpy alone.

The network reads the observation of :mod:`arena.env` (docs/learning.md, "Observations"):
two hidden layers of rectified units, then two heads, one score per action of the encoding
(the move: the best-scored legal action, one forward pass per decision over the
legal-action mask) and one score per card of the hand field (the exchange: the best-scored
natural cards of the hand); a network may add to each legal move's score that of an
after-move head (:mod:`bots.after`: the hand the move leaves against the unseen cards).
Its weights are one ``.npz`` file per preset in ``bots/weights/`` (``python -m
arena.train``), loaded when a match starts. The same view gives the same move.

**Move features.** The observation is a bag of card flags, from which judging a move
(does it break a pair, spend a 2, leave a cheap hand?) must be learned from data. A
network with the head ``wf``/``bf`` is also given the built-ins' judgement of every legal
move outright (:data:`FEATURES`): ``greedy``'s gain and choice, the value of
:func:`bots._policy.move_values` (``expert``'s model of play) and its best move, the
move's plain facts, three of them again while an opponent is close to going out, and two
that judge the move against the cards the seat has not seen (whether it can be beaten,
the cards left that rank above every unseen card). The head weighs them from the hidden layer,
so how much each counts depends on the position; :func:`observed_features` computes them
from what the observation holds (the hand, the order in force, the card counts, the cards
played, the legal actions), the same function when the bot plays
and when the trainer reads a labelled observation.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.bot import MatchInfo
from arena.env import Encoding, PlayedCards, PolicyBot, encoding
from arena.game import Card, Move, Rules, View

from ._belief import _smask
from ._descriptions import LEARNED_DESCRIPTION
from ._greedy import GreedyBot, _gain
from ._hand import hand_cost, hand_mask, obvious, strength
from ._policy import move_values, rank_counts
from .after import after_forward, after_head, after_inputs

__all__ = ["FEATURES", "WEIGHTS", "LearnedBot", "Network", "fits", "load_network",
           "move_features", "network_for", "observed_features", "policy_scores", "supported"]

WEIGHTS = Path(__file__).parent / "weights"
"""Where the shipped networks lie, one ``learned-<preset>.npz`` per preset."""
LAYERS = ("w0", "b0", "w1", "b1", "wm", "bm", "wg", "bg")
"""The arrays of a network file, in the order of the forward pass."""
FEATURE_LAYERS = ("wf", "bf")
"""The arrays of the head that weighs the move features (:data:`bots.learned.FEATURES`), in the
files that have it."""


FEATURES = ("pass", "greedy gain", "greedy choice", "value", "best value", "cards",
            "strength", "jokers", "run", "revolution", "clears", "cost after", "out",
            "strength, danger", "pass, danger", "cards, danger", "unbeatable", "control after")
"""The features of a move, in the order of a row of :func:`move_features`. A network's
features head reads the first ones, as many as it was trained with (the networks trained
before the last two read the first 16)."""


@dataclass(frozen=True)
class _Seat:
    """The part of a view ``greedy``'s finishing rule reads."""

    rules: Rules
    hand: list[Card]
    revolution: bool


_GREEDY = GreedyBot()


def _greedy_choice(rules: Rules, hand: list[Card], moves: list[Move], revolution: bool,
                   gains: list[float]) -> int:
    """The index in ``moves`` of the move ``greedy`` plays (its ``play``, from its gains)."""
    plays = [m for m in moves if m.kind != "pass"]
    sure = obvious(plays, len(hand))
    if sure is None and Move.PASS not in moves:
        seat: View = _Seat(rules, hand, revolution)  # type: ignore[assignment]
        sure = _GREEDY._finish_with_control(seat, plays)
    if sure is not None:
        return moves.index(sure)
    keys = [(gains[i], -strength(m, revolution), len(m), str(m)) if m.kind != "pass"
            else None for i, m in enumerate(moves)]
    return max((i for i, key in enumerate(keys) if key is not None),
               key=lambda i: keys[i])  # type: ignore[arg-type,return-value]


OLD_FEATURES = 16
"""The features of the networks trained before "unbeatable" and "control after"."""
DANGER = 3
"""An opponent holding this many cards or fewer may go out soon: the "danger" features
are the move's strength, pass and size while one does."""


def _unbeatable(rules: Rules, move: Move, unseen: tuple[int, int, int], revolution: bool,
                flips: bool) -> bool:
    """No play of the unseen cards (all of them in one hand: the most the other seats
    could hold together) may go on ``move``: it wins its trick unless it is the last play
    of the pile anyway. A move that clears the pile wins it too."""
    order = revolution != flips
    if rules.clears(move, order):
        return True
    mask, smask, jokers = unseen
    return not any(m.kind != "pass" for m in rules.moves(mask, smask, jokers, move, order))


def _top_cards(mask: int, jokers: int, unseen: int, order: bool) -> float:
    """The cards of a hand (``mask``, ``jokers``) that rank above every unseen natural card
    in the order ``order`` (single cards no unseen single beats, whatever ``equal_beats``
    says), and its jokers, a quarter a card."""
    ranks = [r for r in range(13) if unseen >> (4 * r) & 15]
    if not ranks:
        return (mask.bit_count() + jokers) / 4
    best = min(ranks) if order else max(ranks)
    count = jokers
    for r in range(13):
        if (r < best) if order else (r > best):
            count += (mask >> (4 * r) & 15).bit_count()
    return count / 4


def move_features(rules: Rules, hand: list[Card], moves: list[Move], revolution: bool,
                  fewest: int = 0, seen: tuple[int, int] | None = None
                  ) -> npt.NDArray[np.float32]:
    """One row of :data:`FEATURES` per move of ``moves`` (the legal moves of a seat
    holding ``hand`` under the order ``revolution``, whose opponents still in the deal
    hold at least ``fewest`` cards each; 0 when no opponent holds cards). ``seen`` is what
    the seat has seen (the natural cards and the number of jokers of its hand and of every
    play of the deal): the rest of the deck is unseen, and the last two features judge the
    move against it (left 0 without it)."""
    mask, jokers = hand_mask(hand)
    held = len(hand)
    before = hand_cost(mask, jokers, revolution)
    values = move_values(rules, moves, rank_counts(mask), held, revolution)
    rows = np.zeros((len(moves), len(FEATURES)), dtype=np.float32)
    gains = [0.0] * len(moves)
    unseen = None
    if seen is not None:
        hidden = ((1 << 52) - 1) & ~seen[0]
        unseen = (hidden, _smask(hidden), rules.jokers - seen[1])
    for i, move in enumerate(moves):
        row = rows[i]
        row[3] = values[i]
        if move.kind == "pass":
            row[0] = 1
            continue
        flips = rules.starts_revolution(move)
        gains[i] = _gain(rules, move, mask, jokers, before, revolution)
        row[1] = gains[i]
        row[5] = len(move) / 4
        row[6] = strength(move, revolution) / 13
        row[7] = move.jokers
        row[8] = move.kind == "run"
        row[9] = flips
        row[10] = rules.clears(move, revolution)
        row[11] = hand_cost(mask & ~move.mask, jokers - move.jokers, revolution != flips) / 4
        row[12] = len(move) == held
        if unseen is not None:
            row[16] = _unbeatable(rules, move, unseen, revolution, flips)
            row[17] = _top_cards(mask & ~move.mask, jokers - move.jokers, unseen[0],
                                 revolution != flips)
    if 0 < fewest <= DANGER:
        rows[:, 13] = rows[:, 6]
        rows[:, 14] = rows[:, 0]
        rows[:, 15] = rows[:, 5]
    if any(m.kind != "pass" for m in moves):
        rows[_greedy_choice(rules, hand, moves, revolution, gains), 2] = 1
    rows[int(np.argmax(values)), 4] = 1
    return rows


def observed_features(coder: Encoding, observation: npt.NDArray[np.int8],
                      legal: npt.NDArray[np.intp], width: int = len(FEATURES)
                      ) -> npt.NDArray[np.float32]:
    """The first ``width`` columns of :func:`move_features` of the legal actions ``legal``
    of a seat seeing ``observation``: its hand, the order in force and the cards seen (its
    hand and every seat's played cards) read from the observation. A network of the first
    16 features (:data:`OLD_FEATURES`) is spared judging the moves against the unseen
    cards."""
    hand = coder.cards(coder.field(observation, "hand"))
    revolution = bool(coder.field(observation, "revolution")[0])
    moves = [coder.move(int(a)) for a in legal]
    counts = coder.field(observation, "counts").reshape(coder.players, -1)[1:]
    held = [int(np.argmax(row)) for row in counts]
    fewest = min((n for n in held if n), default=0)
    if width <= OLD_FEATURES:
        return move_features(coder.rules, hand, moves, revolution, fewest)[:, :width]
    seen, jokers = hand_mask(hand)
    played = coder.field(observation, "played").reshape(coder.players, -1)
    naturals = played.max(axis=0)
    naturals[52:] = 0  # a seat's joker flags count its jokers played: summed below
    seen |= hand_mask(coder.cards(naturals))[0]
    jokers += int(played[:, 52:].sum())
    return move_features(coder.rules, hand, moves, revolution, fewest, (seen, jokers))[:, :width]


class Network:
    """The trained network of one preset and table size, as numpy arrays (float32)."""

    def __init__(self, arrays: dict[str, npt.NDArray[Any]], meta: dict[str, Any]) -> None:
        missing = [name for name in LAYERS if name not in arrays]
        if missing:
            raise ValueError(f"a network file lacks the arrays {', '.join(missing)}")
        self.w0, self.b0, self.w1, self.b1, self.wm, self.bm, self.wg, self.bg = (
            np.asarray(arrays[name], dtype=np.float32) for name in LAYERS)
        self.wf: npt.NDArray[np.float32] | None = None
        self.bf: npt.NDArray[np.float32] | None = None
        if all(name in arrays for name in FEATURE_LAYERS):
            self.wf, self.bf = (np.asarray(arrays[name], dtype=np.float32)
                                for name in FEATURE_LAYERS)
            if (self.wf.shape[0] != self.w1.shape[1]
                    or self.wf.shape[1] not in (OLD_FEATURES, len(FEATURES))):
                raise ValueError(f"the network's wf has shape {self.wf.shape}, not "
                                 f"({self.w1.shape[1]}, {len(FEATURES)}) nor "
                                 f"({self.w1.shape[1]}, {OLD_FEATURES})")
        self.meta = meta
        self.exchange = str(meta.get("exchange", "network"))
        """Who chooses an exchange return: the network's exchange head, or ``greedy``."""
        if self.exchange not in ("network", "greedy"):
            raise ValueError(f"a network's exchange is 'network' or 'greedy', not "
                             f"{self.exchange!r}")
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
        self.after = after_head(arrays, coder, self.wf, self.w1.shape[1])
        """The after-move head's arrays (:mod:`bots.after`), empty in a network without."""

    def hidden(self, observation: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        """The last hidden layer for ``observation`` (its 0/1 flags pick rows of ``w0``)."""
        h = self.w0[np.flatnonzero(observation)].sum(axis=0) + self.b0
        np.maximum(h, 0, out=h)
        h = h @ self.w1 + self.b1
        np.maximum(h, 0, out=h)
        return h  # type: ignore[no-any-return]

    def scores(self, observation: npt.NDArray[np.int8], legal: npt.NDArray[np.intp],
               rules: Rules | None = None) -> npt.NDArray[np.float32]:
        """The score of each action of ``legal`` (the legal actions, increasing). A network
        with a features head adds the move features of each legal action
        (:data:`bots.learned.FEATURES`, read from ``observation``, under ``rules``: the
        network's preset's by default)."""
        hidden = self.hidden(observation)
        scores = hidden @ self.wm[:, legal] + self.bm[legal]
        if self.wf is not None and self.bf is not None:
            coder = encoding(rules or Rules.preset(self.preset), self.players)
            features = observed_features(coder, observation, legal, self.wf.shape[1])
            scores += features @ (hidden @ self.wf + self.bf)
            if self.after:
                rows = np.zeros(len(legal), dtype=np.intp)
                inputs = after_inputs(coder, observation[None], rows, legal, features)
                scores += after_forward(self.after, inputs, hidden[None], rows)[0]
        return scores  # type: ignore[no-any-return]

    def act(self, observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8],
            rules: Rules | None = None) -> int:
        """The legal action of the highest :meth:`scores` (the lowest such action on a
        tie)."""
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        return int(legal[int(np.argmax(self.scores(observation, legal, rules)))])

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


def network_for(rules: Rules, players: int) -> Network | None:
    """The shipped network that reads ``rules`` at ``players`` seats (:func:`fits`), if any."""
    return next((n for n in map(_shipped, supported()) if fits(n, rules, players)), None)


def policy_scores(view: View, network: Network | None = None) -> dict[Move, float]:
    """The policy's score of each legal move of ``view`` (higher is better; ``learned``
    plays the highest, its network's :meth:`Network.scores`): ``network``'s, by default the
    shipped network of the view's rules (:func:`network_for`). A ``ValueError`` when no
    network reads the view's rules and table size. The scores are a network's logits: a
    softmax over them is the policy's distribution over the legal moves."""
    if network is None:
        network = network_for(view.rules, view.players)
    if network is None or not fits(network, view.rules, view.players):
        raise ValueError(f"no network of learned reads these rules at {view.players} seats "
                         "(trained for "
                         + ", ".join(f"{p} at {_shipped(p).players}" for p in supported()) + ")")
    coder = encoding(view.rules, view.players)
    moves = view.legal_moves()
    observation = coder.observe(view, PlayedCards(view.players))
    legal = np.asarray([coder.index(m) for m in moves], dtype=np.intp)
    order = np.argsort(legal)
    scores = network.scores(observation, legal[order], view.rules)
    return {moves[int(i)]: float(s) for i, s in zip(order, scores, strict=True)}


class LearnedBot(PolicyBot):
    """Plays the network trained for the match's encoding, ``greedy`` where it has none."""

    description = LEARNED_DESCRIPTION

    def __init__(self, weights: str | None = None) -> None:
        super().__init__()
        self.networks = ([load_network(Path(weights))] if weights is not None
                         else [_shipped(preset) for preset in supported()])
        self.network: Network | None = None
        self.fallback = GreedyBot()

    @classmethod
    def playing(cls, network: Network) -> LearnedBot:
        """A bot that plays ``network`` (for the trainer: no file read)."""
        bot = cls.__new__(cls)
        PolicyBot.__init__(bot)
        bot.networks = [network]
        bot.network = None
        bot.fallback = GreedyBot()
        return bot

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
        assert self.network is not None and self._encoding is not None
        return self.network.act(observation, mask, self._encoding.rules)

    def play(self, view: View) -> Move:
        """One forward pass over the encoded view and its legal-action mask."""
        if self.network is None:
            return self.fallback.play(view)
        return super().play(view)

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """The natural cards the exchange head scores highest (``greedy``'s choice for a
        network trained so)."""
        if self.network is None or self.network.exchange == "greedy":
            return self.fallback.exchange(view, count)
        observation = encoding(view.rules, view.players).observe(view, PlayedCards(view.players))
        return list(self.network.gift(observation, list(view.hand), count))
