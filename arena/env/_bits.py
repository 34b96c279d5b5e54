"""The flags of an observation: bit ``i`` of an integer as byte ``i``.

:mod:`arena.env._encoding` builds an observation as the bits of one integer and spreads them
into bytes here, the last step of every observation. This module is the reference; where
the install compiles the engine, setup.py also builds ``_bits.c``, its twin in C, which
Python imports in its place (and which the pure engine never loads: ``ARENA_PURE=1`` and an
edit of this file load this one). ``tests/env/test_bits.py`` holds the two to the same
answers.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["flags"]


def flags(bits: int, n: int) -> npt.NDArray[np.uint8]:
    """The ``n`` low bits of ``bits`` (an int ``>= 0``), least significant first, one byte
    each (0 or 1), in a new writable buffer. ``OverflowError`` for a negative ``bits`` or one
    that needs more than ``ceil(n / 8)`` bytes; ``ValueError`` for a negative ``n``.

    The C twin returns a ``bytearray``: its callers read either as a buffer
    (``numpy.frombuffer``), and compiled code checks no type of a numpy array."""
    if n < 0:
        raise ValueError(f"a count of flags is not negative, not {n}")
    # Positional arguments: numpy parses keywords at every call.
    return _unpackbits(_frombuffer(bits.to_bytes((n + 7) // 8, "little"), _UINT8), None, n,
                       "little")


_frombuffer: Final = np.frombuffer
# The function behind numpy's dispatch of __array_function__, which would cost a third of
# this call: the argument is always a plain array.
_unpackbits: Final = getattr(np.unpackbits, "_implementation", np.unpackbits)
_UINT8: Final = np.dtype(np.uint8)
