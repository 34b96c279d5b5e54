"""Built-in strategies, registered through the ``arena.bots`` entry-point group.

This package is the plugin ``builtin`` (see ``pyproject.toml``): arena finds it the
same way as any third-party bot package, so it doubles as a worked example.
"""

from __future__ import annotations

import inspect
from typing import Any

from arena.bot import Bot
from arena.hookspecs import Register, hookimpl

from ._descriptions import GUIDED_DESCRIPTION, LEARNED_DESCRIPTION
from ._expert import ExpertBot
from ._greedy import GreedyBot
from ._highest import HighestBot
from ._lowest import LowestBot
from ._mc import McBot
from ._passer import PasserBot
from ._random_bot import RandomBot

__all__ = [
    "ExpertBot",
    "GreedyBot",
    "HighestBot",
    "LowestBot",
    "McBot",
    "PasserBot",
    "RandomBot",
    "register_bots",
]

_AUTHOR = "arena developers"


@hookimpl
def register_bots(register: Register) -> None:
    """Register the built-in bots."""
    register("random", RandomBot, author=_AUTHOR)
    register("lowest", LowestBot, author=_AUTHOR)
    register("highest", HighestBot, author=_AUTHOR)
    register("passer", PasserBot, author=_AUTHOR)
    register("greedy", GreedyBot, author=_AUTHOR)
    register("mc", McBot, author=_AUTHOR)
    register("expert", ExpertBot, author=_AUTHOR)
    register("learned", learned_bot, author=_AUTHOR, stochastic=False,
             description=LEARNED_DESCRIPTION)
    register("guided", guided_bot, author=_AUTHOR, stochastic=True,
             description=GUIDED_DESCRIPTION)


def learned_bot(weights: str | None = None) -> Bot:
    """The bot ``learned`` (:class:`bots.learned.LearnedBot`), imported when first made: it
    plays through ``arena.env``, whose import the other built-ins need not pay."""
    from .learned import LearnedBot

    return LearnedBot(weights)


def guided_bot(**params: Any) -> Bot:
    """The bot ``guided`` (:class:`bots._guided.GuidedBot`: ``expert``'s parameters, and
    ``prior``, ``temperature``, ``weights``), imported when first made, as ``learned``."""
    from ._guided import GuidedBot

    return GuidedBot(**params)


# The parameters guided takes, for the registry's check of a bot's params (an unknown one is
# named in one line): expert's, then its own (their defaults are GuidedBot's).
setattr(guided_bot, "__signature__", inspect.Signature([  # noqa: B010
    *inspect.signature(ExpertBot).parameters.values(),
    *(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
      for name in ("prior", "temperature", "weights"))]))
