"""Whether this machine can start a bot: the check the config and the Dask workers share."""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_PARAMS_ERROR = "BotParamsError: "
_TABLE = 4
"""The table a third-party plugin's bot is tried at, as its seat 0."""


def bot_problem(
    name: str | None, command: str | None, params: Mapping[str, Any]
) -> tuple[str, str] | None:
    """Why this machine cannot start a bot, as (key, message), or None when it can.

    A registered bot (``name``) must be installed and accept its params; a command's
    program must be on PATH or a file (relative to the working directory). A built-in bot
    is made here to try it; a third-party plugin's bot is tried in a child process of its
    own (:func:`_tried_apart`), since its module's code may run nowhere else.
    """
    from arena.plugins import BotParamsError, registry

    if name is not None:
        reg = registry()
        try:
            imported = reg.get(name).imported
        except LookupError as exc:
            return "name", str(exc)
        if not imported:
            return _tried_apart(name, params)
        try:
            reg.create(name, **params)
        except BotParamsError as exc:
            return "params", str(exc)
        except Exception as exc:
            return "name", f"bot {name!r} fails to start: {exc}"
    elif command is not None:
        try:
            words = shlex.split(command)
        except ValueError as exc:
            return "command", f"cannot parse the command: {exc}"
        program = words[0]
        if shutil.which(program) is None and not Path(program).is_file():
            return "command", f"program {program!r} not found (not on PATH)"
    return None


def _tried_apart(name: str, params: Mapping[str, Any]) -> tuple[str, str] | None:
    """Start bot ``name`` once with ``params`` in a ``process`` seat, sandboxed wherever the
    machine can (``arena.referee.try_starts``), under the default rules and limits at a
    table of four: its start fault
    as (key, message), or None. Run in a thread of its own when called inside a trio run."""
    import threading

    import trio

    from arena.game import Rules
    from arena.referee import BotFault, Limits, Seat, sandbox_mechanism, try_starts

    seat = Seat(label=name, name=name, params=dict(params), host="process")
    limits = Limits(sandbox=sandbox_mechanism() is not None)
    faults: list[BotFault | None] = []

    def trial() -> None:
        faults.extend(try_starts([seat], rules=Rules(), limits=limits, players=_TABLE))

    try:
        trio.lowlevel.current_task()
    except RuntimeError:  # no trio run here: the usual case (the CLI, a worker)
        trial()
    else:
        thread = threading.Thread(target=trial, name=f"try-out of {name}")
        thread.start()
        thread.join()
    fault = faults[0] if faults else None
    if fault is None:
        return None
    detail = fault.detail.removeprefix("start failed: ")
    return ("params" if _PARAMS_ERROR in detail else "name",
            f"bot {name!r} fails to start: {detail}")
