"""The engine's own shuffle: fixed, documented, and easy to reproduce in any language.

A deal's deck is shuffled by a Fisher-Yates pass driven by SplitMix64 (see docs/rules.md):

    state = seed mod 2**64
    next():  state += 0x9E3779B97F4A7C15; z = state
             z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9; z = (z ^ z >> 27) * 0x94D049BB133111EB
             return z ^ z >> 31                      (all arithmetic mod 2**64)
    for i from len(deck) - 1 down to 1:  j = (next() * (i + 1)) >> 64;  swap deck[i], deck[j]

Deal ``d`` of a match with seed ``S`` uses the seed ``mix(S + d * 0xD1B54A32D192ED03)``,
where ``mix`` is the output function above applied to one value.
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_DEAL_STEP: Final = 0xD1B54A32D192ED03


def mix(value: int) -> int:
    """SplitMix64's output function: a bijection on 64-bit integers."""
    z = value & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def deal_seed(match_seed: int, number: int) -> int:
    """The shuffle seed of deal ``number`` (0-based) of a match seeded ``match_seed``."""
    return mix((match_seed + number * _DEAL_STEP) & _MASK)


def shuffled(items: list[int], seed: int) -> list[int]:
    """A shuffled copy of ``items``, determined by ``seed`` alone."""
    deck = list(items)
    state = seed & _MASK
    for i in range(len(deck) - 1, 0, -1):
        state = (state + _GAMMA) & _MASK
        j = (mix(state) * (i + 1)) >> 64
        deck[i], deck[j] = deck[j], deck[i]
    return deck
