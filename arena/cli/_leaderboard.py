"""The leaderboards printed for people: ``arena ratings``' tables, and a league's strengths
(which ``arena run`` prints at the end of a league too)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from arena.ratings import HeadToHead, Leaderboard, StrengthBoard

_MATRIX_LIMIT = 12  # above this many bots the head-to-head is printed as a pair list

_DROPPED_FIRST = ("ordinal", "timeouts", "deals", "points", "1st", "mu ± sigma", "place",
                  "matches")
"""The leaderboard's columns left out, in this order, until it fits the terminal: rank, bot,
deal score, its interval and faults always stay (docs/ratings.md says what each one means)."""

_UNIT = {"set": "duplicate sets", "match": "matches", "mixed": "sets and matches"}


def stdout_console() -> Console:
    """stdout console; when piped, wide enough that a table is not folded into columns of 3
    (unless ``COLUMNS`` says how wide)."""
    console = Console(file=sys.stdout, soft_wrap=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(file=sys.stdout, soft_wrap=False, width=160)
    return console


def print_leaderboard(board: Leaderboard, console: Console,
                      silent: Mapping[str, str] | None = None) -> None:
    """The leaderboard and head-to-head tables, for people.

    A league's records print the league's own leaderboard first (:func:`strengths_table`).
    The leaderboard fits the console's width: the least important columns are left out
    (``_DROPPED_FIRST``) and a line says which. ``silent``: the bots that never made a move,
    with their first fault line (``never_played``), marked in the table and listed under it.
    """
    silent = silent or {}
    if board.strengths is not None:
        print_strengths(board.strengths, console, clusters=board.clusters)
    title = (
        f"{board.matches} matches, {board.deals} deals; intervals: {board.confidence:.0%} "
        f"bootstrap over {board.clusters} {_UNIT[board.cluster_kind]}"
    )
    if board.strengths is not None:
        title = f"mean deal scores (they depend on whom the league seated together); {title}"
    console.print(_fitted(title, _score_columns(board, silent), console))
    for label, fault in silent.items():
        console.print(f"{label} never played a move: {fault.removeprefix(label + ': ')}",
                      soft_wrap=True, highlight=False, markup=False)
    if board.duplicates:
        console.print(f"({board.duplicates} records repeated a match id and were counted once)")
    print_head_to_head(board.head_to_head, console)


def _score_columns(board: Leaderboard, silent: Mapping[str, str]) -> dict[str, list[str]]:
    """The mean-score leaderboard's cells, column by column."""
    interval = f"{board.confidence:.0%} interval"
    columns: dict[str, list[str]] = {name: [] for name in (
        "rank", "bot", "deal score", interval, "mu ± sigma", "ordinal", "matches", "deals",
        "place", "points", "1st", "faults", "timeouts")}
    for line in board.bots:
        row = {
            "rank": (f"{line.rank}" if line.rank_best == line.rank_worst
                     else f"{line.rank} ({line.rank_best}-{line.rank_worst})"),
            "bot": line.label + (" (never played)" if line.label in silent else ""),
            "deal score": f"{line.score:.3f}",
            interval: f"{line.score_low:.3f}-{line.score_high:.3f}",
            "mu ± sigma": f"{line.mu:.1f} ± {line.sigma:.1f}",
            "ordinal": f"{line.ordinal:.1f}",
            "matches": str(line.matches),
            "deals": str(line.deals),
            "place": f"{line.mean_place:.2f}",
            "points": f"{line.mean_points:.2f}",
            "1st": f"{line.first_rate:.0%}",
            "faults": str(line.faults) if line.faults else "-",
            "timeouts": str(line.timeouts) if line.timeouts else "-",
        }
        for name, cell in row.items():
            columns[name].append(cell)
    return columns


def fitted_table(title: str, columns: dict[str, list[str]], console: Console | None,
                 order: Sequence[str]) -> Table:
    """A table of ``columns`` (name: cells) in the leaderboards' style: labels fold, numbers
    stay whole; given a ``console``, the columns of ``order`` are left out, first to last,
    until it fits, and a caption names them."""
    if console is None:
        return _board_table(title, columns)
    return _fitted(title, columns, console, order)


def _fitted(title: str, columns: dict[str, list[str]], console: Console,
            order: Sequence[str] = _DROPPED_FIRST) -> Table:
    """The table of ``columns``, the least important (``order``) left out until it fits the
    console; a caption names them (the unnamed column of marks aside)."""
    dropped: list[str] = []
    table = _board_table(title, columns)
    unbounded = console.options.update_width(10_000)
    for name in order:
        if console.measure(table, options=unbounded).maximum <= console.width:
            break
        if name not in columns:
            continue
        if name:
            dropped.append(name)
        del columns[name]
        table = _board_table(title, columns)
    if dropped:
        table.caption = f"left out at this width: {', '.join(dropped)} (see --json)"
        table.caption_justify = "left"
    return table


