"""Hostile bots: each misbehaves in one way the referee must contain.

The process host loads them in its child processes by ``module:Class``
reference (this module is importable there because children inherit the
referee's import path), and inline tests can register them as a plugin.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from arena import Bot, hookimpl
from arena.game import CARDS, Move, View


class Legal(Bot):
    """Plays a random legal move: the well-behaved part of every hostile bot."""

    stochastic = True

    def play(self, view: View) -> Move | str:
        return self.rng.choice(view.legal_moves())


class Sleeper(Legal):
    """Sleeps far past its deadline on its first move of each process."""

    def play(self, view: View) -> Move | str:
        time.sleep(60)
        return super().play(view)


class Spinner(Legal):
    """Spins in an endless loop, never answering."""

    def play(self, view: View) -> Move | str:
        n = 0
        while True:
            n += 1


class Quitter(Legal):
    """Exits the process (status 3) on its second move."""

    def __init__(self) -> None:
        self.moves = 0

    def play(self, view: View) -> Move | str:
        self.moves += 1
        if self.moves == 2:
            os._exit(3)
        return super().play(view)


class Raiser(Legal):
    """Its code raises on every move."""

    def play(self, view: View) -> Move | str:
        raise RuntimeError("this bot is broken")


class Cheater(Legal):
    """Plays a single card it does not hold."""

    def play(self, view: View) -> Move | str:
        held = {str(c) for c in view.hand}
        missing = next(str(c) for c in CARDS if str(c) not in held)
        return missing


class Garbler(Legal):
    """Answers with text that is no move at all."""

    def play(self, view: View) -> Move | str:
        return "seven of cups, please"


class Hog(Legal):
    """Allocates memory without bound."""

    def play(self, view: View) -> Move | str:
        hoard = []
        while True:
            hoard.append(bytearray(8 << 20))


class Forker(Legal):
    """Forks a child that never exits, then dies itself; the child's pid goes to ``pidfile``."""

    def __init__(self, pidfile: str = "") -> None:
        self.pidfile = pidfile

    def play(self, view: View) -> Move | str:
        pid = os.fork()
        if pid == 0:  # the child: hold every inherited descriptor and never exit
            while True:
                time.sleep(1000)
        if self.pidfile:
            with open(self.pidfile, "a") as f:
                f.write(f"{pid}\n")
        os._exit(0)


class Chatty(Legal):
    """Prints to stdout and stderr on every move (protocol look-alikes too) but plays legally."""

    def start_match(self, info: Any) -> None:
        print("hello from seat", info.seat)

    def play(self, view: View) -> Move | str:
        print('{"type": "move", "id": 1, "move": "pass"}')
        print("thinking about", [str(c) for c in view.hand], flush=True)
        print("chatty on stderr", file=sys.stderr)
        sys.stdout.write("no newline at all ")
        return super().play(view)


HOSTILE = {
    "sleeper": (Sleeper, "timeout"),
    "spinner": (Spinner, "timeout"),
    "quitter": (Quitter, "crash"),
    "raiser": (Raiser, "crash"),
    "cheater": (Cheater, "illegal"),
    "garbler": (Garbler, "malformed"),
    "hog": (Hog, "crash"),
    "forker": (Forker, "crash"),
    "chatty": (Chatty, None),
}
"""Name -> (class, the fault kind it must get; None for no fault)."""


def ref(cls: type) -> str:
    """The ``module:Class`` reference the process host loads a bot by."""
    return f"{cls.__module__}:{cls.__qualname__}"


class Plugin:
    """A plugin object registering the hostile bots, for in-process registries."""

    @hookimpl
    def register_bots(self, register: Any) -> None:
        for name, (cls, _kind) in HOSTILE.items():
            register(f"hostile-{name}", cls, description=cls.__doc__ or "")


class SlowStarter(Legal):
    """Takes far longer than ``start_ms`` to start its match."""

    def start_match(self, info: Any) -> None:
        time.sleep(60)


class BadStarter(Legal):
    """Its start_match raises."""

    def start_match(self, info: Any) -> None:
        raise ValueError("no table for me")
