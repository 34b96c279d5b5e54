"""The card tables of UECda protocol 20070, and what the reference server makes of them.

No I/O here: the host (``_host``), ``arena uecda-client`` and the tests use the same
conversions between 8x15 tables of big-endian int32 and arena's cards, moves and views.
docs/uecda.md describes the wire; the judgement of a submitted table follows the reference
server (tndhms, ``analyze_card``, ``count_card_num``, ``check_include_card``).

Rows 0-3 are spades, hearts, diamonds, clubs; columns 1-13 the ranks 3 .. 2; a joker is a 2
in a cell (in a hand, at ``[4][1]``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from arena.game import (
    JOKER,
    RANKS,
    SUITS,
    Card,
    Move,
    Rules,
    move_suits,
    next_lock,
)

__all__ = [
    "PROTOCOL",
    "TABLE_BYTES",
    "CardTable",
    "TableError",
    "answer",
    "card_cell",
    "cards_table",
    "cell_card",
    "class_row",
    "dealt_table",
    "empty_table",
    "field_state",
    "hand_table",
    "move_table",
    "pack_int",
    "pack_table",
    "previous_order",
    "table_cards",
    "table_move",
    "unpack_int",
    "unpack_table",
]

PROTOCOL: Final = 20070
ROWS: Final = 8
COLS: Final = 15
TABLE_BYTES: Final = ROWS * COLS * 4
_FORMAT: Final = struct.Struct(f">{ROWS * COLS}i")
_INT: Final = struct.Struct(">i")

CardTable = list[list[int]]
"""A UECda card table: 8 rows of 15 int32 (rows 0-3 the suits, columns 1-13 the ranks)."""

CLASS_OF_ROLE: Final = {"president": 0, "vice-president": 1, None: 2, "vice-scum": 3, "scum": 4}
"""A role's UECda class (0 daifugo .. 4 daihinmin) at a table of five."""


class TableError(ValueError):
    """A table the reference server would reject; ``str(error)`` says why."""


def empty_table() -> CardTable:
    """An 8x15 table of zeros."""
    return [[0] * COLS for _ in range(ROWS)]


def pack_table(table: CardTable) -> bytes:
    """A table as its 480 bytes on the wire."""
    return _FORMAT.pack(*(value for row in table for value in row))


def unpack_table(data: bytes) -> CardTable:
    """480 bytes as a table."""
    values = _FORMAT.unpack(data)
    return [list(values[r * COLS:(r + 1) * COLS]) for r in range(ROWS)]


def pack_int(value: int) -> bytes:
    """One int32 on the wire."""
    return _INT.pack(value)


def unpack_int(data: bytes) -> int:
    """Four bytes as an int32."""
    value: int = _INT.unpack(data)[0]
    return value


def card_cell(card: Card) -> tuple[int, int]:
    """A natural card's ``(row, column)``: row 0 spades .. 3 clubs, column 1 (3) .. 13 (2)."""
    assert card.rank is not None and card.suit is not None
    return 3 - card.suit, card.rank + 1


def cell_card(row: int, col: int) -> Card:
    """The natural card of a cell (rows 0-3, columns 1-13)."""
    return Card.parse(RANKS[col - 1] + SUITS[3 - row])


def cards_table(cards: Iterable[Card]) -> CardTable:
    """A table of ``cards``: a 1 in each natural card's cell, a joker as 2 at ``[4][1]``."""
    table = empty_table()
    for card in cards:
        if card.is_joker:
            table[4][1] = 2
        else:
            row, col = card_cell(card)
            table[row][col] = 1
    return table


def dealt_table(hand: Iterable[Card], *, exchange: int, counts: Sequence[int],
                classes: Sequence[int]) -> CardTable:
    """The table tndhms deals a seat (``daihu.c``, the deal before ``trans_strong_card``).

    Row 5: ``[0]`` 1 (the exchange phase), ``[1]`` the cards the seat gives back
    (``exchange``), ``[3]`` 6, the rest 0. Row 6: the dealt ``counts`` (filled before the
    exchange gifts move any card), the ``classes``, the seat order.
    """
    table = cards_table(hand)
    table[5][0] = 1
    table[5][1] = exchange
    table[5][3] = 6
    fill_players(table, counts, classes)
    return table


def hand_table(hand: Iterable[Card], *, seat: int, mover: int, empty: bool, revolution: bool,
               locked: bool, counts: Sequence[int], classes: Sequence[int]) -> CardTable:
    """The table tndhms sends every seat at the start of a turn: its hand and the state rows.

    Row 5: ``[2]`` 1 for the seat to move, ``[3]`` that seat, ``[4]`` the table is empty,
    ``[6]`` the revolution, ``[7]`` the suit lock. Row 6: see :func:`fill_players`.
    """
    table = cards_table(hand)
    state = table[5]
    state[2] = 1 if mover == seat else 0
    state[3] = mover
    state[4] = 1 if empty else 0
    state[6] = 1 if revolution else 0
    state[7] = 1 if locked else 0
    fill_players(table, counts, classes)
    return table


