"""SIGINT stops a command that runs until it is stopped as Ctrl-C does, however it started.

A shell starts a job in the background (``arena run CONFIG --serve 8000 &``, in a script or
any shell without job control) with SIGINT ignored, and Python installs its
``KeyboardInterrupt`` only over the default: ``kill -INT`` then did nothing, and the run
could only be killed, without its standings saved or its line on how to resume. A command
wrapped here turns SIGINT back into ``KeyboardInterrupt`` for its run, so that it takes the
one path Ctrl-C takes (the command's ``except KeyboardInterrupt``); the workers and the
report's builder still ignore it, as they do under Ctrl-C. To keep a background run from a
terminal's Ctrl-C, start it in a session of its own (``setsid``).
"""

from __future__ import annotations

import functools
import signal
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def interruptible(command: Callable[P, R]) -> Callable[P, R]:
    """``command``, with SIGINT raising ``KeyboardInterrupt`` while it runs where it found
    SIGINT ignored (in the main thread; the ignoring is put back when it ends)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if (threading.current_thread() is not threading.main_thread()
                or signal.getsignal(signal.SIGINT) is not signal.SIG_IGN):
            return command(*args, **kwargs)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            return command(*args, **kwargs)
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    return run
