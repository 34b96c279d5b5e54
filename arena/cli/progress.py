"""The house's progress of matches: elapsed time, time left and a smoothed rate, labelled.

:class:`RateMeter` does the arithmetic for both displays: the live bar on a terminal
(:class:`RunProgress`, fitted to the terminal's width) and, without a terminal (a log file,
CI), a plain line every few seconds or every tenth of the run (:class:`LineReporter`).
``arena run``, ``arena ab`` and ``arena ratings`` draw them, and ``python -m arena.train``
draws the same bar through :func:`progress_bar`: this module is the commands' public face of
progress, the one bar of both.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
)
from rich.table import Column, Table
from rich.text import Text

from arena.tournament import Reporter, Standings

if TYPE_CHECKING:
    from rich.progress import TaskID

    from arena.ratings import SprtStatus
    from arena.tournament import LeagueStatus

__all__ = ["BAR_WIDTH", "Clock", "LineReporter", "MatchBar", "RateMeter", "RunProgress",
           "TimingColumn", "clock_text", "plan_lines", "progress_bar", "sprt_line"]

Clock = Callable[[], float]


def clock_text(seconds: float | None) -> str:
    """``H:MM:SS``, or ``-:--:--`` when unknown."""
    if seconds is None:
        return "-:--:--"
    whole = max(0, round(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class RateMeter:
    """Matches per second of this run over the last ``window`` seconds.

    No rate is given before ``warmup`` seconds and a first finished match: the first
    matches of a run often finish together (all workers start at once), and a rate from
    them alone reads as thousands per second. The rate is measured up to now, not to the
    last match, so it falls while nothing finishes.
    """

    def __init__(self, clock: Clock = time.monotonic, *, window: float = 30.0,
                 warmup: float = 2.0) -> None:
        self.clock = clock
        self.window = window
        self.warmup = warmup
        self.started = clock()
        self.done = 0
        self._samples: deque[tuple[float, int]] = deque([(self.started, 0)])

    def start(self, done: int) -> None:
        """The run begins with ``done`` matches already recorded (they do not count)."""
        self.started = self.clock()
        self.done = done
        self._samples = deque([(self.started, done)])

    def update(self, done: int) -> None:
        """``done`` matches are recorded now."""
        now = self.clock()
        self.done = done
        self._samples.append((now, done))
        while len(self._samples) > 2 and self._samples[1][0] <= now - self.window:
            self._samples.popleft()

    def elapsed(self) -> float:
        """Seconds since the run began."""
        return self.clock() - self.started

    def rate(self) -> float | None:
        """Matches per second, or None while too little is known."""
        now = self.clock()
        since, done_then = self._samples[0]
        if now - self.started < self.warmup or self.done == done_then or now <= since:
            return None
        return (self.done - done_then) / (now - since)

    def remaining(self, total: int) -> float | None:
        """Seconds left at the current rate, or None while the rate is unknown."""
        if self.done >= total:
            return 0.0
        rate = self.rate()
        return None if not rate else (total - self.done) / rate

    def describe(self, total: int | None, width: int | None = None) -> str:
        """``elapsed 0:01:24  left 0:00:40  21.3 matches/s``; no time left without a total
        (a league, whose length is not known in advance). Within ``width`` characters the
        elapsed time goes first, then the rate."""
        rate = self.rate()
        parts = [f"elapsed {clock_text(self.elapsed())}"]
        if total is not None:
            parts.append(f"left {clock_text(self.remaining(total))}")
        parts.append("-- matches/s" if rate is None else f"{rate:,.1f} matches/s")
        text = "  ".join(parts)
        while width is not None and len(text) > width and len(parts) > 1:
            parts.pop(0 if len(parts) == 3 or total is None else 1)
            text = "  ".join(parts)
        return text


class TimingColumn(ProgressColumn):
    """The rich progress bar's column of elapsed time, time left and rate, labelled, in
    ``width`` characters when set (:class:`RunProgress` sets it)."""

    def __init__(self, meter: RateMeter) -> None:
        super().__init__(table_column=Column(no_wrap=True, overflow="ellipsis"))
        self.meter = meter
        self.width: int | None = None

    def render(self, task: Task) -> Text:
        total = int(task.total) if task.total is not None else None
        return Text(self.meter.describe(total, self.width), style="cyan")


BAR_WIDTH = 40
"""The bar's width where the console has room for it and the whole timing text."""
_MIN_BAR = 10
_LEFT = len("left 0:00:00")
"""The shortest timing text: the name is cut to leave room for it."""


