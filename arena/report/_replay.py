"""A match record replayed through the rules engine, as a list of events per deal.

The record holds the dealt hands, the exchanges, the moves and the faults; what a spectator
also wants to see (when a trick ends, a revolution, a seat going out) is what
:class:`arena.game.Match` computes when the record is fed back into it, the way
docs/records.md describes. Replaying also checks the record: a move the rules refuse raises
:class:`ReplayError` naming the match, deal and move.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.game import Deal, IllegalMove, Match, Rules, as_move
from arena.records import RecordedMove, deal_moves

__all__ = [
    "CLEAR",
    "FORFEIT",
    "OUT",
    "REVOLUTION",
    "Event",
    "ReplayError",
    "replay_deals",
]

CLEAR = 1
"""Flag: the trick ends after this event (everyone else passed, or the play clears it)."""
REVOLUTION = 2
"""Flag: this play turned the card order over (or back)."""
OUT = 4
"""Flag: the seat played its last card with this play."""
FORFEIT = 8
"""Flag: the seat left the deal at this fault (``on_fault: forfeit``)."""


_move = functools.lru_cache(maxsize=1 << 16)(as_move)
"""A move's text parsed once (:func:`arena.game.as_move`): records repeat the same few
thousand moves (moves are immutable values, so one object serves every deal)."""


class ReplayError(ValueError):
    """A record the rules do not replay (names the match, deal and move)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One step of a deal: a move (``text`` is the move, ``"pass"`` for a pass) or a fault
    (``fault`` is its kind; the move the fault policy plays, if any, is the next event)."""

    seat: int
    text: str
    ms: float | None
    flags: int
    fault: str | None = None


def replay_deals(record: Mapping[str, Any]) -> list[list[Event]]:
    """The events of every deal of ``record``, in order, as the rules engine replays them."""
    match_id = record.get("match_id", "?")
    if record.get("type", "match") != "match":  # e.g. a match the referee failed to play
        raise ReplayError(f"match {match_id}: not played ({record.get('type')}: "
                          f"{record.get('error', 'no detail')})")
    try:
        match = Match(Rules.from_dict(record["rules"]), len(record["seats"]), record["seed"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"match {match_id}: cannot set up the match ({exc})") from None
    out: list[list[Event]] = []
    for deal in record["deals"]:
        number = deal.get("deal", len(out))
        try:
            out.append(_replay_deal(match, deal))
        except (IllegalMove, ValueError, KeyError, IndexError, TypeError) as exc:
            raise ReplayError(f"match {match_id}, deal {number}: {exc}") from None
    return out


def _replay_deal(match: Match, deal: Mapping[str, Any]) -> list[Event]:
    number = match.deal_number
    returns = [e for e in deal["exchanges"] if e["kind"] == "return"]
    moves = deal_moves(deal)
    exchange_faults = [f for f in deal["faults"] if f.get("stage") == "exchange"]
    play_faults = [f for f in deal["faults"] if f.get("stage", "play") == "play"]
    events: list[Event] = []
    taken = 0  # moves of the record consumed
    while not match.finished and match.deal_number == number:
        decision = match.pending
        assert decision is not None
        if decision.kind == "exchange":
            if exchange_faults and exchange_faults[0]["seat"] == decision.seat:
                fault = exchange_faults.pop(0)
                match.fault(fault["kind"], fault.get("detail", ""))
                flags = FORFEIT if match.rules.on_fault == "forfeit" else 0
                events.append(Event(decision.seat, "", None, flags, fault["kind"]))
            else:
                match.give(returns[0]["cards"])
            returns.pop(0)
            continue
        current = match.deal
        before = len(current.moves)
        if play_faults and play_faults[0]["move"] == before and \
                play_faults[0]["seat"] == decision.seat:
            fault = play_faults.pop(0)
            revolution = current.revolution
            pile = current.pile
            match.fault(fault["kind"], fault.get("detail", ""))
            if len(current.moves) > before:  # the fault policy played for the seat
                events.append(Event(decision.seat, "", None, 0, fault["kind"]))
                events.append(_after(current, decision.seat, moves[taken], before,
                                     revolution))
                taken += 1
            else:
                # the seat left; the trick ends if the others had all passed to it
                flags = FORFEIT | (CLEAR if pile is not None and current.pile is None else 0)
                events.append(Event(decision.seat, "", None, flags, fault["kind"]))
            continue
        entry = moves[taken]
        if entry.seat != decision.seat:
            raise ValueError(f"move {taken} is by seat {entry.seat}, "
                             f"but seat {decision.seat} is to move")
        revolution = current.revolution
        match.play(_move(entry.move))
        events.append(_after(current, decision.seat, entry, before, revolution))
        taken += 1
    if taken != len(moves):
        raise ValueError(f"{len(moves) - taken} recorded moves after the deal ended")
    return events


def _after(deal: Deal, seat: int, entry: RecordedMove, before: int,
           revolution_before: bool) -> Event:
    """The event of the move just played (``deal.moves[before]``), with its flags."""
    _, move = deal.moves[before]
    flags = 0
    if deal.pile is None:
        flags |= CLEAR
    if deal.revolution != revolution_before:
        flags |= REVOLUTION
    if move.kind != "pass" and deal.card_count(seat) == 0:
        flags |= OUT
    return Event(seat, str(move), entry.ms, flags)


def moves_as_recorded(deal: Mapping[str, Any]) -> list[RecordedMove]:
    """A deal's moves as its record lists them, for showing a deal that cannot be replayed:
    none when the moves themselves are malformed (the replay's error says how)."""
    try:
        return deal_moves(deal)
    except ValueError:
        return []
