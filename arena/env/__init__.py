"""President for learning bots: one encoding of observations and actions, the environments
of PettingZoo, Gymnasium and OpenSpiel over it, and a bot that plays a trained policy
(docs/learning.md).

The encoding (:class:`Encoding`, :func:`encoding`) and :class:`PolicyBot` need only numpy.
The environments need the extra ``env`` (``pip install arena-president[env]``):

- ``from arena.env import president_v0``: the PettingZoo AEC environment;
- ``gymnasium.make("arena/President-v0", opponents=[...])``: the Gymnasium environment,
  registered when this package is imported and Gymnasium is installed;
- ``import arena.env.openspiel``: registers ``python_president`` with OpenSpiel.
"""

from __future__ import annotations

from arena.game import restore_docstrings  # first: it chooses compiled or pure modules here too

# isort: split
from ._encoding import (
    Encoding,
    PlayedCards,
    Segment,
    decode_action,
    encode_move,
    encoding,
)
from ._policy import Policy, PolicyBot

__all__ = [
    "GYM_ID",
    "Encoding",
    "PlayedCards",
    "Policy",
    "PolicyBot",
    "Segment",
    "decode_action",
    "encode_move",
    "encoding",
]

restore_docstrings({"Encoding": Encoding, "PlayedCards": PlayedCards, "Segment": Segment})

GYM_ID = "arena/President-v0"
"""The Gymnasium id of :class:`arena.env.single_agent.PresidentEnv`."""


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # the extra "env" is not installed: the encoding works without it
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="arena.env.single_agent:PresidentEnv")


_register_gymnasium()