def print_head_to_head(h2h: HeadToHead, console: Console) -> None:
    """The head-to-head matrix; a list of pairs above ``_MATRIX_LIMIT`` bots, or when the
    matrix is wider than the console (its labels and counts would be cut to ``gre…``)."""
    if len(h2h.labels) < 2:
        return
    if len(h2h.labels) <= _MATRIX_LIMIT:
        grid = _matrix(h2h)
        unbounded = console.options.update_width(10_000)
        if console.measure(grid, options=unbounded).maximum <= console.width:
            console.print(grid)
            return
    rows = [(pair.a, pair.b, str(pair.a_ahead), str(pair.b_ahead), str(pair.shared),
             f"{pair.a_rate:.1%}") for pair in h2h.pairs()]
    pairs = Table(title="head to head (pairs that shared a table)", header_style="bold",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for k, name in enumerate(("bot", "opponent", "ahead", "behind", "shared", "rate")):
        if k < 2:  # labels fold where space is short, numbers never do
            pairs.add_column(name, overflow="fold")
        else:
            pairs.add_column(name, justify="right", min_width=max(len(r[k]) for r in rows))
    for row in rows:
        pairs.add_row(*row)
    console.print(pairs)


def _matrix(h2h: HeadToHead) -> Table:
    grid = Table(
        title="head to head: share of shared deals the row bot finished ahead (deals)",
        header_style="bold",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    grid.add_column("")
    for label in h2h.labels:
        grid.add_column(label, justify="right")
    for i, row_label in enumerate(h2h.labels):
        cells = []
        for j in range(len(h2h.labels)):
            won, lost = h2h.ahead[i][j], h2h.ahead[j][i]
            cells.append("" if i == j or won + lost == 0
                         else f"{won / (won + lost):.0%} ({won + lost})")
        grid.add_row(row_label, *cells)
    return grid


def print_strengths(board: StrengthBoard, console: Console, *, clusters: int) -> None:
    """A league's leaderboard from its records, as ``arena run`` shows its standings."""
    title = (f"league: Plackett-Luce strengths, {board.confidence:.0%} intervals over "
             f"{clusters} duplicate sets")
    console.print(strengths_table([line.to_dict() for line in board.lines], title=title,
                                  console=console))
    console.print(board.stop_line(), highlight=False)


def strengths_table(rows: Iterable[Mapping[str, Any]], *, title: str,
                    console: Console | None = None) -> Table:
    """A league's entrants best first by strength: rank among the active ones, strength,
    interval, sets, deals, and whether each is an anchor or retired. ``rows`` have the keys
    of ``StrengthLine`` (``LeagueStatus.ratings`` has them too, ``rank`` aside). An entrant
    without a set yet has no strength to show (the fit's prior alone places it) and comes
    last. Given the ``console``, the table fits its width: the deals are left out first,
    then the anchor and retired marks move from their column to a line under the table."""
    ordered = sorted(rows, key=lambda row: (not row["sets"], -float(row["strength"])))
    rank = 0
    columns: dict[str, list[str]] = {name: [] for name in (
        "rank", "bot", "strength", "interval", "sets", "deals", "")}
    for row in ordered:
        if row["active"]:
            rank += 1
        columns["rank"].append(str(rank) if row["active"] else "-")
        columns["bot"].append(str(row["label"]))
        played = bool(row["sets"])
        columns["strength"].append(f"{row['strength']:+.2f}" if played else "-")
        columns["interval"].append(f"{row['low']:+.2f} .. {row['high']:+.2f}" if played
                                   else "no sets yet")
        columns["sets"].append(str(row["sets"]))
        columns["deals"].append(str(row.get("deals", "")))
        columns[""].append(_status(row))
    if console is None:
        return _board_table(title, columns)
    marked = list(zip(columns["bot"], columns[""], strict=True))
    marks = [word + ": " + ", ".join(label for label, mark in marked if word in mark)
             for word in ("anchor", "retired") if any(word in mark for _, mark in marked)]
    table = _fitted(title, columns, console, order=("deals", ""))
    if "" not in columns and marks:
        table.caption = "; ".join(marks + ([str(table.caption)] if table.caption else []))
        table.caption_justify = "left"
    return table


def _status(row: Mapping[str, Any]) -> str:
    words = (["anchor"] if row.get("anchor") else []) + ([] if row["active"] else ["retired"])
    return ", ".join(words)


def _board_table(title: str, columns: Mapping[str, Sequence[str]]) -> Table:
    table = Table(title=title, header_style="bold", title_justify="left", box=box.SIMPLE_HEAD)
    for name, cells in columns.items():
        # Where space is short, headers wrap and labels fold past 20 characters; the
        # other cells (numbers) never do.
        widest = max(map(len, cells), default=0)
        table.add_column(name, justify="left" if name in ("bot", "") else "right",
                         overflow="fold", min_width=min(20, widest) if name == "bot" else widest)
    for row in zip(*columns.values(), strict=True):
        table.add_row(*row)
    return table
