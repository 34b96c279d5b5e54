"""The progress bar of ``python -m arena.train``'s improvement stage, on a terminal.

rich's bar (imported when it is first drawn) on stderr: the matches played of those
planned, the elapsed time and the time left; the stage's lines are printed above it.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from rich.progress import Progress

__all__ = ["progress_bar"]


class _Bar:
    """Draws itself when first told of a match; stops when all are played, or at
    :meth:`stop`."""

    def __init__(self, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.progress: Progress | None = None
        self.task: Any = None

    def line(self, text: str) -> None:
        """A line of the run, above the bar while it is drawn."""
        if self.progress is not None:
            self.progress.console.print(text, soft_wrap=True, highlight=False)
        else:
            self.echo(text)

    def __call__(self, done: int, total: int, what: str) -> None:
        if self.progress is None:
            if done >= total:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("matches"), TimeElapsedColumn(), TextColumn("left"),
                TimeRemainingColumn(), console=Console(stderr=True), transient=True)
            self.task = self.progress.add_task(what, total=total, completed=done - 1)
            self.progress.start()
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
def progress_bar(echo: Callable[[str], None]) -> Iterator[tuple[Callable[[str], None],
                                                                 Callable[[int, int, str], None]
                                                                 | None]]:
    """``(line, bar)``: where stdout and stderr are a terminal, a bar on stderr (the lines
    printed above it through ``line`` while it is drawn, through ``echo`` otherwise);
    elsewhere (a log file) ``echo`` and no bar, each step's line being its progress."""
    if not (sys.stdout.isatty() and sys.stderr.isatty()):
        yield echo, None
        return
    bar = _Bar(echo)
    try:
        yield bar.line, bar
    finally:
        bar.stop()
