"""The descriptions of the built-ins registered by a factory that imports them when first
made (``learned``, ``guided``): the registry cannot read them off a class it has not
imported, so the registration and the classes take them from here."""

from __future__ import annotations

from typing import Final

LEARNED_DESCRIPTION: Final = ("a policy network cloned from mc (uecda: expert), numpy only: "
                              "runs and daifugo at 4 players (runs tuned by play, daifugo "
                              "judging the hand each move leaves) and uecda at 5; plays "
                              "greedy elsewhere")
GUIDED_DESCRIPTION: Final = ("expert guided by the learned policy: the network's best move "
                             "among the candidates and its softmax as the search's prior (at "
                             "learned's tables; expert elsewhere)")
