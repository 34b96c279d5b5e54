"""The pluggy hooks a bot plugin implements.

A plugin is any module or object with ``@arena.hookimpl``-decorated
functions whose names match the specifications below; it is found through
the ``arena.bots`` entry-point group, whose entry point's name names its bot.
A third-party plugin's hooks are called only in the process that plays its
bot (``arena.plugins``).
"""

from __future__ import annotations

from typing import Any, Protocol

import pluggy

__all__ = ["Register", "hookimpl", "hookspec", "register_bots"]

hookspec = pluggy.HookspecMarker("arena")
"""Marks a hook specification of arena's plugin manager."""
hookimpl = pluggy.HookimplMarker("arena")
"""Marks a plugin function as an implementation of one of arena's hooks."""


class Register(Protocol):
    """The callback handed to :func:`register_bots`."""

    def __call__(self, name: str, factory: Any, **metadata: Any) -> None:
        """Register ``factory`` (usually a :class:`arena.Bot` subclass) as bot ``name``.

        ``metadata`` may give ``description``, ``author``, ``version`` and
        ``stochastic``, overriding the factory's class attributes.
        """


@hookspec
def register_bots(register: Register) -> None:
    """Register the plugin's bots by calling ``register(name, factory, **metadata)``.

    ``factory(**params)`` must return a new :class:`arena.Bot` each time it
    is called: the referee makes one instance per seat and per match.
    """
