"""A minimal UECda protocol 20070 client, written from the protocol's documents for the tests.

It knows nothing of arena: raw sockets and struct, as a contest entrant would write it.
Usage: ``uecda_test_client.py HOST PORT REPORT [MODE]``. It leads its lowest single card
and passes on a non-empty table (always legal), gives back its lowest cards in an
exchange, counts what it sees and writes the counts to REPORT (JSON) when the server
says all games are over. MODE makes it misbehave: ``garbage`` sends bytes that are no
table on its first turn, ``hang`` stops answering on its first turn, ``late`` answers its
first turn 1.5 s late and plays on, ``quit`` closes the
connection on its first turn, ``twojokers`` submits a table with two jokers on its turns,
``lonejoker`` leads the joker alone, in the clubs row above the 2 ([3][14]), when it holds
it. Every client lists the cells of the jokers it sees in played tables.
"""

from __future__ import annotations

import json
import socket
import struct
import sys
import time

TABLE = struct.Struct(">120i")
INT = struct.Struct(">i")


def read_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_table(sock: socket.socket) -> list[list[int]]:
    values = TABLE.unpack(read_exactly(sock, TABLE.size))
    return [list(values[r * 15:(r + 1) * 15]) for r in range(8)]


def read_int(sock: socket.socket) -> int:
    value: int = INT.unpack(read_exactly(sock, 4))[0]
    return value


def send_table(sock: socket.socket, table: list[list[int]]) -> None:
    sock.sendall(TABLE.pack(*(v for row in table for v in row)))


def empty() -> list[list[int]]:
    return [[0] * 15 for _ in range(8)]


def lowest_cards(hand: list[list[int]], count: int) -> list[list[int]]:
    out = empty()
    for col in range(1, 14):
        for row in range(4):
            if count and hand[row][col] == 1:
                out[row][col] = 1
                count -= 1
    return out


def main() -> int:
    host, port, report = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    mode = sys.argv[4] if len(sys.argv) > 4 else "play"
    sock = socket.create_connection((host, port))
    profile = empty()
    profile[0][0] = 20070
    for i, ch in enumerate("testcli"):
        profile[1][i] = ord(ch)
    send_table(sock, profile)
    me = read_int(sock)
    counts = {"player": me, "games": 0, "turns": 0, "mine": 0, "accepted": 0, "rejected": 0,
              "exchanges": 0, "count_mismatch": 0, "dealt_mismatch": 0, "passes": 0,
              "passes_answered_8": 0, "joker_cells": [], "end": None}
    while True:  # one game
        hand = read_table(sock)
        assert hand[5][0] == 1, "the dealt table has row 5 column 0 set"
        give = hand[5][1]
        held = sum(1 for r in range(5) for c in range(15) if hand[r][c] in (1, 2))
        # the dealt counts: a top player's table holds the gift beside them, no other's differs
        if held - hand[6][me] != give or sum(hand[6][:5]) != 53 or hand[5][3:5] != [6, 0]:
            counts["dealt_mismatch"] += 1
        if 0 < give < 100:
            send_table(sock, lowest_cards(hand, give))
            counts["exchanges"] += 1
        flag = 0
        while flag == 0:
            hand = read_table(sock)
            counts["turns"] += 1
            held = sum(1 for r in range(5) for c in range(15) if hand[r][c] in (1, 2))
            if held != hand[6][me]:
                counts["count_mismatch"] += 1
            if hand[5][2] == 1:
                counts["mine"] += 1
                if mode == "garbage":
                    sock.sendall(b"this is no table")
                    time.sleep(30)
                if mode == "hang":
                    time.sleep(30)
                if mode == "late" and counts["mine"] == 1:
                    time.sleep(1.5)
                if mode == "quit":
                    sock.close()
                    return 0
                play = empty()
                if mode == "twojokers":
                    play[0][3] = play[1][3] = 2
                elif mode == "lonejoker" and hand[5][4] == 1 and hand[4][1] == 2:
                    play[3][14] = 2
                elif hand[5][4] == 1:
                    done = False
                    for col in range(1, 14):
                        for row in range(4):
                            if not done and hand[row][col] == 1:
                                play[row][col] = 1
                                done = True
                    if not done and hand[4][1] == 2:
                        play[0][14] = 2
                send_table(sock, play)
                answer = read_int(sock)
                if any(any(row) for row in play) or hand[5][4] == 1:
                    counts["accepted" if answer == 9 else "rejected"] += 1
                else:  # a pass on a table with cards
                    counts["passes"] += 1
                    counts["passes_answered_8"] += answer == 8
            field = read_table(sock)  # the cards on the table
            for r in range(5):
                for c in range(15):
                    if field[r][c] == 2 and [r, c] not in counts["joker_cells"]:
                        counts["joker_cells"].append([r, c])
            flag = read_int(sock)
        counts["games"] += 1
        if flag == 2:
            counts["end"] = 2
            with open(report, "w") as out:
                json.dump(counts, out)
            sock.close()
            return 0


if __name__ == "__main__":
    sys.exit(main())
