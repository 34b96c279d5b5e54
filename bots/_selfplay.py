"""Play bots against each other straight through :class:`arena.game.Match`.

No referee, no time limits, no records: the fastest way to measure one strategy
against others over many seeded deals, for benchmarks, tests and bot writers.
Bots are created from the plugin registry by name and driven exactly as the
``inline`` host drives them (``bind``, ``start_match``, ``exchange``, ``play``,
``end_deal``), with the same per-seat random seeds as the referee.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.bot import Bot, MatchInfo
from arena.game import Match, Rules
from arena.plugins import BotRegistry, registry
from arena.seeds import bot_rng


@dataclass
class Places:
    """Finishing places (1 = first out) of every deal, collected per bot name."""

    places: dict[str, list[int]] = field(default_factory=dict)
    deals: int = 0

    def mean(self, name: str) -> float:
        """The average finishing place of bot ``name`` over all its seats and deals."""
        return statistics.fmean(self.places[name])

    def summary(self) -> dict[str, float]:
        """Average place per bot name."""
        return {name: self.mean(name) for name in sorted(self.places)}


def play_match(bots: Sequence[Bot], rules: Rules, seed: int, match_id: str = "selfplay") -> Match:
    """Play one match between ``bots`` (seat order) and return the finished match.

    Raises :class:`arena.game.IllegalMove` if a bot answers with an illegal move: this
    helper is for trusted bots; the referee is the one that forgives.
    """
    players = len(bots)
    labels = [bot.name or type(bot).__name__ for bot in bots]
    for seat, bot in enumerate(bots):
        bot.bind(seat, rules, players, bot_rng(seed, seat))
        bot.start_match(MatchInfo(seat, players, rules, match_id, labels))
    match = Match(rules, players, seed)
    seen = 0
    while (decision := match.pending) is not None:
        bot = bots[decision.seat]
        view = match.view(decision.seat)
        if decision.kind == "exchange":
            match.give(bot.exchange(view, decision.count))
        else:
            match.play(bot.play(view))
        while seen < len(match.history):
            for b in bots:
                b.end_deal(match.history[seen])
            seen += 1
    return match


def compare(
    names: Sequence[str],
    rules: Rules,
    matches: int,
    seed: int = 0,
    reg: BotRegistry | None = None,
) -> Places:
    """Play ``matches`` matches of the bots ``names`` and collect their finishing places.

    Match ``k`` uses seed ``seed + k`` and turns the seats round by ``k`` places, so
    every bot plays from every seat equally often.
    """
    reg = reg or registry()
    result = Places()
    players = len(names)
    for k in range(matches):
        order = [names[(seat + k) % players] for seat in range(players)]
        bots = [reg.create(name) for name in order]
        match = play_match(bots, rules, seed + k, match_id=f"selfplay-{k}")
        for deal in match.history:
            for place, seat in enumerate(deal["finish_order"], start=1):
                result.places.setdefault(order[seat], []).append(place)
            result.deals += 1
    return result
