"""The data of behaviour cloning: the teacher's choices on positions the engine generates.

A match is played by the teacher in every seat (``expert`` with a fixed playout budget, so
the labels replay from the seed), observed as the environments observe it;
every decision with more than one legal action is kept as its observation, its
legal-action mask (bit-packed) and the action the teacher chose, and every exchange return
as its observation, the hand and the cards given. Matches are labelled in shards of a
fixed number of matches, each saved when done, so an interrupted run resumes at the first
missing shard.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from arena.bot import Bot, MatchInfo
from arena.env import PlayedCards, encoding
from arena.game import Card, Match, Rules
from arena.seeds import bot_rng, derive

__all__ = ["Samples", "label_match", "label_shards", "load_shards"]

Teacher = Callable[[], Bot]
SAVEZ: Callable[..., None] = np.savez_compressed
"""numpy's, typed to take arrays by keyword."""


@dataclass
class Samples:
    """Labelled decisions: moves (``obs``, packed ``mask``, ``action``) and exchange returns
    (``gift_obs``, ``hand`` and ``gift`` as card-field flags)."""

    obs: list[npt.NDArray[np.int8]] = field(default_factory=list)
    mask: list[npt.NDArray[np.uint8]] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    gift_obs: list[npt.NDArray[np.int8]] = field(default_factory=list)
    hand: list[npt.NDArray[np.int8]] = field(default_factory=list)
    gift: list[npt.NDArray[np.int8]] = field(default_factory=list)

    def arrays(self, obs_size: int, cards: int) -> dict[str, npt.NDArray[np.generic]]:
        """The samples as arrays, empty ones shaped right."""
        def stack(rows: list[npt.NDArray[np.generic]], width: int,
                  dtype: type[np.generic]) -> npt.NDArray[np.generic]:
            return np.stack(rows) if rows else np.zeros((0, width), dtype=dtype)

        mask_width = self.mask[0].shape[0] if self.mask else 0
        return {"obs": stack(list(self.obs), obs_size, np.int8),
                "mask": stack(list(self.mask), mask_width, np.uint8),
                "action": np.asarray(self.action, dtype=np.int32),
                "gift_obs": stack(list(self.gift_obs), obs_size, np.int8),
                "hand": stack(list(self.hand), cards, np.int8),
                "gift": stack(list(self.gift), cards, np.int8)}


def _flags(cards: list[Card], size: int) -> npt.NDArray[np.int8]:
    flags = np.zeros(size, dtype=np.int8)
    for card in cards:
        if not card.is_joker:
            flags[card.index] = 1
    return flags


def label_match(rules: Rules, players: int, seed: int, teacher: Teacher,
                samples: Samples) -> None:
    """Play the match ``seed`` with ``teacher`` in every seat, adding its choices to
    ``samples``."""
    coder = encoding(rules, players)
    cards = coder.segments[0].length
    bots = [teacher() for _ in range(players)]
    labels = [type(bot).__name__ for bot in bots]
    for seat, bot in enumerate(bots):
        bot.bind(seat, rules, players, bot_rng(seed, seat))
        bot.start_match(MatchInfo(seat, players, rules, f"label-{seed}", labels))

    match = Match(rules, players, seed)
    played = PlayedCards(players)
    while (decision := match.pending) is not None:
        seat = decision.seat
        view = match.view(seat)
        if decision.kind == "exchange":
            gift = [c if isinstance(c, Card) else Card.parse(c)
                    for c in bots[seat].exchange(view, decision.count)]
            samples.gift_obs.append(coder.observe(view, PlayedCards(players)))
            samples.hand.append(_flags(list(view.hand), cards))
            samples.gift.append(_flags(gift, cards))
            match.give(gift)
            continue
        moves = match.deal.legal_moves()
        observation, mask = coder.observe_with_mask(view, moves, played, match.deal.moves)
        move = bots[seat].play(view)
        if len(moves) > 1:
            samples.obs.append(observation)
            samples.mask.append(np.packbits(mask.astype(np.uint8)))
            samples.action.append(coder.index(move))
        match.play(move)


def label_shards(folder: Path, preset: str, players: int, seed: int, shards: int,
                 per_shard: int, teacher: Teacher,
                 progress: Callable[[str], None] = print,
                 saved: Callable[[], None] = lambda: None) -> list[Path]:
    """Label ``shards`` shards of ``per_shard`` matches into ``folder`` (``shard-K.npz``),
    skipping those already there, calling ``saved()`` after each one written; the match
    seeds are ``derive(seed, "label", k)``."""
    rules = Rules.preset(preset)
    coder = encoding(rules, players)
    obs_size = coder.segments[-1].offset + coder.segments[-1].length
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for shard in range(shards):
        path = folder / f"shard-{shard:04d}.npz"
        paths.append(path)
        if path.exists():
            continue
        samples = Samples()
        for k in range(shard * per_shard, (shard + 1) * per_shard):
            label_match(rules, players, derive(seed, "label", k), teacher, samples)
        partial = path.with_suffix(".part.npz")
        SAVEZ(partial, **samples.arrays(obs_size, coder.segments[0].length))
        partial.replace(path)
        saved()
        progress(f"label {preset}: shard {shard + 1}/{shards}, {len(samples.action)} moves, "
                 f"{len(samples.gift)} exchanges")
    return paths


def load_shards(paths: list[Path]) -> dict[str, npt.NDArray[np.generic]]:
    """The shards' samples joined, each array concatenated across shards."""
    parts: dict[str, list[npt.NDArray[np.generic]]] = {}
    for path in paths:
        with np.load(path) as data:
            for name in data.files:
                parts.setdefault(name, []).append(data[name])
    return {name: np.concatenate(arrays) for name, arrays in parts.items()}
