"""``arena match --verbose`` and ``--trace``: a match shown while it is played.

``--verbose`` wraps each seat's host so every answer is printed as the bot gives it (with its
think time, or the fault it earned), and each deal's result when it ends. ``--trace`` gives
the child-process hosts a listener that prints every protocol line to and from the bot.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import click

from arena.game import View
from arena.referee import BotFault, BotRef, Deadline, Host, MatchSpec, StartInfo, make_host
from arena.referee.lowlevel import Meter

_ANSWER_CHARS = 80


def _shown(answer: object) -> str:
    """A bot's raw answer in one short line (it may be anything: the bot is untrusted)."""
    if isinstance(answer, list | tuple):
        text = " ".join(str(card) for card in answer)
    else:
        text = str(answer)
    text = text.replace("\n", "\\n")
    return text if len(text) <= _ANSWER_CHARS else text[:_ANSWER_CHARS] + "..."


class _Board:
    """What the watched seats share: the move counter and the deals already reported."""

    def __init__(self, labels: Sequence[str], echo: Callable[[str], None]) -> None:
        self.labels = list(labels)
        self.echo = echo
        self.moves = 0
        self.deal = 0
        self.reported: set[int] = set()


class WatchedHost(Host):
    """Passes every call to ``inner`` and prints what the bot answered, as it answers."""

    def __init__(self, inner: Host, seat: int, board: _Board) -> None:
        self.inner = inner
        self.seat = seat
        self.board = board
        self.kind = inner.kind
        self.timed = inner.timed
        self.observes = inner.observes  # a UECda client watches every turn, watched or not

    @property
    def meta(self) -> BotRef:
        return self.inner.meta

    @property
    def label(self) -> str:
        return self.board.labels[self.seat]

    @property
    def meter(self) -> Meter | None:
        return self.inner.meter

    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        await self.inner.start(info, deadline)

    def needs_prepare(self) -> bool:
        return self.inner.needs_prepare()

    async def prepare(self, deadline: Deadline) -> None:
        await self.inner.prepare(deadline)

    async def _watch(self, what: str, call: Any) -> object:
        board = self.board
        t0 = time.perf_counter()
        try:
            answer = await call
        except BotFault as fault:
            board.echo(f"  {what} {self.label}: fault {fault.kind}: "
                       f"{_shown(fault.detail)}")
            raise
        ms = (time.perf_counter() - t0) * 1000
        board.echo(f"  {what} {self.label}: {_shown(answer)}  ({ms:.2f} ms)")
        return answer

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        self.board.moves += 1
        return await self._watch(f"deal {self.board.deal + 1} move {self.board.moves:>3}",
                                 self.inner.play(view, time_ms, deadline))

    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        return await self._watch(f"deal {self.board.deal + 1} gives back {count}",
                                 self.inner.exchange(view, count, time_ms, deadline))

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:
        board = self.board
        number = int(result.get("deal", board.deal))
        if number not in board.reported:
            board.reported.add(number)
            order = ", ".join(f"{place}. {board.labels[seat]} ({result['points'][seat]})"
                              for place, seat in enumerate(result["finish_order"], start=1))
            board.echo(f"deal {number + 1} over: {order}")
            board.deal = number + 1
            board.moves = 0
        await self.inner.end_deal(result, deadline)

    async def observe(self, view: View, kind: str, seat: int, deadline: Deadline) -> None:
        await self.inner.observe(view, kind, seat, deadline)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def pids(self) -> list[int]:
        return self.inner.pids()


def watched_hosts(spec: MatchSpec, *, verbose: bool, trace: bool,
                  err: bool = False) -> list[Host]:
    """The hosts of ``spec``'s seats, printing moves (``verbose``) and protocol lines
    (``trace``) on stdout, or stderr with ``err``. Raises what :func:`make_host` raises."""
    labels = spec.labels

    def echo(line: str) -> None:
        click.echo(line, err=err)

    board = _Board(labels, echo)
    hosts: list[Host] = []
    for seat, seat_spec in enumerate(spec.seats):
        host = make_host(seat_spec, spec.limits, private=spec.private)
        if trace and hasattr(host, "trace"):
            host.trace = _tracer(labels[seat], echo)
        hosts.append(WatchedHost(host, seat, board) if verbose else host)
    return hosts


def _tracer(label: str, echo: Callable[[str], None]) -> Callable[[str, bytes], None]:
    def trace(direction: str, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\n")  # whole: what went over the wire
        arrow = "<<" if direction == "<" else ">>"
        echo(f"{label} {arrow} {text}")
    return trace
