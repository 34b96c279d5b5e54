"""President as a Gymnasium environment: the learner holds one seat, arena bots the others.

    import gymnasium
    import arena.env  # registers arena/President-v0
    env = gymnasium.make("arena/President-v0", opponents=["greedy", "mc", "random"],
                         preset="runs")
    observation, info = env.reset(seed=42)
    observation, reward, terminated, truncated, info = env.step(action)

The table has one seat more than ``opponents``. Opponents are installed bots by name
(``arena bots``) or :class:`arena.Bot` objects; each is bound to its seat with the generator
the referee would give it (:func:`arena.seeds.bot_rng`), told of the match and of every deal's
end, and asked for its moves and exchanges just as in a tournament. Observations are those of
the PettingZoo environment (``observation`` and ``action_mask``), rewards the learner's points
at each deal's end, and the episode is one match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from arena.bot import Bot, MatchInfo
from arena.game import Card, View
from arena.plugins import registry
from arena.seeds import bot_rng

from ._table import Table, default_exchange, match_rules, series_seed

__all__ = ["PresidentEnv"]

LEARNER = "learner"
"""The label of the learner's seat in the opponents' :class:`arena.MatchInfo`."""


class PresidentEnv(gymnasium.Env[dict[str, Any], int]):
    """One seat of a President match against arena bots; see the module's docstring.

    ``seat`` is the learner's seat (``None``: seat ``k % players`` at the ``k``-th reset, so
    that it learns every position); ``exchange`` chooses the learner's exchange returns.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's field)

    def __init__(self, opponents: Sequence[str | Bot] = ("random", "random", "random"),
                 preset: str = "standard", seat: int | None = 0,
                 render_mode: str | None = None,
                 exchange: Callable[[View, int], list[Card]] = default_exchange,
                 **options: Any) -> None:
        if isinstance(opponents, str) or not opponents:
            raise ValueError("opponents must be a list of bot names or arena.Bot objects, "
                             f"not {opponents!r}")
        for opponent in opponents:
            if isinstance(opponent, str):
                registry().get(opponent)  # an unknown name fails here, naming the bots known
            elif not isinstance(opponent, Bot):
                raise ValueError(f"opponent {opponent!r} is neither a bot name nor an arena.Bot")
        players = len(opponents) + 1
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be None or 0 .. {players - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = match_rules(preset, options)
        self.opponents = list(opponents)
        self.players = players
        self.seat_option = seat
        self.render_mode = render_mode
        self._learner_exchange = exchange
        self.table = Table(self.rules, players, 0)
        self.encoding = self.table.encoding
        size, actions = self.encoding.observation_size, self.encoding.action_size
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (size,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        })
        # Discrete samples numpy integers; step takes any integer.
        self.action_space = spaces.Discrete(actions)  # type: ignore[assignment]
        self.seat = 0 if seat is None else seat
        self.bots: list[Bot | None] = [None] * players
        self._base = -1
        self._resets = 0
        self._carried = 0

    # ------------------------------------------------------------------ gymnasium

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new match (seeded as the PettingZoo environment's reset is)."""
        super().reset(seed=seed)
        if seed is not None:
            self._resets = 0
        match_seed, self._base = series_seed(seed, self._resets, self._base)
        if self.seat_option is None:
            self.seat = self._resets % self.players
        self._resets += 1
        self._seat_bots(match_seed)
        self.table = Table(self.rules, self.players, match_seed, self._exchange)
        # Points of deals that end before the learner's first move (an opponent forfeiting a
        # deal at a table of two) are paid with the first step's reward.
        self._carried = self._opponents_play()
        observation = self._observation()
        return observation, {"action_mask": observation["action_mask"]}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents until the learner is to move
        again or the match ends; the reward is the learner's points of the deals that ended."""
        table = self.table
        faults = len(table.faults)
        table.step(int(action) if isinstance(action, (int, np.integer)) else -1)
        reward = table.points[self.seat] + self._carried
        self._carried = 0
        self._end_deals()
        info: dict[str, Any] = {}
        if len(table.faults) > faults and table.faults[faults][0] == self.seat:
            info["fault"] = table.faults[faults][1:]
        reward += self._opponents_play()
        observation = self._observation()
        info["action_mask"] = observation["action_mask"]
        return observation, float(reward), table.finished, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions as booleans (what maskable policies ask for)."""
        return self.table.action_mask(self.seat).astype(bool)

    def render(self) -> str | None:  # type: ignore[override]
        """The learner's view as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        view = self.table.match.view(self.seat)
        return (f"deal {view.number}, seat {self.seat}, pile: {view.pile or 'empty'}, "
                f"cards: {list(view.counts)}\nhand: {' '.join(map(str, view.hand))}")

    # ------------------------------------------------------------------ opponents

    def _seat_bots(self, match_seed: int) -> None:
        labels = []
        bots: list[Bot | None] = []
        others = iter(self.opponents)
        for seat in range(self.players):
            if seat == self.seat:
                bots.append(None)
                labels.append(LEARNER)
                continue
            opponent = next(others)
            bot = registry().create(opponent) if isinstance(opponent, str) else opponent
            bot.bind(seat, self.rules, self.players, bot_rng(match_seed, seat))
            bots.append(bot)
            labels.append(opponent if isinstance(opponent, str) else bot.name or "bot")
        for seat, seated in enumerate(bots):
            if seated is not None:
                seated.start_match(MatchInfo(seat, self.players, self.rules,
                                          f"env-{match_seed}", tuple(labels)))
        self.bots = bots
        self._told = 0

    def _exchange(self, seat: int, view: View, count: int) -> list[Card]:
        bot = self.bots[seat]
        if bot is None:
            return self._learner_exchange(view, count)
        return [Card.parse(card) for card in bot.exchange(view, count)]

    def _opponents_play(self) -> int:
        """Let the opponents move until the learner is to move; the learner's points."""
        table = self.table
        reward = 0
        while (seat := table.to_move) is not None and seat != self.seat:
            player = self.bots[seat]
            assert player is not None
            try:
                answer = player.play(table.match.view(seat))
            except Exception as error:  # a bot's code failed: a crash, as in the referee
                table.fault("crash", f"{type(error).__name__}: {error}")
            else:
                table.play(answer)
            reward += table.points[self.seat]
            self._end_deals()
        return reward

    def _end_deals(self) -> None:
        match = self.table.match
        while self._told < match.deal_number:
            for seat, bot in enumerate(self.bots):
                if bot is not None:
                    bot.end_deal(match.result_for(seat, self._told))
            self._told += 1

    def _observation(self) -> dict[str, Any]:
        table = self.table
        return {"observation": table.observe(self.seat),
                "action_mask": table.action_mask(self.seat)}
