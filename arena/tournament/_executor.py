"""Executors: where matches run. One interface, specs in, records out.

An executor takes an iterable of match specs (:class:`arena.referee.MatchSpec`) and
yields one record per spec, **in the order of the specs**, pulling specs
lazily and keeping only a bounded number in flight. Everything a match
needs is in its spec (its seed is derived from the tournament seed and the
match id), so a match runs the same in this process, in a worker process or
on another machine.

The local executor uses :class:`concurrent.futures.ProcessPoolExecutor`
rather than trio-parallel: the scheduler is a plain loop feeding a progress
display, and futures give a bounded, ordered window and cancellation in the
standard library, the same submit/result shape a cluster client has. Each
worker runs the trio referee (``arena.referee.run_match``), one match at a
time, in its own ``trio.run``.

Workers are forked on Linux when the scheduler has no other thread yet (the
runner starts them before its progress display): a forked worker is ready in
milliseconds, where a spawned one imports Python and arena afresh (about a
second, which is most of a small tournament). Elsewhere, or with threads
running (a notebook), they are spawned. Either way a worker starts with no
inherited ``atexit`` handlers and runs its own when it exits, so the referee
kills the bot processes it keeps.
"""

from __future__ import annotations

import atexit
import multiprocessing
import multiprocessing.util
import os
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, Protocol

from arena.records import SCHEMA

if TYPE_CHECKING:
    from arena.referee import MatchSpec

MatchFn = Callable[["MatchSpec"], dict[str, Any]]
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
    matches in flight, yield an error record (:func:`error_record`) for a
    match whose match function raised, raise :class:`MatchFailed` at the
    position of a match that could not be played at all, and cancel what is in flight when the
    iteration is closed early (``close()`` on the generator, an exception,
    Ctrl-C).
    """

    def run(self, specs: Iterable[MatchSpec]) -> Generator[dict[str, Any], None, None]:
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


def referee_match(spec: MatchSpec) -> dict[str, Any]:
    """The default match function: the trio referee, imported where the match runs."""
    from arena.referee import run_match

    return run_match(spec)


def error_record(spec: MatchSpec, exc: BaseException) -> dict[str, Any]:
    """The record of a match the referee itself failed to play (``"type": "error"``).

    It names the match, its seed and seats like a match record, and carries
    the error and its traceback; standings and ratings skip it, and a resumed
    run does not play it again (delete its line to retry it).
    """
    frame = traceback.extract_tb(exc.__traceback__)[-1:] or None
    where = f" ({frame[0].filename}:{frame[0].lineno})" if frame else ""
    return {
        "schema": SCHEMA,
        "type": "error",
        **spec.identity(),
        "seats": [{"seat": i, "label": seat.label} for i, seat in enumerate(spec.seats)],
        "error": f"{type(exc).__name__}: {exc}{where}",
        "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
    }


def play_outcome(match_fn: MatchFn, spec: MatchSpec) -> tuple[bool, Any]:
    """Run one match where it is played (a worker, a Dask task): ``(True, record)``, or
    ``(False, error record)`` when the match function raised; never a dead worker."""
    try:
        return True, match_fn(spec)
    except Exception as exc:
        return False, error_record(spec, exc)


def checked(spec: MatchSpec, ok: bool, value: Any) -> dict[str, Any]:
    """The record of an outcome (an error record when the match function failed), or
    MatchFailed when the match could not be played at all (``value`` says why) or the match
    function answered nonsense."""
    match_id = spec.match_id
    if not ok:
        if isinstance(value, dict):
            return value
        raise MatchFailed(match_id, str(value))
    if not isinstance(value, dict):
        raise MatchFailed(match_id, f"the record is a {type(value).__name__}, not a mapping")
    if value.get("match_id") != spec.match_id:
        raise MatchFailed(match_id, f"the record is of match {value.get('match_id')!r}")
    return value


Task = tuple[list["MatchSpec"], Any]
"""Specs submitted together, and the handle (a future) of their outcomes."""


def in_spec_order(
    submit: Callable[[], Task | None],
    outcomes: Callable[[Task], Sequence[tuple[bool, Any]]],
    cancel: Callable[[list[Any]], None],
    window: int,
) -> Generator[dict[str, Any], None, None]:
    """The ordered window every executor runs: records in spec order, ``window`` tasks in
    flight.

    ``submit`` submits the next task (None when the specs are exhausted); ``outcomes``
    waits for a task's ``(ok, value)`` per spec (raising MatchFailed or ClusterError when it
    cannot have them); ``cancel`` gets the handles still in flight when the iteration
    ends early (closed, an exception, Ctrl-C). After each task is collected one more is
    submitted, before its records are yielded, so workers stay busy while the caller
    writes.
    """
    pending: deque[Task] = deque()
    finished = False
    try:
        while len(pending) < window and (task := submit()) is not None:
            pending.append(task)
        while pending:
            task = pending.popleft()
            results = outcomes(task)
            more = submit()
            if more is not None:
                pending.append(more)
            for spec, (ok, value) in zip(task[0], results, strict=True):
                yield checked(spec, ok, value)
        finished = True
    finally:
        if not finished:
            cancel([handle for _, handle in pending])


def _worker_init() -> None:
    """Set a worker up to leave cleanly however the scheduler stops or dies.

    Ctrl-C reaches the whole process group, and only the scheduler handles it, so
    workers ignore SIGINT. SIGTERM (the scheduler stopping them) and the scheduler's
    death (a watchdog thread sees the parent change) end the worker at once through
    its own ``atexit`` handlers, where the referee kills the bot processes it keeps;
    bots busy in a match see their pipes close. Raising inside a running match instead
    would reach trio's run loop, and concurrent.futures would even send it back as a
    result and keep the worker alive. A forked worker drops the handlers it inherited,
    and runs its own on a normal exit from multiprocessing's exit hook (fork children
    leave with ``os._exit``, which skips ``atexit``).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _forked:
        atexit._clear()
        multiprocessing.util.Finalize(None, atexit._run_exitfuncs, exitpriority=0)
    signal.signal(signal.SIGTERM, lambda *_: _die(143))
    parent = os.getppid()
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _die(status: int) -> None:
    try:
        atexit._run_exitfuncs()
    finally:
        os._exit(status)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    _die(1)