class RunProgress(Progress):
    """The live bar of a run (name, bar, done of total, timing) on one line of the console:
    where it is narrow the bar shrinks, then goes, then the timing drops the elapsed time,
    then the rate, and a long name is cut (to leave room for the time left). It never
    wraps. ``transient``: the bar is taken away when it stops (drawn on its own, not in a
    live display of its own caller)."""

    def __init__(self, meter: RateMeter, console: Console, *, transient: bool = False) -> None:
        self._width_of = console  # self.console is not there yet when rich first renders
        self.timing = TimingColumn(meter)
        self.bar = BarColumn(bar_width=BAR_WIDTH)
        self._name = TextColumn("[bold]{task.description}",
                                table_column=Column(no_wrap=True, overflow="ellipsis"))
        self._count = MofNCompleteColumn(table_column=Column(no_wrap=True))
        super().__init__(self._name, self.bar, self._count, self.timing, console=console,
                         transient=transient)

    def make_tasks_table(self, tasks: Iterable[Task]) -> Table:
        tasks = list(tasks)
        width = self._width_of.width
        room, name_room, full = width, width, 0
        for task in tasks:
            total = int(task.total) if task.total is not None else None
            count = len(f"{task.completed:.0f}/{'?' if total is None else total}")
            name_room = min(name_room, max(4, width - count - 2 - _LEFT))
            name = min(len(task.description), name_room)
            room = min(room, width - name - count - 2)
            full = max(full, len(self.timing.meter.describe(total)))
        bar = min(BAR_WIDTH, room - full - 1)
        columns: list[ProgressColumn] = [self._name, self.bar, self._count, self.timing]
        if bar >= _MIN_BAR:
            self.bar.bar_width, self.timing.width = bar, None
        else:
            columns.remove(self.bar)
            self.timing.width = max(0, room)
        self._name.get_table_column().max_width = name_room
        self.columns = tuple(columns)
        return super().make_tasks_table(tasks)


def plan_lines(total: int, done: int, jobs: int, *, bounded: bool) -> list[str]:
    """What a run will do, as its first lines say it. ``total`` is 0 for a format whose
    matches are chosen round by round (a league: its rounds' lines follow); ``bounded``
    when the format may stop short of it (``TournamentFormat.bounded``: an sprt test)."""
    if not total and not bounded:
        lines = [f"resuming: {done} matches already recorded"] if done else []
        return [*lines, f"matches chosen round by round, on {jobs} worker(s)"]
    lines = [f"resuming: {done} of {total} matches already recorded"] if done else []
    most = "at most " if bounded else ""
    return [*lines, f"{most}{total} matches on {jobs} worker(s)"]


