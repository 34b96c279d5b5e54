"""Whether this machine can start a bot: the check the config and the Dask workers share."""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def bot_problem(
    name: str | None, command: str | None, params: Mapping[str, Any]
) -> tuple[str, str] | None:
    """Why this machine cannot start a bot, as (key, message), or None when it can.

    A registered bot (``name``) must be installed and accept its params; a command's
    program must be on PATH or a file (relative to the working directory). A built-in bot
    is made here to try its params; a third-party plugin's bot is known here by its
    package's metadata only, since its module's code may run nowhere but in the bot's own
    process: ``arena validate`` and ``arena run`` try it out there, sandboxed, with the
    run's private paths hidden (``arena.referee.try_starts``).
    """
    from arena.plugins import BotParamsError, registry

    if name is not None:
        reg = registry()
        try:
            imported = reg.get(name).imported
        except LookupError as exc:
            return "name", str(exc)
        if not imported:
            return None
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

