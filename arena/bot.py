"""The bot API: what a strategy implements to play President in arena.

A bot is a small object with one required method, :meth:`Bot.play`. The
referee creates one instance per seat and per match, binds it to its seat,
the rules and a seeded random generator, and then asks it for moves. The
bot only ever sees :class:`arena.game.View` objects, never the referee's
state, so the same bot runs unchanged in the referee's process or in a
child process speaking the bot protocol.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.game import Card, Move, Rules, View

__all__ = ["Bot", "MatchInfo"]


@dataclass(frozen=True)
class MatchInfo:
    """What a bot learns when a match starts.

    Handed to :meth:`Bot.start_match` so a bot can size tables or model its
    opponents by label before the first deal.
    """

    seat: int
    """This bot's seat (0-based)."""
    players: int
    """Number of seats at the table."""
    rules: Rules
    """The rules in force for the whole match."""
    match_id: str
    """The match's id, unique within its tournament."""
    labels: Sequence[str]
    """The label of the bot in each seat, in seat order (this bot's own included)."""


class Bot:
    """Base class for a President strategy: subclass it and implement :meth:`play`.

    Metadata lives in class attributes, in the spirit of a strategy
    classifier: it is shown by ``arena bots``, written into every match
    record, and lets tournaments and reports tell reproducible
    (``stochastic = False``) bots from random ones. A plugin's
    ``register(...)`` call may override any of it.

    Before the first deal the referee calls :meth:`bind` and then
    :meth:`start_match`; a bot must draw all its randomness from
    :attr:`rng`, which the referee seeds from the match seed and the seat,
    so that a match replays identically from its seed.
    """

    name: str = ""
    """Registered name (``arena match greedy ...``); set by the registry."""
    description: str = ""
    """One line saying how the bot plays."""
    author: str = ""
    """Who wrote it."""
    version: str = ""
    """The bot's version; defaults to its package's version."""
    stochastic: bool = False
    """True when the bot's choices depend on :attr:`rng`."""

    seat: int
    """This bot's seat, set by :meth:`bind`."""
    rules: Rules
    """The match's rules, set by :meth:`bind`."""
    players: int
    """Number of seats at the table, set by :meth:`bind`."""
    rng: random.Random
    """The bot's only source of randomness, seeded by the referee."""

    def bind(self, seat: int, rules: Rules, players: int, rng: random.Random) -> None:
        """Attach the bot to its seat; the referee calls this before :meth:`start_match`."""
        self.seat = seat
        self.rules = rules
        self.players = players
        self.rng = rng

    def play(self, view: View) -> Move | str:
        """Choose a move for the position in ``view``.

        Return a :class:`arena.game.Move` or its text (``"5H 5S"``,
        ``"pass"``). ``view.legal_moves()`` lists every legal answer; any
        other answer is an ``illegal`` fault, which costs the bot its seat
        in the deal under the default ``on_fault: forfeit``.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement play(view)")

    def exchange(self, view: View, count: int) -> list[Card | str]:
        """Choose the ``count`` cards to give back as President or Vice-President.

        ``view.hand`` already holds the cards received. The default gives
        the lowest cards, which is what most players would do.
        """
        return list(sorted(view.hand)[:count])

    def start_match(self, info: MatchInfo) -> None:
        """Called once before the first deal; the default does nothing."""

    def end_deal(self, result: dict[str, Any]) -> None:
        """Called after every deal with what this seat may know of it; the default does nothing.

        ``result`` is ``Match.result_for(seat)``: the deal number, this
        seat's own dealt hand, the roles, the exchanges it took part in, the
        leader, every move, the faults and forfeits, the finishing order,
        the deal's points and the scores after it. Never another player's
        hand.
        """
