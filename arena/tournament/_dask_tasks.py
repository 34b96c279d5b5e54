"""What a Dask task runs on its worker: a batch of matches, after checking the worker can
start every bot of them (see :mod:`arena.tournament._dask`)."""

from __future__ import annotations

import json
import os
import shlex
import socket
import threading
import time
from typing import TYPE_CHECKING, Any

from arena.tournament._bots import bot_problem
from arena.tournament._executor import MatchFn, play_outcome

if TYPE_CHECKING:
    from arena.referee import MatchSpec, Seat

_match_lock = threading.Lock()
_bots_checked: dict[str, str | None] = {}


def named_files(command: str) -> list[str]:
    """The words of a command after its program that name files here (a script, a model)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    return [w for w in words[1:] if not w.startswith("-") and ("/" in w or os.sep in w)
            and os.path.isfile(w)]


def play_batch(
    match_fn: MatchFn,
    specs: list[MatchSpec],
    files: dict[str, list[str]] | None = None,
    shipped: dict[str, tuple[str, bytes]] | None = None,
) -> tuple[list[tuple[bool, Any]], float]:
    """Play specs one after the other on a worker: each outcome is ``(ok, record or error)``,
    and the seconds they took. ``files`` maps a command to the files it names that exist on
    the machine running the tournament; they must exist here too. ``shipped`` maps the
    folder a command runs from (:mod:`arena.tournament._dask_ship`: a competition's
    entry) to its tar's hash and bytes: a folder this machine lacks is made from them first
    (and kept).

    Matches in one worker process run one at a time (the referee keeps bot processes per
    process), whatever the worker's thread count.
    """
    with _match_lock:
        start = time.perf_counter()
        problem = _unpack_shipped(shipped or {})
        if problem is not None:
            return [(False, problem) for _ in specs], time.perf_counter() - start
        outcomes = [_play_here(match_fn, spec, files or {}) for spec in specs]
        return outcomes, time.perf_counter() - start


def _unpack_shipped(shipped: dict[str, tuple[str, bytes]]) -> str | None:
    """Make the shipped folders this worker lacks; why it could not, or None."""
    from arena.tournament._dask_ship import unpack_shipped

    for folder, (sha256, data) in shipped.items():
        problem = unpack_shipped(folder, sha256, data)
        if problem is not None:
            return f"Dask worker {_worker_name()}: {problem}"
    return None


def _play_here(
    match_fn: MatchFn, spec: MatchSpec, files: dict[str, list[str]]
) -> tuple[bool, Any]:
    for seat in spec.seats:
        problem = _seat_problem(seat, files.get(str(seat.command), []))
        if problem is not None:
            return False, problem
    return play_outcome(match_fn, spec)


def _seat_problem(seat: Seat, files: list[str]) -> str | None:
    """Why this worker cannot start the seat's bot (checked once per distinct seat)."""
    key = json.dumps([seat.to_dict(), files], sort_keys=True, default=str)
    if key not in _bots_checked:
        _bots_checked[key] = _check_seat(seat, files)
    return _bots_checked[key]


def _check_seat(seat: Seat, files: list[str]) -> str | None:
    problem = bot_problem(seat.name, seat.command, dict(seat.params))
    if problem is None:
        missing = [name for name in files if not os.path.isfile(name)]
        if not missing:
            return None
        problem = ("command", f"file {missing[0]!r} not found (the command names it, and it "
                   "exists on the machine running the tournament)")
    return f"Dask worker {_worker_name()} cannot start bot {seat.label!r}: {problem[1]}"


def _worker_name() -> str:
    try:
        from distributed import get_worker

        worker = get_worker()
        return f"{worker.address} ({_host()})"
    except (ImportError, ValueError):
        return _host()


def _host() -> str:
    return socket.gethostname()
