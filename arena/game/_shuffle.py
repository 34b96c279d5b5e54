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

from typing import Any, Final

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
    count = len(deck)
    if count < 2:
        return deck
    i = count - 1
    for j in _swaps(count, seed):
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck


def _swaps(count: int, seed: int) -> list[int]:
    # The j of each step of the pass above, made at once: SplitMix64's k-th state is
    # seed + k * gamma, so numpy's 64-bit arithmetic (which wraps mod 2**64) mixes them as one
    # array, and j, the top 64 bits of next() * (i + 1), is
    # ((z >> 32) * (i + 1) + ((z & 0xFFFFFFFF) * (i + 1) >> 32)) >> 32, exact in 64 bits.
    np, steps, bounds, shifts = _numpy(count)
    z = steps + np.uint64(seed & _MASK)
    z ^= z >> shifts[0]
    z *= shifts[3]
    z ^= z >> shifts[1]
    z *= shifts[4]
    z ^= z >> shifts[2]
    low = z & shifts[5]
    low *= bounds
    low >>= shifts[6]
    z >>= shifts[6]
    z *= bounds
    z += low
    z >>= shifts[6]
    swaps: list[int] = z.tolist()
    return swaps


_ARRAYS: dict[int, tuple[Any, Any, Any, tuple[Any, ...]]] = {}


def _numpy(count: int) -> tuple[Any, Any, Any, tuple[Any, ...]]:
    # numpy, and per deck size the arrays and constants of _swaps. Imported on first use, so
    # that a program that never deals (arena --help) never loads numpy.
    found = _ARRAYS.get(count)
    if found is None:
        import numpy as np

        u64 = np.uint64
        steps = np.arange(1, count, dtype=u64) * u64(_GAMMA)
        bounds = np.arange(count, 1, -1, dtype=u64)  # i + 1, for i from count - 1 down to 1
        constants = (u64(30), u64(27), u64(31), u64(0xBF58476D1CE4E5B9),
                     u64(0x94D049BB133111EB), u64(0xFFFFFFFF), u64(32))
        found = _ARRAYS[count] = (np, steps, bounds, constants)
    return found
