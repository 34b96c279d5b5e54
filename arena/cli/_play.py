"""``arena play``: a person plays a match in the terminal against bots.

The person is one more seat host (:class:`HumanHost`): the referee asks it for moves
and exchanges exactly as it asks a bot, judges the answers with the same rules and
writes the same record, so a played match can be rated and replayed like any other.
The person's seat is not timed; the bots play under the usual limits.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import click

from arena.cli import InputError, main
from arena.cli._start_checks import refuse_unstartable
from arena.game import AnswerError, Card, IllegalMove, Move, Rules, View, judge_cards, judge_move
from arena.records import RecordWriter
from arena.referee import (
    BotFault,
    BotRef,
    CopyLabels,
    Deadline,
    Host,
    Limits,
    MatchSpec,
    MatchSpecError,
    Seat,
    StartInfo,
    make_host,
    run_match,
)
from arena.seeds import SEED_LIMIT, secret_seed

__all__ = ["HumanHost", "play_command"]

HUMAN_LABEL = "you"


def _read_line(prompt: str) -> str | None:
    """One line typed by the person, or ``None`` once the input has ended."""
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()  # sys.stdin itself: a new wrapper would read ahead and lose lines
    if not line:
        click.echo()
        return None
    return line.strip()


def _echo(text: str) -> None:
    click.echo(text)


class HumanHost(Host):
    """A person at the terminal: shows the seat's view and reads the moves typed.

    A move is typed as its number in the list of legal moves or as text in the notation
    of docs/rules.md (``5H 6H JK=7H``, ``pass``); anything that is not a legal move is
    refused with the reason and asked again, so the person never faults. When the input
    ends the person leaves: every later decision of the seat is a ``crash`` fault, and
    the match still ends and is recorded.
    """

    kind = "human"
    timed = False

    def __init__(self, name: str = HUMAN_LABEL,
                 read: Callable[[str], str | None] = _read_line,
                 write: Callable[[str], None] | None = None) -> None:
        self._meta = BotRef(name, name, "human", "")
        self._read = read
        self._write: Callable[[str], None] = write or _echo
        self._labels: list[str] = []
        self._rules: Rules | None = None
        self._seen = (-1, 0)  # (deal, plays already shown)
        self._left = False
        self._asked_exchange = False  # asked to give back cards in this deal's exchange
        self._told_exchange = False  # told what its exchange took and brought

    @property
    def meta(self) -> BotRef:
        return self._meta

    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        self._labels = list(info.labels)
        self._rules = info.rules
        others = ", ".join(f"{label} (seat {seat})" for seat, label in enumerate(info.labels)
                           if seat != info.seat)
        self._write(f"You are seat {info.seat}, against {others}. Moves: their number, or "
                    f"cards like '5H 5S' or '5H 6H JK=7H', or 'pass'.")

    def _ask(self, prompt: str) -> str:
        if self._left:
            raise BotFault("crash", "the person left the table (input ended)")
        line = self._read(prompt)
        if line is None:
            self._left = True
            raise BotFault("crash", "the person left the table (input ended)")
        return line

    def _name(self, seat: int) -> str:
        label = self._labels[seat] if seat < len(self._labels) else f"seat {seat}"
        return f"{label} (seat {seat})"

    # The referee shows this host its own seat's view before every other seat's decision
    # (``observe``), so the person follows the table move by move, with each trick's end and
    # each player going out marked, as at a real table.
    observes = True

    async def observe(self, view: View, kind: str, seat: int, deadline: Deadline) -> None:
        self._catch_up(view)

    def _catch_up(self, view: View) -> None:
        """The plays made since the person last looked, each trick's end and each player
        going out marked; at a deal's start, the person's exchange."""
        deal, shown = self._seen
        if deal != view.number:
            shown = 0
            self._write(f"\n--- deal {view.number + 1} ---")
            self._asked_exchange = self._told_exchange = False
        if view.gave and view.received and not (self._asked_exchange or self._told_exchange):
            # The person gave by rule (the Scum's best cards) and got cards back once the
            # other side chose them: say what went and what came.
            self._told_exchange = True
            to = {"scum": "the President", "vice-scum": "the Vice-President"}.get(
                str(view.roles[view.seat]), "the other side")
            self._write(f"  exchange: your {_cards(view.gave)} went to {to} by rule; you "
                        f"received {_cards(view.received)}")
        plays = view.plays
        # Plays before the current trick ended tricks: the last of them ended the latest.
        trick_start = len(plays) - len(view.trick)
        for index in range(shown, len(plays)):
            seat, move = plays[index]
            notes = []
            if str(move) != "pass" and view.counts[seat] == 0 and all(
                    other != seat for other, _ in plays[index + 1:]):
                notes.append("goes out")
            if index == trick_start - 1:
                notes.append("trick ends")
            marks = f"  ({', '.join(notes)})" if notes else ""
            self._write(f"  {self._name(seat)}: {move}{marks}")
        self._seen = (view.number, len(plays))

    def _show(self, view: View, *, leading: bool = True) -> None:
        """What happened since the person last looked, and the table as it is now."""
        self._catch_up(view)
        self._write("")
        for seat in range(view.players):
            role = view.roles[seat]
            count = view.counts[seat]
            state = "out" if count == 0 else f"{count:2} card{'' if count == 1 else 's'}"
            if view.passed[seat] or view.sat_out[seat]:
                state += ", passed"
            marker = "*" if seat == view.seat else " "
            self._write(f" {marker} {self._name(seat):<24} {state:<16} "
                        f"{role or '':<14} {view.scores[seat]:>3} pts")
        lead = " (you lead)" if leading else ""
        pile = f"empty{lead}" if view.pile is None else str(view.pile)
        self._write(f"  pile: {pile}" + ("   REVOLUTION" if view.revolution else ""))
        self._write(f"  your hand: {_cards(view.hand)}")

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        self._show(view)
        moves = view.legal_moves()
        width = len(str(len(moves)))
        for number, move in enumerate(moves, start=1):
            self._write(f"  {number:>{width}}) {move}")
        while True:
            text = self._ask("your move: ")
            chosen = self._choose(text, moves, view)
            if chosen is not None:
                return chosen

    def _choose(self, text: str, moves: list[Move], view: View) -> Move | None:
        """The legal move ``text`` names, or ``None`` after saying why it is not one."""
        if not text:
            return None
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(moves):
                return moves[number - 1]
            self._write(f"  no move {number}: choose 1 to {len(moves)}")
            return None
        try:  # the referee's own judge, in its words (arena.game.judge_move)
            return judge_move(view, "pass" if text.lower() in ("p", "pass") else text)
        except AnswerError as exc:
            self._write(f"  {exc}")
            return None

    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        self._show(view, leading=False)  # the deal's first lead comes after the exchange
        self._asked_exchange = True
        self._write(f"  you received {' '.join(str(c) for c in view.received)}; give back "
                    f"{count} card{'s' if count > 1 else ''}, as cards ('3C 4D') or by their "
                    f"places in your hand ('1 2', 1 = lowest)")
        while True:
            text = self._ask(f"cards to give ({count}): ")
            try:
                cards = [_hand_card(token, view.hand) for token in text.replace(",", " ").split()]
            except ValueError as exc:
                self._write(f"  cannot read {text!r}: {exc}")
                continue
            try:  # the referee's own judge, in its words (arena.game.judge_cards)
                return judge_cards(view, count, cards)
            except AnswerError as exc:
                self._write(f"  {exc}")

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:
        order = ", ".join(f"{place}. {self._name(seat)}"
                          for place, seat in enumerate(result["finish_order"], start=1))
        self._seen = (-1, 0)
        self._write(f"\ndeal {result['deal'] + 1} over: {order}")
        scores = ", ".join(f"{self._labels[s]} {p}" for s, p in enumerate(result["scores"]))
        self._write(f"  scores: {scores}")


def _close_unused(writer: RecordWriter, path: str, existed: bool) -> None:
    """Close a records file nothing was written to; remove it if this command made it."""
    writer.close()
    if not existed and os.path.exists(path) and os.path.getsize(path) == 0:
        os.remove(path)


def _cards(cards: list[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _hand_card(token: str, hand: list[Card]) -> Card:
    """A card typed as text, or as its place in ``hand`` (1 = lowest)."""
    if token.isdigit():
        place = int(token)
        if not 1 <= place <= len(hand):
            raise ValueError(f"no card {place} in a hand of {len(hand)}")
        return hand[place - 1]
    return Card.parse(token)


@click.command("play")
@click.argument("bots", nargs=-1, required=True)
@click.option("--bots", "_bots_flag", is_flag=True,
              help="Optional marker before the bots: arena play --bots greedy mc mc.")
@click.option("--preset", default="standard", show_default=True,
              help="Rules preset: standard, runs, daifugo.")
@click.option("--rounds", type=click.IntRange(min=1), help="Deals in the match.")
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="Your seat (0-based).")
@click.option("--seed", type=click.IntRange(min=0, max=SEED_LIMIT - 1),
              help="Match seed (random if omitted).")
@click.option("--move-ms", type=int, default=Limits().move_ms, show_default=True,
              help="Time per decision for the bots (you are not timed).")
@click.option("--records", "records_path", type=click.Path(dir_okay=False),
              default="arena-play.jsonl", show_default=True,
              help="Append the match record (one JSON line) to this file.")
@click.option("--match-id", default="play", show_default=True, help="Id written in the record.")
def play_command(bots: tuple[str, ...], _bots_flag: bool, preset: str, rounds: int | None,
                 seat: int, seed: int | None, move_ms: int, records_path: str,
                 match_id: str) -> None:
    """Play a match yourself against BOTS (1 to 7 installed bots), e.g. greedy mc mc.

    You see your hand sorted, the pile, every player's cards left, roles and scores, and
    the legal moves numbered; type a number or the cards. The match is recorded like any
    other (--records), so `arena ratings` and replays read it.
    """
    if seed is None:
        seed = secret_seed()
    spec, hosts = _table(bots, seat, move_ms, preset=preset, rounds=rounds, seed=seed,
                         match_id=match_id)
    existed = os.path.exists(records_path)
    try:  # opened first, so a records path that cannot be written fails before the match
        writer = RecordWriter(records_path)
    except OSError as exc:
        raise InputError(f"cannot open records file {records_path!r}: "
                         f"{exc.strerror or exc}") from None
    try:
        record = run_match(spec, hosts=hosts)
    except (MatchSpecError, IllegalMove) as exc:
        _close_unused(writer, records_path, existed)
        raise InputError(str(exc)) from None
    except KeyboardInterrupt:
        _close_unused(writer, records_path, existed)
        where = (f"{records_path} is as it was" if existed
                 else f"no {records_path} was left behind")
        click.echo(f"\ninterrupted: the match is recorded only once it ends; {where}",
                   err=True)
        sys.exit(130)
    with writer:
        writer.write(record)
    click.echo("\nfinal standings:")
    for place, index in enumerate(record["ranking"], start=1):
        label = spec.seats[index].label
        click.echo(f"  {place}. {label:<12} {record['scores'][index]:>3} points")
    click.echo(f"recorded in {records_path} (match {match_id}, seed {seed})")
    sys.stdout.flush()


def _table(bots: tuple[str, ...], seat: int, move_ms: int, *, preset: str,
           rounds: int | None, seed: int, match_id: str) -> tuple[MatchSpec, list[Host]]:
    """The match of a person at ``seat`` against ``bots``, and its hosts, once every bot
    has started; bad input (a table size, a seat, a preset, a bot) is an InputError."""
    players = len(bots) + 1
    if not 2 <= players <= 8:
        raise InputError(f"a match needs 1 to 7 bots besides you, got {len(bots)}")
    if seat >= players:
        raise InputError(f"--seat {seat}: a table of {players} has seats 0 to {players - 1}")
    try:
        rules = Rules.preset(preset, **({} if rounds is None else {"rounds": rounds}))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    names = iter(bots)
    copies = CopyLabels()
    try:
        # The person's seat gets its host, a HumanHost, below.
        seats = [Seat(label=HUMAN_LABEL, name=HUMAN_LABEL, host="human") if index == seat
                 else Seat(label=copies(name := next(names)), name=name)
                 for index in range(players)]
        limits = Limits(move_ms=move_ms)
        spec = MatchSpec(match_id=match_id, seed=seed, seats=tuple(seats), rules=rules,
                         limits=limits)
        hosts: list[Host] = [HumanHost() if i == seat else make_host(s, limits)
                             for i, s in enumerate(seats)]
    except ValueError as exc:  # MatchSpecError included
        raise InputError(str(exc)) from None
    try:
        refuse_unstartable([s for i, s in enumerate(seats) if i != seat], rules=rules,
                           limits=limits, players=players)
    except MatchSpecError as exc:
        raise InputError(str(exc)) from None
    return spec, hosts


main.add_command(play_command)
