"""A child process of the server's, at a lower priority, that answers a line with a line.

The server's long computations (the standings' fits under ``arena run --serve``, the report's
builds) are done by a child process each, started at the first request and kept (its imports
once), at a lower priority: the server's process goes on answering meanwhile, and the run
beside it (its runner and workers) comes first for the machine's cores. A child ignores Ctrl-C
(the server ends it) and ends when its input closes (the server gone). Its code writes a first
line once it is ready (its imports done): :meth:`Child.ready` says so without waiting.
"""

from __future__ import annotations

import select
import subprocess
import sys
import threading

__all__ = ["NICE", "Child"]

NICE = 10
"""How much lower a child's priority is than the server's."""

_PRELUDE = f"import os, signal; signal.signal(signal.SIGINT, signal.SIG_IGN); os.nice({NICE})\n"


class Child:
    """``python -c CODE ARGS`` at a lower priority, started by :meth:`start` or the first
    :meth:`ask`: ``CODE`` writes a line once ready, then reads a request a line from its input
    and writes one line for each. :meth:`ask` blocks: call it in a thread."""

    def __init__(self, code: str, *args: str) -> None:
        self.code = _PRELUDE + code
        self.args = args
        self.process: subprocess.Popen[str] | None = None
        self.status: int | None = None
        """The exit status of the last child that ended (negative: killed by that signal)."""
        self._lock = threading.Lock()
        self._ready = False

    def start(self) -> subprocess.Popen[str]:
        """Start the child unless it runs (it gets ready meanwhile); the process."""
        child = self.process
        if child is None or child.poll() is not None:
            child = self.process = subprocess.Popen(
                [sys.executable, "-c", self.code, *self.args], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self._ready = False
        return child

    def ready(self) -> bool:
        """Whether the child runs and is ready, its first line written (never waits)."""
        child = self.process
        if child is None or child.stdout is None or child.poll() is not None:
            return False
        if not self._ready and select.select([child.stdout], [], [], 0)[0]:
            self._ready = child.stdout.readline() == "\n"
        return self._ready

    def ask(self, line: str) -> str | None:
        """The child's answer to ``line`` (without its newline), or None when the child
        ended instead (killed by :meth:`close`, or dead: the next request starts another).
        A child not ready yet is waited for."""
        with self._lock:
            child = self.start()
            assert child.stdin is not None and child.stdout is not None
            try:
                if not self._ready:
                    self._ready = child.stdout.readline() == "\n"
                child.stdin.write(line + "\n")
                child.stdin.flush()
                answer = child.stdout.readline()
            except (OSError, ValueError):  # its pipes closed: it was killed
                answer = ""
            if not answer.endswith("\n"):
                self.status = child.wait()
                return None
            return answer[:-1]

    def close(self) -> None:
        """End the child, if any (a request it answers now gets None)."""
        child, self.process = self.process, None
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
