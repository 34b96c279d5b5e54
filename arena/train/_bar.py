"""The progress bar of ``python -m arena.train``'s improvement stage, on a terminal.

The bar is :class:`arena.cli._progress.RunProgress` (the bar of ``arena run``: matches done
of those planned, elapsed time, time left, matches a second), drawn by rich on stderr; the
stage's lines are printed above it. rich is imported when the bar is first drawn.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from rich.console import Console
    from rich.live import Live

    from arena.cli._progress import RateMeter, RunProgress

__all__ = ["progress_bar"]


class _Bar:
    """Draws itself when first told of a match; stops when all are played, or at
    :meth:`stop`."""

    def __init__(self, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.console: Console | None = None
        self.live: Live | None = None
        self.meter: RateMeter | None = None
        self.progress: RunProgress | None = None
        self.task: Any = None

    def line(self, text: str) -> None:
        """A line of the run, above the bar while it is drawn."""
        if self.live is not None and self.console is not None:
            self.console.print(text, soft_wrap=True, highlight=False)
        else:
            self.echo(text)

    def __call__(self, done: int, total: int, what: str) -> None:
        if self.live is None and done >= total:
            return
        if self.progress is None:
            from rich.console import Console
            from rich.live import Live

            from arena.cli._progress import RateMeter, RunProgress

            self.console = Console(stderr=True)
            self.meter = RateMeter()
            self.meter.start(done - 1)
            self.progress = RunProgress(self.meter, self.console)
            self.task = self.progress.add_task(what, total=total, completed=done - 1)
            self.live = Live(self.progress, console=self.console, refresh_per_second=4,
                             transient=True)
            self.live.start()
        assert self.meter is not None
        self.meter.update(done)
        self.progress.update(self.task, completed=done, total=max(total, done),
                             description=what)
        if done >= total:
            self.stop()

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


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
