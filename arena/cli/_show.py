"""``arena show``: one match of a records file, deal by deal and move by move, in the terminal."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.cli import InputError, main
from arena.records import printable

_SUITS = {"S": ("♠", ""), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "")}


def cards_text(cards: str | Sequence[str]) -> Text:
    """Cards as a spectator reads them: 10♥ Q♠, hearts and diamonds in red, "pass" as is
    (and whatever a damaged record holds instead of cards, as text)."""
    words = (cards.split() if isinstance(cards, str) else
             [str(card) for card in cards] if isinstance(cards, list) else [str(cards)])
    out = Text()
    for k, card in enumerate(words):
        if k:
            out.append(" ")
        if len(card) == 2 and card[1] in _SUITS:
            rank = "10" if card[0] == "T" else card[0]
            symbol, style = _SUITS[card[1]]
            out.append(rank + symbol, style=style)
        elif card == "JK":
            out.append("Jkr", style="magenta")
        else:
            out.append(card)
    return out


def print_match(console: Console, record: Mapping[str, Any], deal: int | None = None) -> None:
    """A match record move by move (one deal with ``deal``), replayed through the rules."""
    from arena.report import ReplayError, moves_as_recorded, replay_deals

    labels = [printable(str(s["label"])) for s in record["seats"]]
    console.print(Text.assemble(
        ("match ", "bold"), (str(record["match_id"]), "bold"),
        f"  seed {record.get('seed')}  ", (", ".join(labels)),
    ), soft_wrap=True)
    try:
        replayed: list[Any] | None = replay_deals(record)
    except ReplayError as exc:
        console.print(Text(f"warning: {exc}; moves shown as recorded", style="red"))
        replayed = None
    deals = record["deals"]
    numbers = range(len(deals)) if deal is None else [deal]
    for number in numbers:
        entry = deals[number]
        console.print()
        console.print(Text(f"deal {number + 1} of {len(deals)}  (seed {entry.get('seed')}), "
                           f"{labels[entry['leader']]} leads", style="bold"))
        console.print(_hands(entry, labels))
        for ex in entry.get("exchanges") or ():
            console.print(Text.assemble(
                "  exchange: ", Text(labels[ex["from"]]), " gives ", cards_text(ex["cards"]),
                " to ", Text(labels[ex["to"]]), f" ({ex.get('kind')})"), soft_wrap=True)
        if replayed is not None:
            events = [(e.seat, e.text, e.ms, e.flags, e.fault) for e in replayed[number]]
        else:
            events = [(seat, move, ms, 0, None) for seat, move, ms in moves_as_recorded(entry)]
        console.print(_moves(events, labels))
        for fault in entry.get("faults") or ():
            console.print(Text(f"  fault: {labels[fault['seat']]} {fault['kind']} at move "
                               f"{fault.get('move')} ({fault.get('stage')}): "
                               f"{printable(str(fault.get('detail', '')))[:200]}",
                               style="red"),
                          soft_wrap=True)
        order = ", ".join(f"{place}. {labels[seat]} ({entry['points'][seat]})"
                          for place, seat in enumerate(entry["finish_order"], start=1))
        console.print(Text(f"  finishing order (points): {order}"), soft_wrap=True)
    totals, ranking = record.get("scores"), record.get("ranking")
    scores = ("not recorded" if totals is None or ranking is None
              else ", ".join(f"{labels[seat]} {totals[seat]}" for seat in ranking))
    console.print()
    console.print(Text(f"final: {scores}", style="bold"), soft_wrap=True)


def _hands(entry: Mapping[str, Any], labels: list[str]) -> Table:
    """A deal's seats: bot, role and the hand each was dealt."""
    roles = entry.get("roles") or [None] * len(labels)
    hands = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in ("seat", "bot", "role", "dealt hand"):
        hands.add_column(name)
    for seat, hand in enumerate(entry["hands"]):
        role = roles[seat]
        hands.add_row(str(seat), Text(labels[seat]), "" if role is None else Text(str(role)),
                      cards_text(hand))
    return hands