class LineReporter(Reporter):
    """Without a terminal: one plain progress line every ``every_s`` seconds or tenth."""

    def __init__(self, console: Console, name: str, *, bounded: bool = False,
                 every_s: float = 5.0, clock: Clock = time.monotonic) -> None:
        self.console = console
        self.name = name
        self.bounded = bounded
        self.every_s = every_s
        self.clock = clock
        self.meter = RateMeter(clock)
        self.total = 0
        self.status: SprtStatus | None = None
        self._last_time = 0.0
        self._last_tenth = 0
        self._league_time: float | None = None  # when the league's line was last printed

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        """Say what the run will do, as the live display does."""
        self.total = total
        self.meter.start(done)
        self._last_time = self.clock()
        self._last_tenth = self._tenth(done)
        for line in plan_lines(total, done, jobs, bounded=self.bounded):
            self.console.print(line)

    def sprt(self, status: SprtStatus) -> None:
        """Keep the test's latest status for the next line."""
        self.status = status

    def league(self, status: LeagueStatus) -> None:
        """Print the league's state (round, deals, the stopping rule's): at its first round,
        then at most every ``every_s`` seconds (a league of short rounds would write one line
        a round into the log), and when it stops."""
        now = self.clock()
        if self._league_time is None or now - self._league_time >= self.every_s or (
                status.stop is not None):
            self._league_time = now
            self.console.print(f"{self.name}: {status.line()}", soft_wrap=True,
                               highlight=False)

    def note(self, line: str) -> None:
        """Print the line."""
        self.console.print(line, soft_wrap=True, highlight=False)

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        """Count the match; print a line when the time or a new tenth has come."""
        self.meter.update(self.meter.done + 1)
        now, tenth = self.clock(), self._tenth(self.meter.done)
        if now - self._last_time >= self.every_s or tenth > self._last_tenth:
            self._last_time, self._last_tenth = now, tenth
            self.console.print(self.line(), soft_wrap=True, highlight=False)

    def line(self) -> str:
        """``demo: 120/1800 matches (6.7%)  elapsed ...  left ...  rate``."""
        if self.total:
            share = self.meter.done / self.total
            text = (f"{self.name}: {self.meter.done}/{self.total} matches ({share:.1%})  "
                    f"{self.meter.describe(self.total)}")
        else:  # a league: its matches are chosen round by round
            text = f"{self.name}: {self.meter.done} matches  {self.meter.describe(None)}"
        if self.status is not None:
            text += f"  {sprt_line(self.status)}"
        return text

    def _tenth(self, done: int) -> int:
        return done * 10 // self.total if self.total else 10


def sprt_line(status: SprtStatus) -> str:
    """The test's progress: sets, the LLR between its bounds, the estimate so far."""
    line = (
        f"SPRT  set {status.sets}  LLR {status.llr:+.3f} in [{status.lower:+.3f}, "
        f"{status.upper:+.3f}]"
    )
    if status.sets:
        line += (
            f"  elo {status.elo:+.1f} [{status.elo_low:+.1f}, {status.elo_high:+.1f}]"
        )
    return line


class MatchBar:
    """The bar of a stage that plays a known number of matches (``python -m arena.train``'s
    improvement), on ``console``: drawn when first told of a match, taken away when all are
    played or at :meth:`stop`. A :class:`RunProgress`, so it fits a narrow terminal as
    ``arena run``'s does."""

    def __init__(self, console: Console, echo: Callable[[str], None]) -> None:
        self.console = console
        self.echo = echo
        self.meter = RateMeter()
        self.progress: RunProgress | None = None
        self.task: TaskID | None = None

    def line(self, text: str) -> None:
        """A line of the stage: above the bar while it is drawn, through ``echo`` otherwise."""
        if self.progress is not None:
            self.console.print(text, soft_wrap=True, highlight=False)
        else:
            self.echo(text)

    def __call__(self, done: int, total: int, what: str) -> None:
        """``done`` of the ``total`` matches planned are played; ``what`` is being done."""
        if self.progress is None:
            if done >= total:
                return
            self.meter.start(done - 1)  # rates and time left count this run's matches only
            self.progress = RunProgress(self.meter, self.console, transient=True)
            self.task = self.progress.add_task(what, total=total, completed=done - 1)
            self.progress.start()
        assert self.task is not None
        self.meter.update(done)
        self.progress.update(self.task, completed=done, total=max(total, done),
                             description=what)
        if done >= total:
            self.stop()

    def stop(self) -> None:
        """Take the bar away."""
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


@contextmanager
def progress_bar(echo: Callable[[str], None], *, out: Console | None = None,
                 err: Console | None = None) -> Iterator[
                     tuple[Callable[[str], None], MatchBar | None]]:
    """``(line, bar)`` for a stage whose lines go through ``echo`` (stdout): where ``out``
    and ``err`` (the consoles of stdout and stderr) are terminals, a :class:`MatchBar` on
    ``err``, the lines printed above it through ``line`` while it is drawn; elsewhere (a log
    file, a pipe) ``echo`` and no bar, each of the stage's lines being its progress."""
    out = out if out is not None else Console()
    err = err if err is not None else Console(stderr=True)
    if not (out.is_terminal and err.is_terminal):
        yield echo, None
        return
    bar = MatchBar(err, echo)
    try:
        yield bar.line, bar
    finally:
        bar.stop()