_forked = False


def fork_worker_init() -> None:
    """The initializer of a forked pool's workers (the tournament's, the report's): they
    ignore Ctrl-C and end when their parent does, however it ends (killed too)."""
    global _forked
    _forked = True
    _worker_init()


def _start_method() -> str:
    """``fork`` when it is safe and available (Linux, no other thread), else ``spawn``."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


class SerialExecutor:
    """Runs matches one after the other in this process (``jobs: 1``)."""

    def __init__(self, match_fn: MatchFn = referee_match) -> None:
        self.match_fn = match_fn

    def run(self, specs: Iterable[MatchSpec]) -> Generator[dict[str, Any], None, None]:
        """Yield one record per spec, in order."""
        for spec in specs:
            yield checked(spec, *play_outcome(self.match_fn, spec))

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
            method = _start_method()
            self._pool = ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=multiprocessing.get_context(method),
                initializer=fork_worker_init if method == "fork" else _worker_init,
            )
        return self._pool

    def start(self) -> None:
        """Start the workers now (before the caller starts threads, so they can be forked)."""
        if self.jobs > 1:
            pool = self._workers()
            for future in [pool.submit(os.getpid) for _ in range(self.jobs)]:
                future.result()

    def close(self) -> None:
        """Let the workers finish and exit (they kill their bot processes on the way)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, specs: Iterable[MatchSpec]) -> Generator[dict[str, Any], None, None]:
        """Yield one record per spec, in order."""
        if self.jobs == 1:
            yield from SerialExecutor(self.match_fn).run(specs)
            return
        pool = self._workers()
        source = iter(specs)

        def submit() -> Task | None:
            spec = next(source, None)
            if spec is None:
                return None
            return [spec], pool.submit(play_outcome, self.match_fn, spec)

        def outcomes(task: Task) -> list[tuple[bool, Any]]:
            try:
                return [task[1].result()]
            except BrokenProcessPool:
                raise MatchFailed(
                    task[0][0].match_id, "a worker process died (killed, or out of memory)"
                ) from None

        def cancel(futures: list[Any]) -> None:
            self._pool = None
            _stop(pool, futures)

        yield from in_spec_order(submit, outcomes, cancel, self.window)


STOP_S = 1.0
"""How long stopped workers have, together, to leave by themselves (killing the bot processes
they keep) before they are killed."""


def _stop(pool: ProcessPoolExecutor, futures: list[Future[Any]]) -> None:
    """Stop at once: drop queued matches and end the workers playing the others, all within
    ``STOP_S`` (Ctrl-C is answered in that time however long a match goes on)."""
    for future in futures:
        future.cancel()
    workers = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers.values():
        if worker.is_alive():
            worker.terminate()
    deadline = time.monotonic() + STOP_S
    for worker in workers.values():
        worker.join(timeout=max(0.0, deadline - time.monotonic()))
    for worker in workers.values():
        if worker.is_alive():
            worker.kill()
            worker.join(timeout=STOP_S)
