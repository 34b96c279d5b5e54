"""``arena uecda-client``: any arena bot as a client of a UECda server (protocol 20070)."""

from __future__ import annotations

import contextlib
import socket
import sys
from typing import Any

import click

from arena.bot import MatchInfo
from arena.cli import InputError
from arena.game import Card, Move, Rules, View, trick_lock
from arena.referee.lowlevel import make_bot, resolve, uecda
from arena.seeds import bot_rng

_ROLES = ("president", "vice-president", None, "vice-scum", "scum")
PLAYERS = 5


class _Connection:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def read(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def table(self) -> uecda.CardTable:
        return uecda.unpack_table(self.read(uecda.TABLE_BYTES))

    def int(self) -> int:
        return uecda.unpack_int(self.read(4))

    def send(self, table: uecda.CardTable) -> None:
        self.sock.sendall(uecda.pack_table(table))


def _hand(table: uecda.CardTable) -> list[Card]:
    cards = [uecda.cell_card(r, c) for r in range(4) for c in range(1, 14) if table[r][c] == 1]
    if any(table[r][c] == 2 for r in range(5) for c in range(15)):
        cards.append(Card.parse("JK"))
    return cards


class _Game:
    """What a client learns of one game from the tables it is sent, as an arena view."""

    def __init__(self, rules: Rules, seat: int, number: int) -> None:
        self.rules, self.seat, self.number = rules, seat, number
        self.plays: list[tuple[int, Move]] = []
        self.trick: list[tuple[int, Move]] = []
        self.pile: Move | None = None
        self.passed: set[int] = set()
        self.places: list[int] = []
        self.stage = uecda.empty_table()

    def view(self, table: uecda.CardTable) -> View:
        state = table[5]
        counts = [table[6][s] for s in range(PLAYERS)]
        for seat, count in enumerate(counts):
            if count == 0 and seat not in self.places:
                self.places.append(seat)
        roles = [None if self.number == 0 else _ROLES[min(max(table[6][5 + s], 0), 4)]
                 for s in range(PLAYERS)]
        if state[4] == 1:
            self.pile, self.trick, self.passed = None, [], set()
        places: list[int | None] = [*self.places, *([None] * (PLAYERS - len(self.places)))]
        return View.from_state(
            self.rules, self.seat, self.number, hand=_hand(table),
            to_move=state[3] if 0 <= state[3] < PLAYERS else None, pile=self.pile,
            revolution=state[6] == 1, counts=counts,
            passed=[s in self.passed for s in range(PLAYERS)],
            sat_out=[s in self.passed for s in range(PLAYERS)],
            trick=self.trick, plays=self.plays, places=places, roles=roles,
            scores=[0] * PLAYERS)

    def after_turn(self, field: uecda.CardTable, mover: int) -> None:
        cards = [row[:] for row in field[:5]]
        if cards == [row[:] for row in self.stage[:5]] or not any(any(r) for r in cards):
            move: Move = Move.PASS
            self.passed.add(mover)
        else:
            owner = [Card.parse("JK")] + [uecda.cell_card(r, c) for r in range(4)
                                          for c in range(1, 14) if cards[r][c] == 1]
            try:
                move = uecda.table_move(cards + [[0] * 15 for _ in range(3)], owner)[0]
            except uecda.TableError:
                move = Move.PASS
            if move.kind != "pass":
                self.pile = move
                self.passed = set()
                self.stage = [row[:] for row in cards] + [[0] * 15 for _ in range(3)]
        self.plays.append((mover, move))
        self.trick.append((mover, move))
        if field[5][4] == 1 and move.kind == "pass":
            self.stage = uecda.empty_table()


def play_uecda(bot_ref: str, host: str, port: int, name: str, seed: int = 0,
               params: dict[str, Any] | None = None) -> tuple[int, int, int]:
    """Play as a UECda client until the server says all games are over.

    Returns the games played, the cards-on-the-table answers sent (plays, not passes) and
    how many of those the server rejected (answered 8).
    """
    plays = rejected = 0
    rules = Rules.preset("uecda")
    bot = make_bot(bot_ref, params or {})
    with socket.create_connection((host, port)) as sock:
        conn = _Connection(sock)
        profile = uecda.empty_table()
        profile[0][0] = uecda.PROTOCOL
        for i, ch in enumerate(name[:15]):
            profile[1][i] = ord(ch)
        conn.send(profile)
        seat = conn.int()
        bot.bind(seat, rules, PLAYERS, bot_rng(seed, seat))
        bot.start_match(MatchInfo(seat, PLAYERS, rules, "uecda", [str(s) for s in range(5)]))
        number = 0
        while True:
            dealt = conn.table()
            game = _Game(rules, seat, number)
            give = dealt[5][1]
            if 0 < give < 100:
                view = game.view(dealt)
                try:
                    cards = [Card.parse(str(c)) for c in bot.exchange(view, give)]  # type: ignore[arg-type]
                except Exception:  # a bot's failure: the server gives the strongest cards
                    cards = []
                conn.send(uecda.cards_table(cards))
            flag = 0
            while flag == 0:
                table = conn.table()
                mover = table[5][3]
                view = game.view(table)
                if table[5][2] == 1:
                    _, suits = trick_lock(rules, game.trick)
                    try:
                        move = Move.parse(bot.play(view))  # type: ignore[arg-type]
                    except Exception:
                        move = Move.PASS
                    conn.send(uecda.move_table(move, previous_suits=suits,
                                               revolution=view.revolution))
                    answer = conn.int()
                    if move.kind != "pass":
                        plays += 1
                        rejected += answer != 9
                field = conn.table()
                game.after_turn(field, mover)
                flag = conn.int()
            number += 1
            if flag != 1:
                return number, plays, rejected


@click.command("uecda-client")
@click.argument("bot")
@click.option("--host", default="127.0.0.1", show_default=True, help="The UECda server.")
@click.option("--port", default=42485, show_default=True, type=int, help="Its port.")
@click.option("--name", default=None, help="The name sent in the profile (default: BOT).")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seeds the bot's random generator.")
def uecda_client_command(bot: str, host: str, port: int, name: str | None, seed: int) -> None:
    """Connect BOT (an installed bot or module:Class) to a UECda server as a 20070 client.

    It plays under the rules of the `uecda` preset until the server says all games are over.
    """
    if ":" in bot:
        sys.path.insert(0, ".")
    try:
        resolve(bot)
    except (LookupError, ValueError) as exc:
        raise InputError(str(exc)) from None
    try:
        games, plays, rejected = play_uecda(bot, host, port, name or bot.rpartition(":")[2],
                                            seed)
    except (ConnectionError, OSError) as exc:
        raise InputError(f"cannot play at {host}:{port}: {exc}") from None
    except EOFError:
        raise InputError(f"{host}:{port} closed the connection before all games were over"
                         ) from None
    with contextlib.suppress(Exception):
        click.echo(f"played {games} games at {host}:{port}: {plays} plays, {rejected} rejected",
                   err=True)
