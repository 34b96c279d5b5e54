"""Finding a bot by reference: a registered name, or ``module:Class`` for unregistered code."""

from __future__ import annotations

import importlib
import shlex
from dataclasses import dataclass
from typing import Any, Literal

from arena.bot import Bot

__all__ = ["BotRef", "command_words", "default_host", "make_bot", "resolve"]


@dataclass(frozen=True)
class BotRef:
    """What a seat's bot is: its name and metadata as written into the record."""

    ref: str
    """The reference the bot was asked by: a registered name or ``module:Class``."""
    bot: str
    plugin: str
    version: str


def command_words(command: str) -> list[str]:
    """A bot's command line split as a shell would (``shlex``; no shell runs it); a
    ValueError naming the command if it cannot be split or is empty."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"bad bot command {command!r}: {exc}") from None
    if not words:
        raise ValueError("empty bot command")
    return words


def _import_object(ref: str) -> Any:
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise ValueError(f"bot reference {ref!r} is not 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"bot reference {ref!r}: cannot import {module_name!r}: {exc}") from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"bot reference {ref!r}: {module_name!r} has no {attr!r}") from None
    return obj


def resolve(ref: str) -> BotRef:
    """Check that ``ref`` names a bot and return its record metadata.

    A registered name is looked up in the plugin registry, which knows a
    third-party plugin's bot by its package's metadata without importing it
    (the record's version is then that package's). ``module:Class`` (any
    importable factory returning an :class:`arena.Bot`) lets a test or a local
    experiment run a bot without packaging it, in every host: that module is
    imported here, to read its name and version.
    """
    if ":" in ref:
        factory = _import_object(ref)
        module = ref.partition(":")[0]
        version = str(getattr(factory, "version", "") or "")
        name = str(getattr(factory, "name", "") or "") or ref
        return BotRef(ref, name, module.partition(".")[0], version)
    from arena.plugins import registry

    entry = registry().get(ref)
    return BotRef(ref, entry.name, entry.plugin, entry.version)


def default_host(ref: str) -> Literal["inline", "process"]:
    """Where a seat that names no host runs the bot ``ref``: ``process`` for a third-party
    plugin's bot (its code runs only in a child process of its own, sandboxed in a
    competition; ``inline`` for it is a trust decision the config or command line must
    state), ``inline`` for the built-in bots and ``module:Class`` code. An unknown name is
    ``inline``, whose host says it is unknown."""
    if ":" in ref:
        return "inline"
    from arena.plugins import registry

    try:
        imported = registry().get(ref).imported
    except LookupError:
        return "inline"
    return "inline" if imported else "process"


def make_bot(ref: str, params: dict[str, Any] | None = None) -> Bot:
    """A new bot instance for ``ref`` built with ``params``: the bot's code runs here, a
    third-party plugin's module is imported here (``BotRegistry.load``)."""
    params = params or {}
    if ":" in ref:
        factory = _import_object(ref)
        bot = factory(**params)
        if not isinstance(bot, Bot):
            raise TypeError(f"bot reference {ref!r} made a {type(bot).__name__}, not an arena.Bot")
        if not bot.name:
            bot.name = ref
        return bot
    from arena.plugins import registry

    return registry().create(ref, **params)


def hears_end_deal(bot: Bot) -> bool:
    """Whether ``bot`` does something with deal results: its ``end_deal`` is not
    :meth:`arena.Bot.end_deal` itself (an instance's own attribute counts too). Hosts
    tell only such bots how each deal ended."""
    method = getattr(bot, "end_deal", None)
    return getattr(method, "__func__", None) is not Bot.end_deal
