"""The record format's version, and reading a deal's moves in any version of it.

Schema 2 writes a deal's moves as three arrays of one entry per move (``movers``,
``moves``, ``think_us``); schema 1 wrote one object per move (``{"seat", "move",
"ms"}``). Every reader of moves goes through :func:`deal_moves` or :func:`deal_movers`,
so files of both versions (a tournament resumed across versions holds both) read alike
(:func:`deal_times`, the seats and times alone, checked as :func:`deal_moves` checks them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

__all__ = ["SCHEMA", "RecordedMove", "deal_movers", "deal_moves", "deal_times"]

SCHEMA = 2
"""The version of the record format this arena writes (docs/records.md)."""


class RecordedMove(NamedTuple):
    """One move of a deal record."""

    seat: int
    move: str
    """The move as text (``"3C 3D"``, ``"pass"``)."""
    ms: float | None
    """The seat's think time in milliseconds, None where the record has none."""


def deal_moves(deal: Mapping[str, Any]) -> list[RecordedMove]:
    """Every move of a deal record (either schema), in order.

    Raises ``ValueError`` naming what is wrong when the moves are not well formed
    (arrays of different lengths, a seat that is not a number, a move that is not text).
    """
    if "movers" not in deal:  # schema 1: one object per move
        out = []
        for index, entry in enumerate(deal.get("moves") or ()):
            if not isinstance(entry, Mapping):
                raise ValueError(f"move {index} is not an object: {entry!r:.60}")
            ms = entry.get("ms")
            out.append(_checked(index, entry.get("seat"), entry.get("move"),
                                float(ms) if isinstance(ms, int | float) else None))
        return out
    movers, moves, times = _arrays(deal)
    return list(map(RecordedMove, movers, moves, times))


def deal_times(deal: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float | None]]:
    """The seat and the think time (milliseconds, None where none) of each move of a deal
    record (either schema), in order: what counting moves and times needs, without an
    object a move (schema 2's seats are the record's own list). Raises ``ValueError`` as
    :func:`deal_moves` does."""
    if "movers" not in deal:
        moves = deal_moves(deal)
        return [move.seat for move in moves], [move.ms for move in moves]
    movers, _, times = _arrays(deal)
    return movers, times


def _arrays(deal: Mapping[str, Any]) -> tuple[list[int], list[str], list[float | None]]:
    """A schema 2 deal's seats, moves and think times (milliseconds), checked as
    :func:`deal_moves` says."""
    movers, moves, think = deal["movers"], deal.get("moves"), deal.get("think_us")
    if not isinstance(movers, list) or not isinstance(moves, list) or \
            len(movers) != len(moves):
        raise ValueError(f"'movers' and 'moves' must be lists of one length, got "
                         f"{_size(movers)} and {_size(moves)}")
    if think is None:
        times: list[float | None] = [None] * len(moves)
    elif not isinstance(think, list) or len(think) != len(moves):
        raise ValueError(f"'think_us' must be a list as long as 'moves' ({len(moves)}), "
                         f"got {_size(think)}")
    else:
        times = [us / 1000 if isinstance(us, int | float) and abs(us) < 2**53 else None
                 for us in think]  # None for what is no time (text, 400 digits)
    if not (all(seat.__class__ is int for seat in movers)
            and all(move.__class__ is str for move in moves)):
        for index, (seat, move) in enumerate(zip(movers, moves, strict=True)):
            _checked(index, seat, move, None)  # raises at the first of them
    return movers, moves, times


def deal_movers(deal: Mapping[str, Any]) -> Sequence[int]:
    """The seat of each move of a deal record (either schema), in order: what counting
    moves per seat needs, at the cost of one lookup in schema 2 (the record's own list, not
    a copy). Malformed moves give none; :func:`deal_moves` says what is wrong with them."""
    movers = deal.get("movers")
    if movers is not None:
        return movers if isinstance(movers, list) else []
    try:
        return [m["seat"] for m in deal.get("moves") or ()]
    except (TypeError, KeyError):
        return []


def _checked(index: int, seat: object, move: object, ms: float | None) -> RecordedMove:
    if seat.__class__ is not int or move.__class__ is not str:
        raise ValueError(f"move {index}: seat {seat!r:.20} and move {move!r:.40} must be a "
                         f"number and text")
    return RecordedMove(seat, move, ms)  # type: ignore[arg-type]  # checked just above


def _size(value: object) -> str:
    return f"{len(value)} entries" if isinstance(value, list) else type(value).__name__
