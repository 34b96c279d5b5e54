"""A run played while it is served: the reporter that feeds the hub and the live folder."""

from __future__ import annotations

import collections
import contextlib
import functools
import importlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TextIO

import trio

from arena.tournament import Reporter

from ._hub import Hub
from ._league_status import write_league_status
from ._live import KEEP_S, LIVE_DIR, valid_id

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from arena.ratings import SprtStatus
    from arena.tournament import LeagueStatus, Standings

    from ._app import RunWeb
    from ._tables import Tables

__all__ = ["KEEP_S", "SWEEP_S", "Publisher", "RunServer", "ServerSetup", "WebReporter", "serve_run"]

SWEEP_S = 1.0
"""How often the runner's reporter removes the live files of the matches recorded
``KEEP_S`` ago or more."""


class WebReporter(Reporter):
    """Tells the web of the run's progress: each recorded match pokes the follower while
    someone subscribes (``poke``: the standings and match list are published at once, not
    at its next look),
    each league round's status is published as ``"league"`` and kept in
    ``OUT/live/league.json``, an sprt's status as ``"sprt"``.

    Called from the runner's thread: it reaches the hub through ``publish_threadsafe``
    (:class:`Publisher`: a :class:`Hub`'s, or a :class:`RunServer`'s, a line to the server's
    process). Without a hub (``arena run --live``) it only writes.
    ``begin`` is called first at the run's start, once its workers are started (it starts the
    server: :class:`RunServer`). The run's display hears the run beside it, both in one
    :class:`arena.tournament.Reporters`.
    """

    def __init__(self, folder: Path, hub: Publisher | None = None,
                 poke: Callable[[], None] | None = None,
                 begin: Callable[[], None] | None = None) -> None:
        self.folder = folder
        self.hub = hub
        self.poke = poke
        self.begin = begin
        self._recorded: collections.deque[tuple[float, str]] = collections.deque()
        self._swept = float("-inf")
        self._writer: ThreadPoolExecutor | None = None

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        if self.begin is not None:
            self.begin()
        for stale in (self.folder / LIVE_DIR).glob("*.jsonl"):  # of a run that was stopped
            stale.unlink(missing_ok=True)
        self._publish("progress", {"type": "progress", "total": total, "done": done})

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        match_id = str(record.get("match_id"))
        if valid_id(match_id):  # recorded: its live file goes a little later
            self._recorded.append((time.monotonic(), match_id))
        self._remove_live(time.monotonic() - KEEP_S)
        if self.poke is not None and (self.hub is None or self.hub.followed()):
            self.poke()  # nobody subscribed: the follower's next look (or a request) will do

    def sprt(self, status: SprtStatus) -> None:
        self._publish("sprt", {"type": "sprt", "line": status.summary()})

    def league(self, status: LeagueStatus) -> None:
        data = status.to_dict()
        if self._writer is None:  # the file is written off the runner's thread, in order
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="arena-live")
        self._writer.submit(write_league_status, self.folder / LIVE_DIR, data)
        self._publish("league", {"type": "league", "status": data})

    def stop(self) -> None:
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        self._remove_live(float("inf"))
        for abandoned in (self.folder / LIVE_DIR).glob("*.jsonl"):  # in flight at Ctrl-C
            abandoned.unlink(missing_ok=True)
        if self.poke is not None:
            self.poke()

    def _remove_live(self, before: float) -> None:
        """Remove the live files of the matches recorded before ``before`` (monotonic), at
        most every ``SWEEP_S`` (a file stays ``KEEP_S`` to ``KEEP_S + SWEEP_S``): one look
        at the live folder a sweep, not a removal a record on the runner's thread, most
        matches having no file (nobody followed them, or they were over in their first
        batch's time)."""
        recorded = self._recorded
        if not recorded or recorded[0][0] > before or (
                before != float("inf") and time.monotonic() < self._swept + SWEEP_S):
            return
        self._swept = time.monotonic()
        due = set()
        while recorded and recorded[0][0] <= before:
            due.add(f"{recorded.popleft()[1]}.jsonl")
        live = self.folder / LIVE_DIR
        try:
            names = os.listdir(live)
        except OSError:  # no live folder: no file
            return
        for name in due.intersection(names):
            (live / name).unlink(missing_ok=True)

    def _publish(self, topic: str, event: Mapping[str, Any]) -> None:
        if self.hub is not None:
            self.hub.publish_threadsafe(topic, event)


