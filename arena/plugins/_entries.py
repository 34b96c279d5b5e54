"""What the registry holds: a bot's entry, a plugin known by its metadata, the errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.bot import Bot


class UnknownBotError(LookupError):
    """No plugin registered a bot of that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class BotConflictError(LookupError):
    """Two plugins registered a bot under the same name, so the name means nothing."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class BotParamsError(ValueError):
    """A bot's factory refused the parameters it was given."""


@dataclass(frozen=True)
class PluginEntry:
    """An installed plugin known by its entry point's metadata only: never imported to list
    it, so nothing of its code has run in this process."""

    name: str
    """The entry point's name: the plugin's name, and the name of its bot."""
    value: str
    """What the entry point names (``module`` or ``module:object``)."""
    distribution: str
    """The name of the distribution (the installed package) that declares it."""
    version: str
    """That distribution's version."""


@dataclass(frozen=True)
class BotEntry:
    """One registered bot: how to make it and what it says about itself.

    A bot of a plugin that is listed but not imported (a third-party plugin) has no
    ``factory`` here: what only its code could say (description, author, stochastic) is
    unknown until :meth:`BotRegistry.load` imports it, where it is played.
    """

    name: str
    factory: Callable[..., Bot] | None
    plugin: str
    version: str
    description: str = ""
    author: str = ""
    stochastic: bool = False
    distribution: str = ""
    """The installed package that provides it, when the registry knows it by metadata only."""

    @property
    def imported(self) -> bool:
        """Whether its plugin's code was imported in this process (the built-in bots)."""
        return self.factory is not None

    def to_dict(self) -> dict[str, Any]:
        """The entry's metadata as JSON-ready data (``arena bots --json``); what a plugin
        not imported here could only say by running its code is ``None``."""
        known = self.imported
        return {
            "name": self.name,
            "plugin": self.plugin,
            "version": self.version,
            "description": self.description if known else None,
            "author": self.author if known else None,
            "stochastic": self.stochastic if known else None,
            "imported": known,
            "distribution": self.distribution or None,
        }


@dataclass
class Plugins:
    """What importing plugins gave: their bots, their names and versions, their errors."""

    entries: dict[str, BotEntry] = field(default_factory=dict)
    """Usable bots by name."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    """``(plugin, message)`` for every plugin that failed to load or register, and every
    name two plugins claimed."""
    plugins: dict[str, str] = field(default_factory=dict)
    """Every loaded plugin's name and its package version."""
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    """Bot names registered more than once, with the plugins that registered them."""


def conflict_message(name: str, plugins: list[str]) -> str:
    quoted = " and ".join(repr(p) for p in plugins)
    return f"bot {name!r} is registered by more than one plugin: {quoted}"


