"""A trio run's one instance of a service whose task the run itself keeps going."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import trio

__all__ = ["run_service"]


class Service(Protocol):
    """What runs for the whole trio run once started (``run`` never returns)."""

    async def run(self) -> None: ...


S = TypeVar("S", bound=Service)


def run_service(var: trio.lowlevel.RunVar[S], make: Callable[[], S], name: str) -> S:
    """The run's one ``make()`` kept in ``var``: made, and its ``run`` started as a system
    task of the run, the first time it is asked for."""
    try:
        return var.get()
    except LookupError:
        made = make()
        var.set(made)
        trio.lowlevel.spawn_system_task(made.run, name=name)
        return made
