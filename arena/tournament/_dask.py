"""The Dask executor: matches on a Dask cluster, records back to the machine running the run.

Dask distributed (the ``dask`` extra) schedules tasks on workers that may sit on other
machines; this executor only feeds it. Each task plays a batch of consecutive specs with
the match function and returns their outcomes as data, like a local worker does, and
the executor yields the records in spec order with a bounded window of tasks in flight,
so :func:`arena.tournament.run_tournament` writes, resumes and reports exactly as with
the local executor. A task carries only its specs (plain dicts of a few hundred bytes)
and a reference to the match function, never the schedule or the config.

Tasks are impure (``pure=False``: two plays of one spec are two tasks). When a worker
dies, the scheduler hands its tasks in flight to another worker (up to Dask's
``distributed.scheduler.allowed-failures``, 3 by default); a task that raises on a
worker is run again ``retries`` times. A match's seed is in its spec, so a match played
again gives the same record. A scheduler that goes away ends the iteration with
:class:`ClusterError`; the records already yielded are kept by the runner.

Before a worker plays its first match with a given seat, it checks it can start that
bot (the registered bot is installed, the command's program exists there): otherwise
the match fails with a line naming the worker and the bot, rather than being recorded
as the bot's crash.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import ipaddress
import logging
import re
import signal
import threading
from collections.abc import Generator, Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

from arena.tournament._dask_ship import shipped_folder
from arena.tournament._dask_tasks import named_files, play_batch
from arena.tournament._executor import (
    MatchFailed,
    MatchFn,
    Task,
    default_jobs,
    in_spec_order,
    referee_match,
)

if TYPE_CHECKING:
    from arena.referee import MatchSpec

LOCAL = "local"
"""``--dask local[:N]``: a LocalCluster of N worker processes on this machine."""


class ClusterError(RuntimeError):
    """The Dask cluster cannot be reached or went away; what was recorded is kept."""


def parse_address(address: str) -> tuple[str | None, int | None]:
    """``(scheduler address, None)``, or ``(None, N)`` for ``local[:N]`` (N None: one per core).

    Raises ValueError for ``local:`` followed by anything but a positive number, and for a
    TCP or TLS scheduler address without its port, with a port above 65535, or with a host
    that is neither a name, an IPv4 address nor an IPv6 address in brackets.
    """
    address = address.strip()
    if address == LOCAL:
        return None, None
    if address.startswith(LOCAL + ":"):
        count = address[len(LOCAL) + 1 :]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"'local:N' needs a positive number of workers, not {count!r}")
        return None, int(count)
    if not address:
        raise ValueError("the Dask scheduler address is empty")
    scheme, sep, rest = address.rpartition("://")
    if sep and scheme not in ("tcp", "tls"):
        return address, None  # another of distributed's transports: its own to check
    # distributed would fail on these deep in its client, after a 40 s wait to close
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit():
        raise ValueError("no port given (a scheduler is tcp://HOST:PORT; or local[:N])")
    if int(port) > 65535:
        raise ValueError(f"port {port} is above 65535")
    problem = _host_problem(host)
    if problem is not None:
        raise ValueError(f"{problem} (a scheduler is tcp://HOST:PORT, an IPv6 host in "
                         "brackets: tcp://[::1]:8786)")
    return address, None


def _host_problem(host: str) -> str | None:
    """Why ``host`` (of HOST:PORT) is no host name or address, or None."""
    if host.startswith("[") or host.endswith("]"):
        try:
            ipaddress.IPv6Address(host[1:-1] if host[:1] + host[-1:] == "[]" else "")
        except ValueError:
            return f"{host!r} is not an IPv6 address in brackets"
        return None
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", host):
        return f"{host!r} is not a host name or IPv4 address"
    return None


class DaskExecutor:
    """Runs match specs on a Dask cluster and yields their records in spec order.

    ``address`` is a scheduler (``tcp://host:8786``, ``tls://...``) or ``local[:N]``,
    which starts a :class:`distributed.LocalCluster` of N single-threaded worker
    processes (default: one per core) that lives until :meth:`close`. ``batch`` specs
    go in one task (Dask spends milliseconds on each task); by default (None) the batch
    grows from 1 until a task plays about ``task_s`` seconds of matches, measured on the
    workers, at most :data:`MAX_BATCH`. ``window`` bounds the tasks
    in flight (default: four per worker thread); ``retries`` is passed to
    ``Client.submit``. ``match_fn`` must pickle (a module-level function, or a
    ``functools.partial`` of one).
    """

    def __init__(
        self,
        address: str,
        *,
        match_fn: MatchFn = referee_match,
        batch: int | None = None,
        task_s: float = 0.2,
        retries: int = 2,
        window: int | None = None,
        connect_timeout_s: float = 20.0,
    ) -> None:
        self.address = address.strip()
        self.scheduler, self.local_workers = parse_address(address)
        if batch is not None and batch < 1:
            raise ValueError("batch must be at least 1")
        self.match_fn = match_fn
        self.batch = batch
        self.task_s = task_s
        self.retries = retries
        self.window = window
        self.connect_timeout_s = connect_timeout_s
        self._client: Any = None
        self._cluster: Any = None
        self._log_levels: dict[str, int] = {}
        self._files: dict[str, list[str]] = {}
        self._shipped: dict[str, tuple[str, str, Any] | None] = {}

    @property
    def jobs(self) -> int:
        """Worker threads of the cluster (matches played at once); starts it if needed."""
        self.start()
        threads: dict[str, int] = self._client.nthreads()
        return max(1, sum(threads.values()))

    def start(self) -> None:
        """Connect to the scheduler, or start the local cluster (once)."""
        if self._client is not None:
            return
        try:
            # Any: distributed's constructors are untyped
            dist: Any = importlib.import_module("distributed")
        except ImportError:
            raise ClusterError(
                "the Dask executor needs Dask distributed: pip install 'arena-president[dask]'"
            ) from None
        self._log_levels = _quiet_dask_logs()
        try:
            if self.scheduler is None:
                self._start_local(dist)
            else:
                self._client = dist.Client(
                    self.scheduler, timeout=self.connect_timeout_s, set_as_default=False
                )
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: {_reason(exc)}"
            ) from None
        client: Any = self._client
        if self.scheduler is not None and not client.nthreads():
            try:
                client.wait_for_workers(1, timeout=self.connect_timeout_s)
            except (OSError, TimeoutError):
                self.close()
                raise ClusterError(
                    f"no Dask worker joined the scheduler at {self.address} within "
                    f"{self.connect_timeout_s:g} s (start some with `dask worker {self.address}`)"
                ) from None

    def _start_local(self, dist: Any) -> None:
        from arena.tournament._dask_worker import IgnoreCtrlC  # imports distributed

        workers = self.local_workers or default_jobs()
        try:
            with _workers_ignore_ctrl_c():
                self._cluster = dist.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # a free port: its HTTP server always starts
                    silence_logs=logging.CRITICAL,
                )
            self._client = dist.Client(self._cluster, set_as_default=False)
            self._client.register_plugin(IgnoreCtrlC())
        except Exception as exc:  # a worker process that failed to start, a port...
            self.close()
            raise ClusterError(
                f"cannot start a local Dask cluster of {workers} worker(s): {_reason(exc)}"
            ) from None

    def close(self) -> None:
        """Disconnect; a local cluster is shut down (its workers kill their bots on exit)."""
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        for thing in (client, cluster):
            if thing is not None:
                # a scheduler already gone: nothing left to release
                with contextlib.suppress(Exception):
                    thing.close()
        for name, level in self._log_levels.items():
            logging.getLogger(name).setLevel(level)
        self._log_levels = {}

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, specs: Iterable[MatchSpec]) -> Generator[dict[str, Any], None, None]:
        """Yield one record per spec, in order."""
        self.start()
        client = self._client
        source = iter(specs)
        size = [self.batch or 1]
        played, busy = [0], [0.0]

        def submit() -> Task | None:
            chunk = list(islice(source, size[0]))
            if not chunk:
                return None
            try:
                future = client.submit(
                    play_batch, self.match_fn, chunk, self._files_of(chunk),
                    self._shipped_of(chunk), pure=False, retries=self.retries,
                )
            except Exception as exc:
                raise self._lost(exc) from None
            return chunk, future

        def outcomes(task: Task) -> list[tuple[bool, Any]]:
            chunk, future = task
            results, seconds = self._result(chunk, future)
            if self.batch is None:
                played[0] += len(chunk)
                busy[0] += seconds
                size[0] = _batch_for(self.task_s, busy[0] / played[0])
            return results

        def cancel(futures: list[Any]) -> None:
            if futures:
                with contextlib.suppress(Exception):  # a scheduler gone: nothing to cancel
                    client.cancel(futures)

        yield from in_spec_order(submit, outcomes, cancel, self.window or 4 * self.jobs)

    def _files_of(self, chunk: list[MatchSpec]) -> dict[str, list[str]]:
        """The files the chunk's commands name that exist here: workers must have them too."""
        files: dict[str, list[str]] = {}
        for spec in chunk:
            for seat in spec.seats:
                command = seat.command
                if isinstance(command, str):
                    if command not in self._files:
                        self._files[command] = named_files(command)
                    if self._files[command]:
                        files[command] = self._files[command]
        return files

    def _shipped_of(self, chunk: list[MatchSpec]) -> dict[str, tuple[str, Any]]:
        """The shipped folders the chunk's commands run from (:mod:`._dask_ship`: a
        competition's entries): each folder, and its tar's hash and bytes, scattered to the
        cluster once (a worker fetches them through the scheduler, then keeps the folder)."""
        shipped: dict[str, tuple[str, Any]] = {}
        for spec in chunk:
            for seat in spec.seats:
                command = seat.command
                if not isinstance(command, str):
                    continue
                if command not in self._shipped:
                    self._shipped[command] = self._scatter(command)
                found = self._shipped[command]
                if found is not None:
                    shipped[found[0]] = (found[1], found[2])
        return shipped

    def _scatter(self, command: str) -> tuple[str, str, Any] | None:
        found = shipped_folder(command)
        if found is None:
            return None
        folder, packed = found
        data = packed.read_bytes()
        future = self._client.scatter(data, hash=False)
        return folder, hashlib.sha256(data).hexdigest(), future

    def _result(
        self, chunk: list[MatchSpec], future: Any
    ) -> tuple[list[tuple[bool, Any]], float]:
        from distributed.scheduler import KilledWorker

        try:
            result: tuple[list[tuple[bool, Any]], float] = future.result()
            return result
        except KilledWorker:
            what = "it" if len(chunk) == 1 else f"its task ({len(chunk)} matches from this one)"
            raise MatchFailed(
                chunk[0].match_id,
                f"the Dask workers playing {what} died each time (killed, or out of memory)",
            ) from None
        except Exception as exc:
            if future.status == "error":
                raise MatchFailed(chunk[0].match_id, _reason(exc)) from None
            raise self._lost(exc) from None

    def _lost(self, exc: BaseException) -> ClusterError:
        return ClusterError(f"lost the Dask scheduler at {self.address}: {_reason(exc)}")


MAX_BATCH = 64
"""The most matches the automatic batch puts in one task."""


def _batch_for(task_s: float, match_s: float) -> int:
    """Matches per task for tasks of about ``task_s`` seconds, from 1 to MAX_BATCH."""
    if match_s <= 0:
        return MAX_BATCH
    return max(1, min(MAX_BATCH, round(task_s / match_s)))


@contextlib.contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Start local workers with SIGINT ignored (they inherit it), like the local executor's.

    Ctrl-C reaches the whole process group; only ``arena run`` handles it (it keeps the
    records and stops the cluster), where workers would die printing tracebacks. Only
    possible from the main thread; elsewhere the workers start as they are. Workers a
    nanny restarts later are covered by :class:`~arena.tournament._dask_worker.IgnoreCtrlC`.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _quiet_dask_logs() -> dict[str, int]:
    """Silence Dask's loggers below CRITICAL (its tracebacks of a lost connection, a worker
    restarting...): the executor reports what matters in one line. Returns their levels."""
    import distributed  # noqa: F401  (its loggers exist once it is imported)

    names = [name for name in logging.root.manager.loggerDict if name.split(".")[0] in
             ("distributed", "dask", "tornado")]
    levels = {name: logging.getLogger(name).level for name in ["distributed", *names]}
    for name in levels:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return levels


def _reason(exc: BaseException) -> str:
    reason = getattr(exc, "reason", None)  # a cancelled future says why, e.g. connection lost
    if isinstance(reason, str):
        return reason.replace("-", " ")
    if type(exc).__name__ == "CommClosedError":
        return "the connection closed"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
