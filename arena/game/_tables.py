"""Precomputed move tables: the hot path of move generation is list concatenation.

Sets depend only on a rank, the suits held in it and the jokers held, so every set of
every such situation is built once at import. Runs depend on a suit's 13-bit rank mask
and the jokers held; they are built on first use and cached.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Final

from ._moves import MAX_JOKERS, Move, make_run, make_set

_J: Final = MAX_JOKERS + 1          # joker counts 0 .. 2
_SIZES: Final = 4 + MAX_JOKERS + 1  # set sizes 0 .. 6


def _sets_for(rank: int, suits: int, jokers: int) -> list[Move]:
    out = []
    sub = suits
    subsets = []
    while sub:
        subsets.append(sub)
        sub = (sub - 1) & suits
    subsets.sort(key=lambda s: (bin(s).count("1"), s))
    for used_jokers in range(jokers + 1):
        for subset in subsets:
            out.append(make_set(rank, subset, used_jokers))
    out.sort(key=lambda m: (m.size, m.key))
    return out


# SETS[(rank * 16 + suits) * 3 + jokers]: every set of that rank the holder can make.
SETS: Final[list[list[Move]]] = [
    _sets_for(rank, suits, jokers)
    for rank in range(13) for suits in range(16) for jokers in range(_J)
]
# SETS_OF_SIZE[index * 7 + size]: the same, of one size only.
SETS_OF_SIZE: Final[list[list[Move]]] = [
    [m for m in moves if m.size == size] for moves in SETS for size in range(_SIZES)
]
JOKER_SETS: Final[list[list[Move]]] = [
    [make_set(None, 0, k) for k in range(1, jokers + 1)] for jokers in range(_J)
]
JOKER_SET_OF_SIZE: Final[list[Move | None]] = [
    make_set(None, 0, size) if 1 <= size <= MAX_JOKERS else None for size in range(_SIZES)
]


def _runs_for(suit: int, ranks: int, jokers: int) -> list[Move]:
    out = []
    for low in range(11):
        for high in range(low + 2, 13):
            span = ((1 << (high - low + 1)) - 1) << low
            missing = span & ~ranks
            holes = bin(missing).count("1")
            if holes > jokers:
                break
            # Jokers fill the holes and may also stand for cards the player holds.
            held = span & ranks
            choices = [0]
            for _ in range(jokers - holes):
                choices = choices + [c | (1 << r) for c in choices
                                     for r in range(low, high + 1) if held >> r & 1]
            seen = set()
            for extra in choices:
                joker_ranks = missing | extra
                if joker_ranks in seen:
                    continue
                seen.add(joker_ranks)
                naturals = (high - low + 1) - bin(joker_ranks).count("1")
                if naturals >= 2:
                    out.append(make_run(suit, low, high, joker_ranks))
    return out


_RUNS: dict[int, list[Move]] = {}
_RUNS_OF_LENGTH: dict[int, tuple[list[int], list[Move]]] = {}


def runs(suit: int, ranks: int, jokers: int) -> list[Move]:
    """Every run of ``suit`` makeable from the 13-bit rank mask ``ranks`` and ``jokers``."""
    key = (ranks << 4) | (suit << 2) | jokers
    found = _RUNS.get(key)
    if found is None:
        found = _RUNS[key] = _runs_for(suit, ranks, jokers)
    return found


def runs_of_length(suit: int, ranks: int, jokers: int, length: int) -> tuple[list[int], list[Move]]:
    """The runs of one length, sorted by lowest rank, with the list of those lowest ranks."""
    key = (((ranks << 4) | (suit << 2) | jokers) << 4) | length
    found = _RUNS_OF_LENGTH.get(key)
    if found is None:
        moves = sorted((m for m in runs(suit, ranks, jokers) if m.size == length),
                       key=lambda m: (m.low, m.key))
        found = _RUNS_OF_LENGTH[key] = ([m.low for m in moves], moves)  # type: ignore[misc]
    return found


def runs_beating(suit: int, ranks: int, jokers: int, length: int, low: int, reverse: bool,
                 equal: bool) -> list[Move]:
    """Runs of ``length`` whose lowest rank beats ``low`` (higher, or lower in reverse)."""
    lows, moves = runs_of_length(suit, ranks, jokers, length)
    if not moves:
        return moves
    if reverse:
        return moves[:bisect_right(lows, low) if equal else bisect_left(lows, low)]
    return moves[bisect_left(lows, low) if equal else bisect_right(lows, low):]