def fill_players(table: CardTable, counts: Sequence[int], classes: Sequence[int]) -> None:
    """Row 6: cards left per player, each player's class, the seat order (0 .. 4)."""
    for seat in range(min(len(counts), 5)):
        table[6][seat] = counts[seat]
        table[6][5 + seat] = classes[seat]
        table[6][10 + seat] = seat


def class_row(players: int, number: int, order: Sequence[int], out: Sequence[int]) -> list[int]:
    """Row 6's classes (0 daifugo .. 4 daihinmin) as tndhms fills them during a deal.

    ``order`` is the previous deal's finishing order (seats), ``out`` the seats that went
    out in this deal so far. tndhms keeps one array (``mibun``) for both: the seat that goes
    out ``k``-th overwrites entry ``k``, and row 6 is refilled from the array in order, so a
    seat listed twice shows its later entry and a seat no longer listed keeps what was in
    that cell before (0 here; tndhms leaves there the value from the last table a client
    submitted, which clients send as 0). All 0 in the first deal of a block.
    """
    classes = [0] * players
    if number == 0 or not order:
        return classes
    mibun = [*out, *order[len(out):]]
    for place, seat in enumerate(mibun):
        classes[seat] = place
    return classes


def previous_order(roles: Sequence[str | None]) -> list[int]:
    """The seats from daifugo to daihinmin, from a deal's roles at a table of five."""
    return sorted(range(len(roles)), key=lambda seat: CLASS_OF_ROLE.get(roles[seat], 2))


def move_table(move: Move, *, previous_suits: int = 0, revolution: bool = False) -> CardTable:
    """The cards of ``move`` as a played table (all zeros for a pass).

    A joker in a set goes to the suit it declares (``2C 2D JK=2H``), an undeclared one to the
    suit :func:`arena.game.move_suits` gives it (so the lock the clients see is arena's); a
    fifth card of a set goes to row 4; a lone joker goes to ``[0][14]`` (``[0][0]`` during a
    revolution), where the development kit's client puts it.
    """
    table = empty_table()
    if move.kind == "pass":
        return table
    for card in move.cards:
        if not card.is_joker:
            row, col = card_cell(card)
            table[row][col] = 1
    if move.kind == "run":
        for card in move.joker_cards:
            row, col = card_cell(card)
            table[row][col] = 2
        return table
    if move.rank is None:
        if move.jokers == 1:
            table[0][0 if revolution else 14] = 2
        else:  # two jokers alone: never in a UECda game (one joker); spades and hearts
            table[0][14] = table[1][14] = 2
        return table
    col = move.rank + 1
    natural = (move.mask >> (move.rank * 4)) & 15
    suits = move_suits(move, previous_suits)
    extra = [3 - s for s in range(4) if suits >> s & 1 and not natural >> s & 1]
    for row in extra[:move.jokers]:
        table[row][col] = 2
    if move.jokers > len(extra):
        table[4][col] = 2
    return table


def table_cards(table: CardTable) -> list[Card]:
    """The cards of an exchange table: 1s in rows 0-3, columns 1-13, and a joker for a 2.

    Raises :class:`TableError` for anything else in rows 0-4.
    """
    cards: list[Card] = []
    for row, col, value in _filled(table):
        if value == 2 and JOKER not in cards:
            cards.append(JOKER)
        elif value == 1 and row < 4 and 1 <= col <= 13:
            cards.append(cell_card(row, col))
        else:
            raise TableError(f"cell [{row}][{col}] holds {value}, which is no card")
    return cards


_Cell = tuple[int, int, int]
"""A filled cell of a submitted table: row, column and value (1 a card, 2 the joker)."""


def _filled(table: CardTable) -> Iterator[_Cell]:
    """The cells of rows 0-4 (the card rows) that hold anything but 0, row by row."""
    for row in range(5):
        for col in range(COLS):
            if value := table[row][col]:
                yield row, col, value


def table_move(table: CardTable, hand: Iterable[Card]) -> tuple[Move, int]:
    """The move a submitted table means, as the reference server reads it, and its suits.

    Returns the arena move (``Move.PASS`` for an empty table) and the suit mask the table
    gives it (a set's joker stands where the client put it). Raises :class:`TableError` for
    what tndhms rejects before judging the play: a value other than 0, 1 or 2; a 1 in
    column 0 or 14 or in row 4; more than one joker; cards that are neither one column (a
    set, row 4 only for a fifth card) nor consecutive cells of one row of 3 or more (a run);
    a card the player does not hold. A run whose joker stands below the 3 or above the 2
    (columns 0 and 14) has no arena equivalent: the joker moves to the other end of the run,
    which is the same run as a lead (docs/uecda.md, "Differences").
    """
    cells = _table_cells(table)
    if not cells:
        return Move.PASS, 0
    _check_held(cells, hand)
    rows = {r for r, _, _ in cells}
    cols = sorted(c for _, c, _ in cells)
    if len(cells) == 1 and cells[0][2] == 2:
        if 4 in rows:
            raise TableError("a lone joker in row 4, which holds no suit")
        return Move.parse("JK"), 0
    if len(set(cols)) == 1:
        return _set_move(cells, rows, cols[0])
    if len(rows) == 1 and cols == list(range(cols[0], cols[0] + len(cols))):
        return _run_move(cells, rows.pop(), cols)
    raise TableError("the cards are neither a set (one column) nor a run (one row in a row)")


