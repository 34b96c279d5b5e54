"""The card tables of UECda protocol 20070, as arena's cards, moves and views.

The one codec between UECda's 8x15 tables of big-endian int32 and arena's game: the
``uecda`` host (arena's referee hosting a UECda client) and ``arena uecda-client`` (an arena
bot at a UECda server) both go through it. No I/O. docs/uecda.md describes the wire.
"""

from ._uecda_tables import (
    PROTOCOL,
    TABLE_BYTES,
    Table,
    TableError,
    card_cell,
    cell_card,
    empty_table,
    hand_table,
    move_table,
    pack_int,
    pack_table,
    table_cards,
    table_move,
    unpack_int,
    unpack_table,
)

__all__ = [
    "PROTOCOL",
    "TABLE_BYTES",
    "Table",
    "TableError",
    "card_cell",
    "cell_card",
    "empty_table",
    "hand_table",
    "move_table",
    "pack_int",
    "pack_table",
    "table_cards",
    "table_move",
    "unpack_int",
    "unpack_table",
]
