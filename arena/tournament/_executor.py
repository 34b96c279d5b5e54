"""Executors: where matches run. One interface, specs in, records out.

An executor takes an iterable of match specs (plain JSON-ready dicts) and
yields one record per spec, **in the order of the specs**, pulling specs
lazily and keeping only a bounded number in flight. Everything a match
needs is in its spec (its seed is derived from the tournament seed and the
match id), so a match runs the same in this process, in a worker process or
on another machine.

The local executor uses :class:`concurrent.futures.ProcessPoolExecutor`
with the ``spawn`` start method: futures give a bounded, ordered window and
cancellation in the standard library, the same submit/result shape a
cluster client has; ``spawn`` behaves the same on every OS, inherits no
threads or open files from the scheduler, and runs ``atexit`` handlers in
the workers so the referee can kill the bot processes it keeps. Each worker
runs the trio referee (``arena.referee.run_match``) one match at a time.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol

MatchFn = Callable[[dict[str, Any]], dict[str, Any]]
"""Plays one match spec and returns its record (``arena.referee.run_match``)."""


class MatchFailed(RuntimeError):
    """The match function raised: a bug or an unplayable spec, not a bot's fault."""

    def __init__(self, match_id: str, message: str) -> None:
        self.match_id = match_id
        self.message = message
        super().__init__(f"match {match_id} failed: {message}")


class Executor(Protocol):
    """Runs match specs and yields their records in spec order.

    Implementations must pull ``specs`` lazily, keep a bounded number of
    matches in flight, raise :class:`MatchFailed` at the position of a match
    that could not be played, and cancel what is in flight when the
    iteration is closed early (``close()`` on the generator, an exception,
    Ctrl-C).
    """

    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """Yield one record per spec, in order."""
        ...

    def close(self) -> None:
        """Release workers (the runner calls it once the tournament is over)."""
        ...


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def referee_match(spec: dict[str, Any]) -> dict[str, Any]:
    """The default match function: the trio referee, imported where the match runs."""
    from arena.referee import run_match

    return run_match(spec)


def _play(match_fn: MatchFn, spec: dict[str, Any]) -> tuple[bool, Any]:
    """Run one match in a worker; failures come back as data, never as a dead worker."""
    try:
        return True, match_fn(spec)
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1:] or None
        where = f" ({frame[0].filename}:{frame[0].lineno})" if frame else ""
        return False, f"{type(exc).__name__}: {exc}{where}"


def _run_one(match_fn: MatchFn, spec: dict[str, Any]) -> dict[str, Any]:
    ok, value = _play(match_fn, spec)
    if not ok:
        raise MatchFailed(str(spec.get("match_id")), value)
    if not isinstance(value, dict):
        raise MatchFailed(str(spec.get("match_id")), f"record is {type(value).__name__}")
    return value


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group: only the scheduler handles it, so workers
    # ignore SIGINT; SIGTERM (the scheduler stopping them) exits through atexit, where the
    # referee kills the bot processes it keeps.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


class SerialExecutor:
    """Runs matches one after the other in this process (``jobs: 1``)."""

    def __init__(self, match_fn: MatchFn = referee_match) -> None:
        self.match_fn = match_fn

    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """Yield one record per spec, in order."""
        for spec in specs:
            yield _run_one(self.match_fn, spec)

    def close(self) -> None:
        """Nothing to release."""


class LocalExecutor:
    """Runs matches in ``jobs`` worker processes on this machine.

    ``match_fn`` must be importable by name (a module-level function), since
    workers are started fresh. ``window`` bounds the matches in flight
    (default ``4 * jobs``): memory stays flat however many matches there are.
    The workers live from the first :meth:`run` to :meth:`close`, so Swiss
    rounds reuse them.
    """

    def __init__(
        self, jobs: int | None = None, match_fn: MatchFn = referee_match, window: int | None = None
    ) -> None:
        self.jobs = jobs or default_jobs()
        self.match_fn = match_fn
        self.window = window or 4 * self.jobs
        self._pool: ProcessPoolExecutor | None = None

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
            )
        return self._pool

    def close(self) -> None:
        """Let the workers finish and exit (they kill their bot processes on the way)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """Yield one record per spec, in order."""
        if self.jobs == 1:
            yield from SerialExecutor(self.match_fn).run(specs)
            return
        pool = self._workers()
        pending: deque[tuple[dict[str, Any], Future[tuple[bool, Any]]]] = deque()
        source = iter(specs)
        finished = False
        try:
            for spec in source:
                pending.append((spec, pool.submit(_play, self.match_fn, spec)))
                if len(pending) >= self.window:
                    break
            while pending:
                spec, future = pending.popleft()
                ok, value = future.result()
                next_spec = next(source, None)
                if next_spec is not None:
                    pending.append((next_spec, pool.submit(_play, self.match_fn, next_spec)))
                if not ok:
                    raise MatchFailed(str(spec.get("match_id")), value)
                yield value
            finished = True
        finally:
            if not finished:
                self._pool = None
                _stop(pool, [future for _, future in pending])


def _stop(pool: ProcessPoolExecutor, futures: list[Future[Any]]) -> None:
    """Stop at once: drop queued matches and end the workers playing the others."""
    for future in futures:
        future.cancel()
    processes = list(getattr(pool, "_processes", None) or {})
    workers = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for pid in processes:
        worker = workers.get(pid)
        if worker is not None and worker.is_alive():
            worker.terminate()
    for worker in workers.values():
        worker.join(timeout=5)
        if worker.is_alive():
            worker.kill()