def _table_cells(table: CardTable) -> list[_Cell]:
    """The filled cells of rows 0-4, after tndhms's checks of their values and places: 0, 1
    or 2 only, no card in column 0 or 14 or in row 4, one joker at most."""
    cells: list[_Cell] = []
    jokers = 0
    for row, col, value in _filled(table):
        if value == 1:
            if col in (0, COLS - 1) or row == 4:
                raise TableError(f"a card at [{row}][{col}], outside the card cells")
        elif value == 2:
            jokers += 1
        else:
            raise TableError(f"cell [{row}][{col}] holds {value}; cells hold 0, 1 or 2")
        cells.append((row, col, value))
    if jokers > 1:
        raise TableError(f"{jokers} jokers in one play; there is one joker")
    return cells


def _check_held(cells: list[_Cell], hand: Iterable[Card]) -> None:
    """Every card of the table is in the hand (the joker too)."""
    held = set(hand)
    for row, col, value in cells:
        if value == 1 and cell_card(row, col) not in held:
            raise TableError(f"{cell_card(row, col)} is not in the hand")
        if value == 2 and JOKER not in held:
            raise TableError("a joker played by a hand without the joker")


def _set_move(cells: list[_Cell], rows: set[int], col: int) -> tuple[Move, int]:
    """A set: one column of ranks, row 4 only for a fifth card; its suits are its rows."""
    if 4 in rows and rows != {0, 1, 2, 3, 4}:
        raise TableError("row 4 holds only the fifth card of a set")
    if not 1 <= col <= 13:
        raise TableError(f"a set in column {col}, outside the ranks")
    parts = [str(cell_card(r, c)) if v == 1 else "JK=" + str(cell_card(r, c))
             if r < 4 else "JK" for r, c, v in cells]
    suits = 0
    for r in rows:
        if r < 4:
            suits |= 1 << (3 - r)
    return Move.parse(" ".join(parts)), suits


def _run_move(cells: list[_Cell], row: int, cols: list[int]) -> tuple[Move, int]:
    """A run: 3 or more consecutive cells of one suit row; a joker below the 3 or above the
    2 moves to the run's other end."""
    if row == 4:
        raise TableError("a run in row 4, which holds no suit")
    if len(cells) < 3:
        raise TableError("a run of fewer than 3 cards")
    shift = {0: cols[-1] + 1, COLS - 1: cols[0] - 1}
    parts = []
    for r, c, v in cells:
        if v == 2:
            c = shift.get(c, c)
        parts.append(str(cell_card(r, c)) if v == 1 else "JK=" + str(cell_card(r, c)))
    return Move.parse(" ".join(parts)), 1 << (3 - row)


def field_state(table: CardTable, *, mover: int, empty: bool, revolution: bool, locked: bool,
                counts: Sequence[int], classes: Sequence[int]) -> CardTable:
    """A copy of a played table (rows 0-4 and 7 as played) with the state rows tndhms sends
    after a turn: ``[5][3]`` the seat that moved, ``[5][4]`` the table is still empty (a
    pass on an empty table), the revolution and the lock after the turn, row 6 after it."""
    out = [list(row) for row in table]
    out[5] = [0] * COLS
    out[6] = [0] * COLS
    out[5][3] = mover
    out[5][4] = 1 if empty else 0
    out[5][6] = 1 if revolution else 0
    out[5][7] = 1 if locked else 0
    fill_players(out, counts, classes)
    return out


def lock_after(rules: Rules, lock: int, suits: int, move: Move) -> tuple[int, int]:
    """The lock and top suits after ``move`` (unchanged by a pass)."""
    if move.kind == "pass" or not rules.suit_lock:
        return lock, suits
    return next_lock(lock, suits, move)


def answer(move: Move, pile: Move | None, accepted: bool) -> int:
    """What tndhms answers the mover: 9 for an accepted play, 8 for a rejected one, and for a
    pass 9 on an empty table, 8 on a table with cards (``compare_card_status`` finds a pass's
    0 cards unlike the pile's and sets the error, which the pass then takes)."""
    if move.kind == "pass" and accepted:
        return 9 if pile is None else 8
    return 9 if accepted else 8