def _moves(events: list[tuple[int, str, float | None, int, str | None]],
           labels: list[str]) -> Table:
    """A deal's moves (seat, move, ms, replay flags, fault), a section per trick."""
    from arena.report import CLEAR, FORFEIT, OUT, REVOLUTION

    moves = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name, justify in (("#", "right"), ("bot", "left"), ("move", "left"),
                          ("ms", "right"), ("", "left")):
        moves.add_column(name, justify=justify)  # type: ignore[arg-type]
    for index, (seat, text, ms, flags, fault) in enumerate(events, start=1):
        notes = []
        if fault is not None:
            notes.append(("fault: " + printable(fault) + (", leaves the deal" if flags & FORFEIT
                                               else ""), "red"))
        if flags & REVOLUTION:
            notes.append(("revolution", "magenta"))
        if flags & OUT:
            notes.append(("out", "green"))
        if flags & CLEAR:
            notes.append(("trick ends", "dim"))
        moves.add_row(
            str(index), Text(labels[seat]),
            Text("-", style="red") if fault is not None else
            Text("pass", style="dim") if text == "pass" else cards_text(text),
            "" if ms is None else f"{ms:.2f}",
            Text("  ").join(Text(n, style=s) for n, s in notes),
            end_section=bool(flags & CLEAR),
        )
    return moves


@main.command("show")
@click.argument("records", type=click.Path())
@click.argument("match_id", required=False)
@click.option("--deal", type=click.IntRange(min=1), default=None,
              help="Show only this deal (numbered from 1).")
def show_command(records: str, match_id: str | None, deal: int | None) -> None:
    """Print match MATCH_ID of the RECORDS file move by move: hands, exchange, every move with
    its think time, trick ends, revolutions, faults, finishing order and points.

    RECORDS may be the output folder of a run (its records.jsonl), as for arena ratings.
    Without MATCH_ID, list the matches it holds.
    """
    from arena.ratings import RatingsError, read_many

    def warn(message: str) -> None:
        click.echo(f"warning: {printable(message)}", err=True)

    ids: list[str] = []
    record = None
    try:
        for entry in read_many([records], warn):
            if match_id is None:
                _list_line(entry)
            elif entry.get("match_id") == match_id:
                record = entry
                break
            else:
                ids.append(str(entry.get("match_id")))
    except RatingsError as exc:
        raise InputError(str(exc)) from None
    if match_id is None:
        return
    if record is None:
        raise InputError(f"{records}: no match {match_id!r}{_near(match_id, ids)}")
    if record.get("type", "match") != "match":  # e.g. a match the referee failed to play
        raise InputError(printable(f"match {match_id!r} was not played ({record.get('type')}): "
                                   f"{record.get('error', 'no detail')}"))
    if deal is not None and deal > len(record["deals"]):
        raise InputError(f"match {match_id!r} has {len(record['deals'])} deals, not {deal}")
    console = Console(file=sys.stdout, soft_wrap=False)
    if not console.is_terminal:
        console = Console(file=sys.stdout, soft_wrap=False, width=120)
    print_match(console, record, None if deal is None else deal - 1)


def _list_line(record: Mapping[str, Any]) -> None:
    """One line of the list of matches: id, bots in seat order, deals, winner (or the type
    of a record that is no match)."""
    match_id = printable(str(record.get("match_id")))
    if record.get("type", "match") != "match":
        click.echo(f"{match_id}  ({record.get('type')}: not played)")
        return
    labels = [printable(str(seat["label"])) for seat in record["seats"]]
    ranking = record.get("ranking") or []
    first = f", won by {labels[ranking[0]]}" if ranking else ""
    click.echo(f"{match_id}  {' '.join(labels)}  ({len(record['deals'])} deals{first})")


def _near(match_id: str, ids: list[str]) -> str:
    """``; near it: ...`` with the ids most like ``match_id``, or how to list them all."""
    import difflib

    if not ids:
        return " (the file holds no match)"
    near = difflib.get_close_matches(match_id, ids, n=5, cutoff=0.5)
    if near:
        return f"; near it: {', '.join(near)}"
    return f" among its {len(ids)} matches (arena show RECORDS lists them)"
