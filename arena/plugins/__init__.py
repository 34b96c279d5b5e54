"""Finding bots: the plugin manager and the bot registry.

Every bot, built-in or third-party, comes from a plugin found through the
``arena.bots`` entry-point group and loaded by one pluggy manager. Only the
plugins of arena's own distribution (the built-in bots, the plugin ``builtin``)
are imported to build the registry: a third-party plugin is a stranger's code,
so the registry lists it by its entry point's metadata alone (its name, its
distribution and that one's version) and its module is imported only where its
bot is played: in the sandboxed child process of a ``process`` seat, or in a
seat the config made ``inline`` on purpose (:meth:`BotRegistry.load`).
Loading never stops at a broken plugin: a plugin that fails to import or to
register is recorded in :attr:`BotRegistry.errors` under its name and the
others still load, so one bad package cannot take a tournament's other bots
down with it.
"""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import inspect
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arena.bot import Bot

from ._entries import (
    BotConflictError,
    BotEntry,
    BotParamsError,
    PluginEntry,
    Plugins,
    UnknownBotError,
    conflict_message,
)
from ._import import (
    ENTRY_POINT_GROUP,
    OWN_DISTRIBUTION,
    distribution,
    import_plugins,
    installed_points,
    trusted,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "OWN_DISTRIBUTION",
    "BotConflictError",
    "BotEntry",
    "BotParamsError",
    "BotRegistry",
    "PluginEntry",
    "UnknownBotError",
    "load_registry",
    "registry",
]


@dataclass
class BotRegistry(Plugins):
    """Every bot the imported plugins registered, by name, and the listed plugins.

    Build it with :func:`registry` (cached, what the CLI and the referee
    use) or :func:`load_registry` (fresh, for tests that add plugin objects).
    """

    listed: dict[str, PluginEntry] = field(default_factory=dict)
    """Third-party plugins by name, known by their metadata only (never imported here)."""
    _points: dict[str, importlib.metadata.EntryPoint] = field(default_factory=dict, repr=False)
    _loaded: dict[str, BotEntry] = field(default_factory=dict, repr=False)

    def error_lines(self) -> list[str]:
        """One readable line per load error, for warnings on stderr.

        A name claimed by several plugins is no one plugin's fault: its line names them all
        and no single one in front.
        """
        conflicts = {conflict_message(n, p) for n, p in self.conflicts.items()}
        return [message if message in conflicts else f"plugin {plugin!r}: {message}"
                for plugin, message in self.errors]

    def names(self) -> list[str]:
        """Names of every usable bot, sorted: the imported plugins' bots and the listed
        plugins' names (each the name of its bot)."""
        return sorted({*self.entries, *(n for n in self.listed if n not in self.conflicts)})

    def __iter__(self) -> Iterator[BotEntry]:
        return (self.get(name) for name in self.names())

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, name: object) -> bool:
        """Whether :meth:`get` finds a bot ``name`` (a listed plugin's too)."""
        if not isinstance(name, str):
            return False
        try:
            self.get(name)
        except LookupError:
            return False
        return True

    def get(self, name: str) -> BotEntry:
        """The entry for bot ``name``; a one-line error says why when there is none."""
        if name in self.conflicts:
            raise BotConflictError(conflict_message(name, self.conflicts[name]))
        try:
            return self.entries[name]
        except KeyError:
            listed = self._listed_bot(name)
            if listed is not None:
                return listed
            known = ", ".join(self.names()) or "none"
            near = difflib.get_close_matches(name, self.names(), n=1, cutoff=0.75)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise UnknownBotError(
                f"unknown bot {name!r} (installed bots: {known}){self.broken_note()}{hint}"
            ) from None

    def broken_note(self) -> str:
        """``; plugin 'x' failed to load: ...`` for each broken plugin, or ``""``.

        A plugin that fails to import registers nothing, so a bot it provides shows up as
        unknown; every message about an unknown bot carries this note to say why.
        """
        conflicts = {conflict_message(n, p) for n, p in self.conflicts.items()}
        return "".join(
            f"; plugin {plugin!r} failed to load: {message}"
            for plugin, message in self.errors
            if message not in conflicts
        )

    def _listed_bot(self, name: str) -> BotEntry | None:
        """The entry of a listed plugin's bot: ``PLUGIN`` (its bot of that name, or its only
        bot) or ``PLUGIN/BOT`` (any bot it registers); None for any other name."""
        plugin, slash, bot = name.partition("/")
        listed = self.listed.get(plugin)
        if listed is None or (slash and not bot) or (not slash and plugin in self.conflicts):
            return None
        return BotEntry(name=bot or plugin, factory=None, plugin=plugin,
                        version=listed.version, distribution=listed.distribution)

    def load(self, name: str) -> BotEntry:
        """The entry of bot ``name`` with its factory: a listed plugin is imported now, in
        this process, and its ``register_bots`` called. Call it only where the plugin's
        code may run: the sandboxed child that plays the bot, or a seat the config made
        ``inline`` (a trust decision). Raises :class:`UnknownBotError` (a LookupError)
        naming the plugin when it fails to import or registers no such bot."""
        entry = self.get(name)
        if entry.factory is not None:
            return entry
        if name in self._loaded:
            return self._loaded[name]
        plugin, slash, wanted = name.partition("/")
        alone = import_plugins([self._points[plugin]])
        if plugin not in alone.plugins or (alone.errors and not alone.entries):
            why = "; ".join(message for _, message in alone.errors)
            raise UnknownBotError(f"bot {name!r}: plugin {plugin!r} failed to load: {why}")
        found = alone.entries.get(wanted or plugin)
        if found is None and not slash and len(alone.entries) == 1:
            (found,) = alone.entries.values()
        if found is None:
            bots = ", ".join(sorted(alone.entries)) or "none"
            raise UnknownBotError(f"plugin {plugin!r} registers no bot {wanted or plugin!r} "
                                  f"(it registers: {bots}; name one as '{plugin}/BOT')")
        loaded = replace(found, name=entry.name, distribution=entry.distribution)
        self._loaded[name] = loaded
        return loaded

    def create(self, name: str, **params: Any) -> Bot:
        """A new instance of bot ``name``, built with ``params``, carrying its metadata.

        A listed plugin's bot is imported first (:meth:`load`): creating a bot in this
        process runs its code here.
        """
        entry = self.load(name)
        assert entry.factory is not None
        try:
            bot = entry.factory(**params)
        except TypeError as exc:
            if params and _rejects_params(entry.factory, params):
                raise BotParamsError(
                    f"bot {name!r} does not accept params {sorted(params)}: {exc}"
                ) from exc
            raise
        if not isinstance(bot, Bot):
            raise TypeError(
                f"bot {name!r} from plugin {entry.plugin!r}: factory returned "
                f"{type(bot).__name__}, not an arena.Bot"
            )
        bot.name = entry.name
        bot.description = entry.description
        bot.author = entry.author
        bot.version = entry.version
        bot.stochastic = entry.stochastic
        return bot


