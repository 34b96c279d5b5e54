"""The ``uecda`` host: a UECda client program at an arena table, over loopback TCP.

arena plays the server side of UECda protocol 20070 for one seat (docs/uecda.md): it
listens on a free port of 127.0.0.1, starts the client's command with ``{host}`` and
``{port}`` filled in, takes its profile and answers its player number (the seat). Then it
sends the client what the reference server would, when the reference server would: the
table dealt (and the exchange request), every turn's hand table, the answer to its own
plays (9 accepted, 8 rejected), the table of the cards played and the end flag (0 go on, 1
the deal is over, 2 the match is over). The referee judges the moves, as for every host;
a table the reference server would reject before judging it is an ``illegal`` fault, and
so, under ``on_fault: pass``, a pass, as the reference server counts it.

Other seats' turns reach this host through :meth:`Host.observe`, which the referee calls
before every decision of another seat; what happened in a turn is read from the next view
(or the deal's result), so the answers of a turn go out when the next decision is asked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import trio

from arena.game import Card, Move, View, trick_lock

from .._faults import BotFault
from .._limits import Limits
from .._loading import BotRef, command_words
from ..hosts._host import StartInfo
from ..hosts._scoped import ScopedHost
from ._link import UecdaLink
from ._tables import (
    PROTOCOL,
    TABLE_BYTES,
    CardTable,
    TableError,
    answer,
    class_row,
    dealt_table,
    empty_table,
    field_state,
    hand_table,
    lock_after,
    move_table,
    pack_int,
    pack_table,
    previous_order,
    table_cards,
    table_move,
    unpack_table,
)

__all__ = ["UecdaHost"]

PLAYERS = 5
"""The table size of UECda protocol 20070: its state rows have room for five players."""

_Played = dict[tuple[int, int], tuple[Move, CardTable]]
_TABLES: dict[tuple[str, int], tuple[set[int], _Played]] = {}
"""The tables the UECda clients of a match played, by (match id, seed): the hosts holding
it, and per (deal, move index) the move and its cells (rows 0-4), so that every client is
shown the cells the player chose (a lone joker's cell, a run's joker below the 3), as
tndhms shows every client the table played. Row 7 stays the player's: it carries nothing
of the game and would let clients pass messages."""


@dataclass
class _Turn:
    """A turn whose closing messages (answer, played table, end flag) are still to be sent."""

    mover: int
    index: int  # the number of moves of the deal before it
    pile: Move | None
    lock: int
    suits: int
    revolution: bool
    counts: tuple[int, ...]
    submitted: Move | None = None  # this seat's own answer, when it was the mover
    table: CardTable | None = None  # the table it sent


class UecdaHost(ScopedHost):
    """Runs a UECda 20070 client program for one seat, arena being its server."""

    kind = "uecda"
    observes = True

    def __init__(self, command: str, *, limits: Limits | None = None) -> None:
        if not isinstance(command, str) or not command.strip():
            raise ValueError("a uecda bot needs a 'command' line")
        words = command_words(command)
        self._command = command
        self._limits = limits or Limits()
        self._meta = BotRef(command, os.path.basename(words[0]), "uecda", "")
        self._link = UecdaLink(self._limits)
        self._info: StartInfo | None = None
        self._deal = -1
        self._turn: _Turn | None = None
        self._stage: CardTable = empty_table()
        self._order: list[int] = []  # the previous deal's finishing order (seats)
        self._gone: list[int] = []  # the seats that went out in this deal, in order
        self._finished = False
        self._key: tuple[str, int] = ("", 0)

    @property
    def meta(self) -> BotRef:
        return self._meta

    def pids(self) -> list[int]:
        return list(self._link.pids)

    # -- start and stop ---------------------------------------------------------------------

    async def _start(self, info: StartInfo) -> None:
        if info.players != PLAYERS:
            raise BotFault("crash", f"start failed: a UECda client plays at a table of "
                           f"{PLAYERS}, not {info.players}")
        await self.aclose()
        self._info = info
        self._key = (info.match_id, info.seed)
        _TABLES.setdefault(self._key, (set(), {}))[0].add(id(self))
        self._deal, self._turn, self._finished = -1, None, False
        self._link.broken = None
        self._stage = empty_table()
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        listener = listeners[0]
        try:
            port = listener.socket.getsockname()[1]
            argv = [w.replace("{host}", "127.0.0.1").replace("{port}", str(port))
                    for w in command_words(self._command)]
            self._link.spawn(argv)
            await self._link.accept(listener)
            profile = unpack_table(await self._link.read(TABLE_BYTES))
        finally:
            await listener.aclose()
        if profile[0][0] != PROTOCOL:
            raise BotFault("malformed", f"start failed: the profile gives protocol "
                           f"{profile[0][0]}, not {PROTOCOL}")
        name = "".join(chr(v) for v in profile[1][:9] if 32 < v < 127)
        if name:
            self._meta = BotRef(self._command, name, "uecda", "")
        self._link.queue(pack_int(info.seat))
        await self._link.flush()

    async def aclose(self) -> None:
        shared = _TABLES.get(self._key)
        if shared is not None:
            shared[0].discard(id(self))
            if not shared[0]:
                del _TABLES[self._key]
        await self._link.aclose(self._finished)

    def timeout_fault(self, call: str, allowed: float) -> BotFault:
        cut = self._link.take_cut()
        if cut is not None:
            return BotFault("crash", cut)
        if call == "start":
            return BotFault("timeout", f"start failed: no connection and profile within "
                            f"{allowed * 1000:.0f} ms{self._link.tail_note()}")
        return super().timeout_fault(call, allowed)  # no table: the one wording

    # -- the game ---------------------------------------------------------------------------

    async def _sync(self, view: View, pending: int | None = None) -> None:
        """Close the turn still open, and send the dealt table when a new deal begins.

        ``pending`` is the seat whose exchange return is asked now (``None`` once the
        exchange is over): the returns from its pair on have not moved any card yet.
        """
        if view.number != self._deal:
            self._deal = view.number
            self._turn = None
            self._stage = empty_table()
            self._gone = []
            self._order = previous_order(view.roles) if view.number > 0 else []
            count = 0
            if view.number > 0 and view.roles[view.seat] in ("president", "vice-president"):
                pairs = view.rules.exchange_pairs(view.players)
                place = 0 if view.roles[view.seat] == "president" else 1
                count = next((c for high, _, c in pairs if high == place), 0)
            table = dealt_table(self._dealt_hand(view), exchange=count,
                                counts=self._dealt_counts(view, pending),
                                classes=self._classes())
            self._link.queue(pack_table(table))
            return
        if self._turn is not None:
            moves = view.plays
            await self._close_turn(moves[self._turn.index] if len(moves) > self._turn.index
                                   else None, view.pile is None, last=False)

    @staticmethod
    def _dealt_hand(view: View) -> list[Card]:
        """The hand tndhms deals: the Scum's and Vice-Scum's before their gift (and before the
        cards given back to them), the President's and Vice-President's with the gift they
        received and before they give back (``daihu.c``: ``tmp_card`` is copied before
        ``trans_strong_card``, the others are sent after it)."""
        hand = list(view.hand)
        role = view.roles[view.seat]
        if role in ("vice-scum", "scum"):
            for card in view.received:
                hand.remove(card)
        if role in ("president", "vice-president", "vice-scum", "scum"):
            hand += view.gave
        return hand

    @staticmethod
    def _dealt_counts(view: View, pending: int | None) -> list[int]:
        """The cards dealt per seat: tndhms fills row 6 before the exchange moves a card."""
        counts = list(view.counts)
        if view.number == 0:
            return counts
        order = previous_order(view.roles)
        waiting = False
        for high, low, count in view.rules.exchange_pairs(view.players):
            receiver, giver = order[high], order[low]
            counts[receiver] -= count  # the gift, received by every pair by now
            counts[giver] += count
            waiting = waiting or receiver == pending
            if not waiting:  # the return, made already
                counts[receiver] += count
                counts[giver] -= count
        return counts

    def _classes(self) -> list[int]:
        return class_row(PLAYERS, self._deal, self._order, self._gone)

    async def _close_turn(self, made: tuple[int, Move] | None, trick_over: bool,
                          last: bool, final: bool = False) -> None:
        turn, self._turn = self._turn, None
        assert turn is not None and self._info is not None
        move = made[1] if made is not None and made[0] == turn.mover else Move.PASS
        accepted = turn.submitted is not None and move == turn.submitted
        if turn.mover == self._info.seat:
            self._link.queue(pack_int(answer(move, turn.pile, accepted)))
        lock, _ = lock_after(self._info.rules, turn.lock, turn.suits, move)
        counts = list(turn.counts)
        if move.kind != "pass":
            counts[turn.mover] -= move.size
            if counts[turn.mover] == 0 and turn.mover not in self._gone:
                self._gone.append(turn.mover)
            self._stage = turn.table if accepted and turn.table is not None else (
                self._played(turn, move) or move_table(
                    move, previous_suits=turn.suits, revolution=turn.revolution))
        revolution = turn.revolution != self._info.rules.starts_revolution(move)
        table = field_state(self._stage, mover=turn.mover,
                            empty=move.kind == "pass" and turn.pile is None,
                            revolution=revolution, locked=bool(lock), counts=counts,
                            classes=self._classes())
        self._link.queue(pack_table(table))
        self._link.queue(pack_int((2 if final else 1) if last else 0))
        self._finished = final
        if trick_over:
            self._stage = empty_table()

    def _played(self, turn: _Turn, move: Move) -> CardTable | None:
        """The cells another UECda client of the match played ``move`` in, if it did."""
        shared = _TABLES.get(self._key)
        entry = None if shared is None else shared[1].get((self._deal, turn.index))
        if entry is None or entry[0] != move:
            return None
        return [list(row) for row in entry[1][:5]] + [[0] * 15 for _ in range(3)]

    def _open_turn(self, view: View, mover: int) -> _Turn:
        lock, suits = trick_lock(view.rules, view.trick)
        return _Turn(mover, len(view.plays), view.pile, lock, suits, view.revolution,
                     tuple(view.counts))

    def _hand_table(self, view: View, turn: _Turn) -> bytes:
        return pack_table(hand_table(
            view.hand, seat=view.seat, mover=turn.mover, empty=view.pile is None,
            revolution=view.revolution, locked=bool(turn.lock), counts=view.counts,
            classes=self._classes()))

    async def _observe(self, view: View, kind: str, seat: int) -> None:
        await self._sync(view, seat if kind == "exchange" else None)
        if kind != "play":
            await self._link.flush()
            return
        self._turn = self._open_turn(view, seat)
        self._link.queue(self._hand_table(view, self._turn))
        await self._link.flush()

    async def _play(self, view: View, time_ms: int) -> object:
        await self._sync(view)
        turn = self._turn = self._open_turn(view, view.seat)
        self._link.queue(self._hand_table(view, turn))
        table = await self._link.read_table()
        try:
            move, _ = table_move(table, view.hand)
        except TableError as exc:
            raise BotFault("illegal", f"table rejected as the reference server would: {exc}"
                           ) from None
        # tndhms shows the submitted table as it came, its state rows 5 and 6 replaced
        turn.submitted, turn.table = move, [list(row) for row in table]
        shared = _TABLES.get(self._key)
        if shared is not None:
            played = shared[1]
            played[(view.number, turn.index)] = (move, turn.table)
            for old in [k for k in played if k[0] < view.number - 1]:
                del played[old]
        return move

    async def _exchange(self, view: View, count: int, time_ms: int) -> object:
        await self._sync(view, view.seat)
        table = await self._link.read_table()
        try:
            cards = table_cards(table)
        except TableError as exc:
            raise BotFault("illegal", f"exchange table: {exc}") from None
        return [str(card) for card in cards]

    async def _end_deal(self, result: dict[str, Any]) -> None:
        info = self._info
        if info is None or self._link.broken is not None or self._deal != result["deal"]:
            return
        if self._turn is None:
            return
        moves = result["moves"]
        made = None
        if len(moves) > self._turn.index:
            entry = moves[self._turn.index]
            made = (entry["seat"], Move.parse(entry["move"]))
        final = result["deal"] >= info.rules.rounds - 1
        await self._close_turn(made, True, last=True, final=final)
        await self._link.flush()
