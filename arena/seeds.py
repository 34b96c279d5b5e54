"""Every seed arena derives, from one keyed one-way function.

A tournament seed is the key to every hand of every match, so nothing
computed from it and shown to a bot (or written where a bot could read it)
may let anyone compute it back. All derivations go through :func:`derive`:
BLAKE2b keyed with the parent seed, over an unambiguous encoding of a path
of names and numbers. Knowing any number of derived seeds reveals neither the
parent seed nor any sibling, and distinct paths never share an input.

The paths in use (``derive(parent, *path)``):

================================  ==========================================
``derive(T, "match", key)``       match seed of the match or set ``key``
``derive(T, "set", i)``           duplicate set ``i`` of an A/B test (sprt)
``derive(T, "swiss")``            Swiss round-0 order
``derive(T, "design", n, k, i)``  sampled round robin: block ``i`` of ``n``
                                  bots at tables of ``k``
``derive(M, "bot", seat)``        the generator of the bot at ``seat`` of
                                  a match seeded ``M``
``derive(M, "dryrun", *labels)``  the ranking a dry run invents for a match
``derive(T, "league", "round",    a league's tie-breaks and seatings of
r)``                              round ``r``
``derive(T, "league",             the posterior draws a league makes before
"bootstrap", r)``                 round ``r`` (numpy's generator)
``derive(T, "planted", r, t)``    the planted draws of table ``t`` of round
                                  ``r`` of a simulated league
================================  ==========================================

Match seeds are ``match_seed(T, key)``, that is ``derive(T, "match", key)``. One
generator is not a secret and is no derivation: the ratings' bootstrap draws for bot
``i`` from numpy seeded with ``[S, i]`` (``bootstrap_rng``), ``S`` the ratings' own
public seed, so adding a bot to the records shifts no other bot's interval.
One series is not derived: :func:`series` counts up from a seed the caller
chose (``seed + k``, ``arena.referee.compare``), so that match ``k`` of a
quick comparison replays from its own seed alone. Its seeds are match
seeds, which are never sent to a bot.

The deck of each deal is shuffled from the match seed by the game's own
published shuffle (docs/rules.md, "The deal"), so that any language can
replay a record; the match seed itself is never sent to a bot.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "SEED_LIMIT",
    "bootstrap_rng",
    "bot_rng",
    "bot_seed",
    "derive",
    "match_seed",
    "rng",
    "secret_seed",
    "series",
]

SEED_LIMIT: Final = 2**63
"""Seeds are integers in ``0 .. SEED_LIMIT - 1`` (they fit a signed 64-bit integer)."""


def _part(value: str | int) -> bytes:
    if isinstance(value, str):
        tag, data = b"s", value.encode()
    elif isinstance(value, int) and not isinstance(value, bool):
        tag, data = b"i", str(value).encode()
    else:
        raise TypeError(f"a seed path holds names and integers, not {type(value).__name__}")
    return tag + len(data).to_bytes(4, "big") + data


def derive(seed: int, *path: str | int) -> int:
    """The seed named ``path`` under ``seed``: one-way, in ``0 .. 2**63 - 1``.

    ``seed`` is the key of a BLAKE2b hash of the path (each part tagged as a
    name or an integer and length-prefixed), so ``derive(s, "a", 1)`` and
    ``derive(s, "a1")`` differ, and no output reveals ``seed``.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed is an integer >= 0, got {seed!r}")
    key = seed.to_bytes(max(8, (seed.bit_length() + 7) // 8), "big")
    if len(key) > 64:
        raise ValueError("a seed has at most 512 bits")
    digest = hashlib.blake2b(b"".join([_part(p) for p in path]), key=key, digest_size=8).digest()
    return int.from_bytes(digest, "big") % SEED_LIMIT


def rng(seed: int, *path: str | int) -> random.Random:
    """A ``random.Random`` seeded with ``derive(seed, *path)``."""
    return random.Random(derive(seed, *path))


def match_seed(tournament_seed: int, key: str) -> int:
    """The seed of the match (or duplicate set) named ``key``, in 0..2**63-1.

    A keyed hash (:func:`derive`), so a match's cards never depend on when or where it
    runs (the order of execution, the number of jobs and resuming change nothing), and no
    match seed reveals the tournament seed.
    """
    return derive(tournament_seed, "match", key)


def bootstrap_rng(seed: int, index: int) -> np.random.Generator:
    """numpy's generator for the bootstrap of bot ``index`` in ratings seeded ``seed``:
    ``numpy.random.default_rng([seed, index])``, one stream per bot, independent of the
    others (the seed is public: nothing here is secret)."""
    import numpy as np

    return np.random.default_rng([seed, index])


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the generator given to the bot at ``seat``, in every host."""
    return derive(match_seed, "bot", seat)


def bot_rng(match_seed: int, seat: int) -> random.Random:
    """The bot's generator: ``random.Random(bot_seed(match_seed, seat))``."""
    return random.Random(bot_seed(match_seed, seat))


def secret_seed() -> int:
    """A fresh seed from the operating system's secure generator."""
    return secrets.randbelow(SEED_LIMIT)


def series(seed: int, k: int) -> int:
    """The ``k``-th seed of the series counting up from ``seed``: ``seed + k``, kept below
    :data:`SEED_LIMIT` (match ``k`` of a comparison of bots; see the module's note)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed is an integer >= 0, got {seed!r}")
    return (seed + k) % SEED_LIMIT
