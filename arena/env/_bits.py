"""The flags of an observation: bits laid at offsets, spread one flag a byte.

:mod:`arena.env._encoding` gives an observation as pieces: each a non-negative int whose bit
``j`` is the flag at ``offset + j``. :func:`compose` lays them out (ORed where they meet) as
``n`` bytes of 0 or 1, the last step of every observation. This module is the reference;
where the install compiles the engine, setup.py also builds ``_bits.c``, its twin in C,
which Python imports in its place (and which the pure engine never loads: ``ARENA_PURE=1``
and an edit of either file load this one). ``tests/env/test_bits.py`` holds the two to the
same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["compose"]


def compose(n: int, offsets: Sequence[object],
            pieces: Sequence[object] | int) -> npt.NDArray[np.int8]:
    """``n`` flags (0 or 1) in a new ``int8`` array: flag ``i`` is set where bit
    ``i - offsets[k]`` of ``pieces[k]`` is, for some ``k``. ``pieces`` may be one int, laid at
    every offset (``1``: the flags at the offsets are set).

    ``ValueError`` naming the problem for a negative ``n``, offset or piece, offsets and
    pieces of different lengths, or a piece with a bit at or past flag ``n``; ``TypeError``
    for an offset or piece that is not an int.
    """
    if n < 0:
        raise ValueError(f"a count of flags is not negative, not {n}")
    if isinstance(pieces, int):
        pieces = [pieces] * len(offsets)
    elif len(offsets) != len(pieces):
        raise ValueError(f"{len(offsets)} offsets for {len(pieces)} pieces")
    bits = 0
    for offset, piece in zip(offsets, pieces, strict=True):
        if not isinstance(offset, int) or not isinstance(piece, int):
            raise TypeError("compose(): offsets and pieces are ints")
        if offset < 0 or piece < 0:
            raise ValueError(f"a piece and its offset are not negative, not {piece} at {offset}")
        if piece and offset + piece.bit_length() > n:
            raise ValueError(f"a piece at {offset} has a bit past flag {n}")
        bits |= piece << offset
    # Positional arguments: numpy parses keywords at every call.
    return _unpackbits(_frombuffer(bits.to_bytes((n + 7) // 8, "little"), _UINT8), None, n,
                       "little").view(_INT8)


_frombuffer: Final = np.frombuffer
# The function behind numpy's dispatch of __array_function__, which would cost a third of
# the call: the argument is always a plain array.
_unpackbits: Final = getattr(np.unpackbits, "_implementation", np.unpackbits)
_UINT8: Final = np.dtype(np.uint8)
_INT8: Final = np.dtype(np.int8)