class Publisher(Protocol):
    """What the runner's reporter tells the server through: a :class:`Hub` in the server's
    process, or the :class:`RunServer` of a server in a process of its own."""

    def publish_threadsafe(self, topic: str, event: Mapping[str, Any]) -> None:
        """Publish ``event`` on ``topic``, from the runner's thread, never waiting."""

    def followed(self) -> bool:
        """Whether the follower may have someone to tell of a record at once."""


class ServerSetup(NamedTuple):
    """What a run's server serves beside the run (a competition's, docs/competition.md):
    routes, the bodies longer than the server's door lets by, and people's tables made with
    the server's hub."""

    extra: Sequence[BaseRoute] = ()
    bodies: Mapping[str, int] | None = None
    tables: Callable[[Hub], Tables] | None = None


class RunServer:
    """The server of a run played in the caller's process (``arena run --serve``): the run's
    :class:`~arena.web.RunWeb` in a process of its own (:func:`serve_run`), which reads the
    run's folder as ``arena serve`` does; the runner tells it, a line at a time on its input,
    what is not in the folder (the run's progress, a league's rounds, an sprt's status:
    :meth:`publish_threadsafe`) and that a record was written (:meth:`poke`). Nothing the
    server does holds the runner's interpreter lock: the runner's one thread decides the next
    matches (a league's fit each round) however many pages watch. A match the runner plays in
    its own thread (one job) writes its live file, as one played in a worker does.

    ``setup``, ``"module:function"``, names what is served beside the run: the server's
    process calls it with the run's folder and ``setup_args`` for a :class:`ServerSetup`.
    The server's process ignores Ctrl-C (the runner's, in its process group, stops the run
    as without a server) and ends when its input closes (:meth:`stop`, or the runner gone).
    """

    def __init__(self, folder: Path, host: str, port: int, setup: str = "",
                 setup_args: Sequence[str] = ()) -> None:
        self.folder = folder
        self.host = host
        self.port = port
        self.setup = setup
        self.setup_args = tuple(setup_args)
        self.url = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._pending = b""  # what the server's input could not take yet
        self._lock = threading.Lock()

    def launch(self) -> None:
        """Start the server's process (its imports go on beside the run's start); it
        listens at once, and :meth:`start` waits for its URL."""
        if self._process is not None:
            return
        spec = {"folder": str(self.folder), "host": self.host, "port": self.port,
                "setup": self.setup, "args": list(self.setup_args)}
        self._process = subprocess.Popen(
            [sys.executable, "-c", _SERVER_CODE, json.dumps(spec)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._process.stdin is not None
        os.set_blocking(self._process.stdin.fileno(), False)

    def start(self) -> str:
        """The URL, once the server's process listens. The error of a socket that cannot
        listen (OSError) is raised here."""
        self.launch()
        line = self._answer()
        kind, _, rest = line.partition(" ")
        if kind == "url":
            self.url = rest
            return self.url
        self.stop()
        if kind in ("oserror", "gaierror"):
            number, _, text = rest.partition(" ")
            raise (socket.gaierror if kind == "gaierror" else OSError)(
                int(number) if number.lstrip("-").isdigit() else 0, text)
        raise RuntimeError(f"the run's server did not start: {rest or 'it ended'}")

    def publish_threadsafe(self, topic: str, event: Mapping[str, Any]) -> None:
        """Publish ``event`` on the server's hub (never waits: what its input cannot take
        now goes with the next line)."""
        self._send(json.dumps({"topic": topic, "event": event}, allow_nan=False).encode()
                   + b"\n")

    def followed(self) -> bool:
        """Always (the server's process knows who follows: a poke it need not answer
        costs it alone)."""
        return self._process is not None

    def poke(self) -> None:
        """Have the follower read the run's folder now (a line on its input, unless lines
        wait already: they wake it)."""
        if not self._pending:
            self._send(b"p\n")

    def step(self) -> None:
        """Read the run's folder once and publish what is new; returns once done."""
        if self._process is None or self._process.poll() is not None:
            return
        self._send(b"s\n", wait=True)
        while self._answer() not in ("stepped", ""):
            pass

    def wait(self) -> None:
        """Serve until the server's process ends (Ctrl-C raises KeyboardInterrupt here
        meanwhile)."""
        process = self._process
        while process is not None and process.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(0.25)
        if process is not None and process.returncode:
            raise RuntimeError(f"the run's server stopped (status {process.returncode})")

    def stop(self) -> None:
        """Stop serving: the server's input closes, its open connections are closed, the
        process ends (killed if it has not within ``STOP_S``; at once if it never listened:
        a run that failed at its start is not held up by the server's imports)."""
        process, self._process = self._process, None
        if process is None:
            return
        if not self.url and process.poll() is None:
            process.kill()
        assert process.stdin is not None
        with contextlib.suppress(OSError):
            os.set_blocking(process.stdin.fileno(), True)
            process.stdin.write(self._pending)
        self._pending = b""
        with contextlib.suppress(OSError):
            process.stdin.close()
        try:
            process.wait(STOP_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()

    def _send(self, line: bytes, *, wait: bool = False) -> None:
        process = self._process
        if process is None or process.stdin is None:
            return
        with self._lock:
            data = self._pending + line
            fd = process.stdin.fileno()
            if wait:
                os.set_blocking(fd, True)
            try:
                while data:
                    data = data[os.write(fd, data):]
            except BlockingIOError:
                pass
            except OSError:  # the server is gone: nothing more to tell it
                data = b""
            finally:
                if wait:
                    os.set_blocking(fd, False)
            self._pending = data

    def _answer(self) -> str:
        """The server's next line on its output ("" once it ended)."""
        process = self._process
        if process is None or process.stdout is None:
            return ""
        return process.stdout.readline().decode("utf-8", "replace").rstrip("\n")


STOP_S = 10.0
"""How long :meth:`RunServer.stop` waits for the server's process to end."""

_SERVER_CODE = "from arena.web._live_run import serve_run; serve_run()"


def serve_run() -> None:
    """The server's process of :class:`RunServer` (``python -c``, its spec the argument):
    writes ``url URL`` once it listens (or ``oserror ERRNO TEXT``), then reads its input: a
    JSON line is published on its hub, ``p`` pokes its follower, ``s`` reads the folder
    once and answers ``stepped``; the input's end stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # whatever else prints goes to stderr, not among the answers
    spec = json.loads(sys.argv[1])
    setup = ServerSetup()
    if spec["setup"]:
        module, _, name = str(spec["setup"]).partition(":")
        setup = getattr(importlib.import_module(module), name)(spec["folder"], *spec["args"])
    listening: list[str] = []
    try:
        trio.run(_serve_run, Path(spec["folder"]), str(spec["host"]), int(spec["port"]),
                 setup, answers, listening)
    except BaseException as exc:
        leaf = _leaf(exc)
        if listening or not isinstance(leaf, OSError):
            raise
        kind = "gaierror" if isinstance(leaf, socket.gaierror) else "oserror"
        text = " ".join(str(leaf.strerror or leaf).split())
        answers.write(f"{kind} {leaf.errno or 0} {text}\n")


async def _serve_run(folder: Path, host: str, port: int, setup: ServerSetup,
                     answers: TextIO, listening: list[str]) -> None:
    from ._app import RunWeb

    hub = Hub()
    folder.mkdir(parents=True, exist_ok=True)
    tables = setup.tables(hub) if setup.tables is not None else None
    web = RunWeb(folder, hub, tables=tables, extra=setup.extra, bodies=setup.bodies,
                 standings_apart=True)
    async with trio.open_nursery() as nursery:
        url = await nursery.start(functools.partial(web.serve, host, port))
        if tables is not None:
            tables.base_url = url
        listening.append(url)
        answers.write(f"url {url}\n")
        await trio.to_thread.run_sync(_read_runner, web, answers,
                                      trio.lowlevel.current_trio_token(),
                                      abandon_on_cancel=True)
        nursery.cancel_scope.cancel()


def _read_runner(web: RunWeb, answers: TextIO, token: trio.lowlevel.TrioToken) -> None:
    """The runner's lines, until its end (in a thread of the server's process)."""
    for line in sys.stdin.buffer:
        if line == b"p\n":
            web.follower.poke()
        elif line == b"s\n":
            with contextlib.suppress(trio.RunFinishedError, trio.Cancelled):
                trio.from_thread.run(web.follower.step, trio_token=token)
            answers.write("stepped\n")
        elif line.strip():
            found = json.loads(line)
            web.hub.publish_threadsafe(str(found["topic"]), found["event"])


def _leaf(exc: BaseException) -> BaseException:
    """The one error an exception group holds (a nursery's), else the group itself."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc
