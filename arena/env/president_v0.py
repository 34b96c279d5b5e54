"""President as a PettingZoo AEC environment (docs/learning.md).

    from arena.env import president_v0
    env = president_v0.env(preset="runs", players=4)   # any rules option as a keyword
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(observation)
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, one per seat. An observation is a mapping of
``observation`` (the seat's view, encoded by :class:`arena.env.Encoding`) and
``action_mask`` (its legal actions; all 0 when it is not to move). An agent's reward is the
points its place earns when a deal ends (``rules.points``, by default ``players - 1`` for the
President down to 0); the match ends after ``rules.rounds`` deals. Exchange returns are the
lowest cards, as :meth:`arena.Bot.exchange` gives by default. An illegal
action is judged as the referee judges an illegal move: a fault under ``rules.on_fault``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._table import Table, match_rules, series_seed

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> raw_env:
    """The environment. It enforces the order of calls itself (as PettingZoo's
    ``OrderEnforcingWrapper`` does: nothing before :meth:`~raw_env.reset`), so it needs no
    wrapper between the learner and the match, which is the cost of every step."""
    return raw_env(**kwargs)


class raw_env(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """President at one table, one agent per seat; see the module's docstring."""

    metadata: ClassVar[dict[str, Any]] = {"name": "president_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False}

    def __init__(self, preset: str = "standard", players: int = 4,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        self.rules = match_rules(preset, options)
        table = Table(self.rules, players, 0)  # checks the table size and sizes the spaces
        self.encoding = table.encoding
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._seat: dict[str, int] | None = None  # set by reset
        # The bookkeeping of a step is done when something changes, not at every step:
        # _paid is true while the rewards of a finished deal stand (cleared at the next step)
        # and some agent's cumulative reward has not been collected yet by its own step;
        # _informed holds the agents whose info says a fault; _over, the match is over (all
        # agents are terminated at once, so one flag stands for the terminations dict).
        self._paid = False
        self._informed: list[str] = []
        self._over = True
        size, actions = self.encoding.observation_size, self.encoding.action_size
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0, 1, (size,), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._base = -1
        self._resets = 0
        self.table = table

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: seeded ``seed`` (the match ``arena match --seed`` plays), else the
        next of the series of the last seed (docs/learning.md)."""
        if seed is not None:
            self._resets = 0
        match_seed, self._base = series_seed(seed, self._resets, self._base)
        self._resets += 1
        self.table = Table(self.rules, self.players, match_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._seat = self._seats
        self._paid = False
        self._informed = []
        self._over = self.table.to_move is None
        self._select()

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """PettingZoo's ``agent_iter``: the agent to act, until the match is over (or
        ``max_iter`` turns), each iteration to be followed by its step. A generator of its
        own: PettingZoo's iterator costs a call of Python code at every step."""
        return _Turns(self, max_iter)

    def _select(self) -> None:
        seat = self.table.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, Any]:
        if self._seat is None:
            raise RuntimeError("call reset() before observe()")
        observation, mask = self.table.observe_with_mask(self._seat[agent])
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool,
                                                  dict[str, Any]]:
        """PettingZoo's ``last``: the observation (made now, when asked), cumulative reward,
        termination, truncation and info of the agent to act."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        if self._over:
            if self._seat is None:
                raise RuntimeError("call reset() before step()")
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        table = self.table
        if self._paid or self._informed:  # what the last steps said is said: clear it
            self._clear(agent)
        faults = len(table.faults)
        table.step(action if action is not None else -1)
        if table.deal_ended or len(table.faults) > faults:
            self._account(agent, faults)
        to_move = table.to_move
        if to_move is None:
            for name in self.agents:
                self.terminations[name] = True
            self._over = True
        else:
            self.agent_selection = self.possible_agents[to_move]
        if self.render_mode == "human":
            self.render()

    def _clear(self, agent: str) -> None:
        # PettingZoo's rewards last one step, an agent's cumulative reward until it acts.
        if self._paid:
            rewards = self.rewards
            for name in rewards:
                rewards[name] = 0.0
            cumulative = self._cumulative_rewards
            cumulative[agent] = 0.0
            self._paid = any(cumulative.values())
        for name in self._informed:
            if name == agent:
                self.infos[name] = {}
        self._informed = [name for name in self._informed if name != agent]

    def _account(self, agent: str, faults: int) -> None:
        # A step that ended a deal (its points are the agents' rewards) or was a fault.
        table = self.table
        if table.deal_ended:
            rewards, cumulative = self.rewards, self._cumulative_rewards
            for seat, points in enumerate(table.points):
                name = self.possible_agents[seat]
                rewards[name] = float(points)
                cumulative[name] += float(points)
            self._paid = True
        if len(table.faults) > faults:
            self.infos[agent] = {"fault": table.faults[-1][1:]}
            self._informed.append(agent)

    def render(self) -> str | None:
        """The table as text: every seat's card count, the pile, and the seat to move's hand."""
        if self.render_mode is None:
            return None
        match = self.table.match
        deal = match.deal
        lines = [f"deal {deal.number}, pile: {deal.pile or 'empty'}"
                 + (", revolution" if deal.revolution else "")]
        for seat in range(self.players):
            mark = "*" if seat == deal.to_move else " "
            lines.append(f"{mark} player_{seat}: {deal.card_count(seat)} cards, "
                         f"score {match.scores[seat]}")
        if deal.to_move is not None:
            lines.append("hand: " + " ".join(map(str, deal.hand(deal.to_move))))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class _Turns:
    """What :meth:`raw_env.agent_iter` returns: iterable again and again, as PettingZoo's."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: raw_env, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection
