"""Positions for per-bot tests: "given this hand and this pile, the bot plays X".

A position is built by a real two-player deal: seat 0 (the opponent) plays what puts
the pile (and, if asked, a revolution) on the table, then seat 1 (the bot under test)
is to move, so every view the bots see here is one the engine can produce.
"""

from __future__ import annotations

import random
from typing import Any

from arena import Bot
from arena.game import Card, Deal, Move, Rules, View

DECK = [Card.parse(r + s) for r in "3456789TJQKA2" for s in "CDHS"]
REVOLT = ["9C", "9D", "9H", "9S"]


def position(
    hand: str,
    pile: str | None = None,
    *,
    preset: str = "standard",
    revolution: bool = False,
    **options: Any,
) -> View:
    """The view of a bot holding ``hand`` (cards separated by spaces) facing ``pile``.

    ``pile=None`` makes the bot lead. ``revolution=True`` has the opponent start a
    revolution with four 9s first (so the bot's hand must not hold a 9, and a pile is
    needed); the rules then include ``revolution: true``.
    """
    if revolution:
        options["revolution"] = True
    rules = Rules.preset(preset, **options)
    mine = [Card.parse(c) for c in hand.split()]
    theirs = [] if pile is None else [c for c in Move.parse(pile).cards]
    if revolution:
        if pile is None:
            raise ValueError("a revolution position needs a pile")
        theirs += [Card.parse(c) for c in REVOLT]
    taken = set(mine) | set(theirs)
    # The opponent keeps a few more cards so that it does not go out.
    theirs += [c for c in DECK if c not in taken][:3]
    if pile is None:
        deal = Deal.from_hands(rules, [theirs, mine], leader=1)
    else:
        deal = Deal.from_hands(rules, [theirs, mine], leader=0)
        if revolution:
            deal.play(" ".join(REVOLT))
            deal.play("pass")
        deal.play(pile)
    view = deal.view(1)
    assert view.to_move == 1 and view.revolution == revolution
    return view


def bound(bot: Bot, view: View, seed: int = 0) -> Bot:
    """``bot`` bound to ``view``'s seat and rules, with a seeded generator."""
    bot.bind(view.seat, view.rules, view.players, random.Random(seed))
    return bot


def plays(bot: Bot, hand: str, pile: str | None = None, **kwargs: Any) -> str:
    """The move ``bot`` makes in :func:`position` (hand, pile, ...), as canonical text."""
    view = position(hand, pile, **kwargs)
    return str(Move.parse(str(bound(bot, view).play(view))))