def _rejects_params(factory: Callable[..., Any], params: Mapping[str, Any]) -> bool:
    """Whether ``factory``'s signature cannot take ``params`` (vs a TypeError from inside)."""
    try:
        inspect.signature(factory).bind(**params)
    except TypeError:
        return True
    except ValueError:  # no signature available: assume the parameters were the problem
        return True
    return False


def load_registry(
    extra_plugins: Iterable[object] = (), *, entry_points: bool = True,
    trust: Collection[str] = (),
) -> BotRegistry:
    """Load arena's own plugins, list the others, and collect the bots they register.

    ``extra_plugins`` are plugin objects (modules, classes, instances with
    ``@hookimpl`` functions) registered beside the installed ones; tests use
    them instead of installing packages. ``entry_points=False`` skips the
    installed plugins, the built-in ones included. A third-party plugin is
    listed by its metadata (:attr:`BotRegistry.listed`), never imported, unless
    ``trust`` names it.
    """
    points = installed_points() if entry_points else []
    imported = import_plugins([ep for ep in points if trusted(ep, trust)], extra_plugins)
    reg = BotRegistry(imported.entries, imported.errors, imported.plugins, imported.conflicts)
    for ep in points:
        if trusted(ep, trust):
            continue
        if ep.name in reg.plugins or ep.name in reg.listed:
            reg.errors.append((ep.name, f"plugin name {ep.name!r} is used by more than one "
                                        f"plugin"))
            continue
        dist, version = distribution(ep)
        reg.listed[ep.name] = PluginEntry(ep.name, ep.value, dist, version)
        reg._points[ep.name] = ep
        if ep.name in reg.entries:  # an imported plugin's bot has the listed plugin's name
            plugins = sorted([reg.entries.pop(ep.name).plugin, ep.name])
            reg.conflicts[ep.name] = plugins
            reg.errors.append((plugins[-1], conflict_message(ep.name, plugins)))
    return reg


@functools.cache
def registry() -> BotRegistry:
    """The registry of every installed bot, loaded once per process."""
    return load_registry()
