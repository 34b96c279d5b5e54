"""President as an OpenSpiel game, registered as ``python_president`` on import.

    import pyspiel
    import arena.env.openspiel  # registers the game
    game = pyspiel.load_game("python_president", {"preset": "runs", "players": 4})

One game is one match. It begins with eight chance nodes of 256 outcomes each, the bytes
of the match seed (so every match arena can play is one chance path, each as likely); then
the players move, actions and observation tensors being those of :class:`arena.env.Encoding`.
Exchange returns are the lowest cards (:meth:`arena.Bot.exchange`'s default), illegal
actions cannot happen (OpenSpiel plays legal actions only). The returns, at the end, are the
match's scores. Parameters: ``preset``, ``players``, and any rules option whose value is a
boolean, a number or a text (``rounds``, ``jokers``, ``runs``, ``opening_card``, ...).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pyspiel

from arena.game import Rules

from ._table import Table

__all__ = ["GAME_NAME", "PresidentGame", "PresidentObserver", "PresidentState"]

GAME_NAME = "python_president"
_SEED_BYTES = 8
_SCALARS = (bool, int, str)
_OPTIONS = {f.name: f.default for f in dataclasses.fields(Rules)
            if isinstance(f.default, _SCALARS)}


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="President (Daifugo), from arena",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        # Only "preset" and "players" have defaults of their own: an option not given is
        # the preset's (see PresidentGame).
        parameter_specification={"preset": "standard", "players": 4, **_OPTIONS},
    )


_GAME_TYPE = _game_type()


class PresidentGame(pyspiel.Game):  # type: ignore[misc]
    """The game; ``pyspiel.load_game(GAME_NAME, params)`` makes one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        preset = str(given.pop("preset", "standard"))
        players = int(given.pop("players", 4))
        # OpenSpiel hands over every declared parameter, the defaults filled in: an option
        # at arena's default is taken as not given, so that the preset's value stands.
        options = {key: value for key, value in given.items()
                   if key not in _OPTIONS or value != _OPTIONS[key]}
        rules = Rules.preset(preset, **options)
        coder = Table(rules, players, 0).encoding  # checks the table and sizes the game
        points = rules.points_for(players)
        cards = 52 + rules.jokers
        per_play = 1 + max(players - 1, rules.pass_limit)
        info = pyspiel.GameInfo(
            num_distinct_actions=coder.action_size,
            max_chance_outcomes=256,
            num_players=players,
            min_utility=float(rules.rounds * min(points)),
            max_utility=float(rules.rounds * max(points)),
            utility_sum=float(rules.rounds * sum(points)),
            max_game_length=_SEED_BYTES + rules.rounds * (cards + 1) * per_play,
        )
        super().__init__(_GAME_TYPE, info, {"preset": preset, "players": players, **given})
        self.rules = rules
        self.players = players
        self.encoding = coder

    def new_initial_state(self) -> PresidentState:
        """A match before its seed is drawn."""
        return PresidentState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> PresidentObserver:
        """The observer of a seat: its view (private cards and public information)."""
        return PresidentObserver(self, iig_obs_type, params)


class PresidentState(pyspiel.State):  # type: ignore[misc]
    """A match: first the chance nodes of its seed, then the players' moves."""

    def __init__(self, game: PresidentGame) -> None:
        super().__init__(game)
        # What the state needs of its game, kept here: OpenSpiel may hand later calls a
        # game object without the Python attributes.
        self._rules: Rules = game.rules
        self._players: int = game.players
        self._encoding = game.encoding
        self._seed_bytes: list[int] = []
        self.table: Table | None = None

    def current_player(self) -> int:
        if self.table is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.table.to_move
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.table is None or player != self.table.to_move:
            return []  # only the seat to move has actions
        return self.table.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(byte, 1 / 256) for byte in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            self._seed_bytes.append(int(action))
            if len(self._seed_bytes) == _SEED_BYTES:
                seed = int.from_bytes(bytes(self._seed_bytes), "big") & (2**63 - 1)
                self.table = Table(self._rules, self._players, seed)
            return
        self.table.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self._encoding.move(action))

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.finished

    def returns(self) -> list[float]:
        if self.table is None or not self.table.finished:
            return [0.0] * self._players
        return [float(score) for score in self.table.match.scores]

    def __str__(self) -> str:
        if self.table is None:
            return f"seed bytes {self._seed_bytes}"
        match = self.table.match
        deal = match.deal
        hands = " | ".join(" ".join(map(str, deal.hand(s))) for s in range(self._players))
        return (f"deal {deal.number}, to move {deal.to_move}, pile {deal.pile or '-'}, "
                f"scores {match.scores}, hands {hands}")


class PresidentObserver:
    """One seat's observation: the tensor of :meth:`arena.env.Encoding.observe` (as
    float32) and its view as text. Only what the seat may see: OpenSpiel's observation type
    with the private information of that one player and the public information."""

    def __init__(self, game: PresidentGame, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_president's observer takes no params, not {params}")
        if iig_obs_type is not None and (
                iig_obs_type.perfect_recall or not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("python_president observes one seat's view: the observation type "
                             "must be imperfect recall, with public and single-player info")
        self._encoding = game.encoding
        self.tensor = np.zeros(game.encoding.observation_size, np.float32)
        self.dict = {segment.name: self.tensor[segment.offset: segment.offset + segment.length]
                     for segment in game.encoding.segments}

    def set_from(self, state: PresidentState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` sees in ``state``."""
        if state.table is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = state.table.observe(player)

    def string_from(self, state: PresidentState, player: int) -> str:
        """What ``player`` sees in ``state``, as JSON (its view, without the history)."""
        if state.table is None:
            return f"seat {player}, before the deal"
        seen = state.table.match.view(player).to_dict()
        seen.pop("plays")
        seen.pop("rules")
        return json.dumps(seen, separators=(",", ":"))


pyspiel.register_game(_GAME_TYPE, PresidentGame)
