"""Finding bots: the plugin manager and the bot registry.

Every bot, built-in or third-party, comes from a plugin found through the
``arena.bots`` entry-point group and loaded by one pluggy manager; the
built-in bots are the plugin ``builtin`` (the package ``bots``) and get no
special treatment. Loading never stops at a broken plugin: a plugin that
fails to import or to register is recorded in :attr:`BotRegistry.errors`
under its name and the others still load, so one bad package cannot take
a tournament's other bots down with it.
"""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pluggy

from arena import hookspecs
from arena.bot import Bot

__all__ = [
    "ENTRY_POINT_GROUP",
    "BotConflictError",
    "BotEntry",
    "BotParamsError",
    "BotRegistry",
    "UnknownBotError",
    "load_registry",
    "registry",
]

ENTRY_POINT_GROUP = "arena.bots"
"""The entry-point group a bot package declares its plugin in."""

_METADATA_KEYS = frozenset({"description", "author", "version", "stochastic"})


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
class BotEntry:
    """One registered bot: how to make it and what it says about itself."""

    name: str
    factory: Callable[..., Bot]
    plugin: str
    version: str
    description: str = ""
    author: str = ""
    stochastic: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The entry's metadata as JSON-ready data (``arena bots --json``)."""
        return {
            "name": self.name,
            "plugin": self.plugin,
            "version": self.version,
            "description": self.description,
            "author": self.author,
            "stochastic": self.stochastic,
        }


@dataclass
class BotRegistry:
    """Every bot the installed plugins registered, by name.

    Build it with :func:`registry` (cached, what the CLI and the referee
    use) or :func:`load_registry` (fresh, for tests that add plugin objects).
    """

    entries: dict[str, BotEntry] = field(default_factory=dict)
    """Usable bots by name."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    """``(plugin, message)`` for every plugin that failed to load or register, and every
    name two plugins claimed."""
    plugins: dict[str, str] = field(default_factory=dict)
    """Every loaded plugin's name and its package version."""
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    """Bot names registered more than once, with the plugins that registered them."""

    def error_lines(self) -> list[str]:
        """One readable line per load error, for warnings on stderr.

        A name claimed by several plugins is no one plugin's fault: its line names them all
        and no single one in front.
        """
        conflicts = {_conflict_message(n, p) for n, p in self.conflicts.items()}
        return [message if message in conflicts else f"plugin {plugin!r}: {message}"
                for plugin, message in self.errors]

    def names(self) -> list[str]:
        """Names of every usable bot, sorted."""
        return sorted(self.entries)

    def __iter__(self) -> Iterator[BotEntry]:
        return (self.entries[name] for name in self.names())

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def get(self, name: str) -> BotEntry:
        """The entry for bot ``name``; a one-line error says why when there is none."""
        if name in self.conflicts:
            raise BotConflictError(_conflict_message(name, self.conflicts[name]))
        try:
            return self.entries[name]
        except KeyError:
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
        conflicts = {_conflict_message(n, p) for n, p in self.conflicts.items()}
        return "".join(
            f"; plugin {plugin!r} failed to load: {message}"
            for plugin, message in self.errors
            if message not in conflicts
        )

    def create(self, name: str, **params: Any) -> Bot:
        """A new instance of bot ``name``, built with ``params``, carrying its metadata."""
        entry = self.get(name)
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


def _conflict_message(name: str, plugins: list[str]) -> str:
    quoted = " and ".join(repr(p) for p in plugins)
    return f"bot {name!r} is registered by more than one plugin: {quoted}"


def _rejects_params(factory: Callable[..., Any], params: Mapping[str, Any]) -> bool:
    """Whether ``factory``'s signature cannot take ``params`` (vs a TypeError from inside)."""
    try:
        inspect.signature(factory).bind(**params)
    except TypeError:
        return True
    except ValueError:  # no signature available: assume the parameters were the problem
        return True
    return False


def _first_line(text: str | None) -> str:
    for line in (text or "").strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    """The group's entry points, once each even when a package is found twice on the path."""
    seen: set[tuple[str, str]] = set()
    unique = []
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if (ep.name, ep.value) not in seen:
            seen.add((ep.name, ep.value))
            unique.append(ep)
    return unique


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".strip().rstrip(":")


def _plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("arena")
    pm.add_hookspecs(hookspecs)
    return pm


def load_registry(
    extra_plugins: Iterable[object] = (), *, entry_points: bool = True
) -> BotRegistry:
    """Load every plugin and collect the bots they register.

    ``extra_plugins`` are plugin objects (modules, classes, instances with
    ``@hookimpl`` functions) registered beside the installed ones; tests use
    them instead of installing packages. ``entry_points=False`` skips the
    installed plugins, the built-in ones included.
    """
    pm = _plugin_manager()
    reg = BotRegistry()
    versions: dict[str, str] = {}

    def add(plugin: object, name: str, version: str) -> None:
        if name in versions or pm.has_plugin(name):
            reg.errors.append((name, f"plugin name {name!r} is used by more than one plugin"))
            return
        try:
            pm.register(plugin, name=name)
        except Exception as exc:  # a bad hookimpl signature, mostly
            reg.errors.append((name, _describe(exc)))
            return
        versions[name] = version
        reg.plugins[name] = version

    if entry_points:
        for ep in _entry_points():
            try:
                module = ep.load()
            except BaseException as exc:  # a plugin may fail in any way, even sys.exit()
                if isinstance(exc, KeyboardInterrupt):
                    raise
                reg.errors.append((ep.name, f"cannot import {ep.value!r}: {_describe(exc)}"))
                continue
            dist = getattr(ep, "dist", None)
            add(module, ep.name, dist.version if dist is not None else "")
    for index, plugin in enumerate(extra_plugins):
        name = getattr(plugin, "__name__", None) or f"{type(plugin).__name__}-{index}"
        add(plugin, str(name), str(getattr(plugin, "__version__", "")))

    owners: dict[str, list[str]] = {}
    for impl in pm.hook.register_bots.get_hookimpls():
        plugin_name = impl.plugin_name
        staged: dict[str, BotEntry] = {}
        problems: list[str] = []
        register = _registrar(plugin_name, versions[plugin_name], staged, problems)
        try:
            impl.function(register=register)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            reg.errors.append((plugin_name, f"register_bots failed: {_describe(exc)}"))
            continue
        reg.errors.extend((plugin_name, problem) for problem in problems)
        for name, entry in staged.items():
            owners.setdefault(name, []).append(plugin_name)
            reg.entries.setdefault(name, entry)

    for name, plugins in owners.items():
        if len(plugins) > 1:
            reg.entries.pop(name, None)
            reg.conflicts[name] = sorted(plugins)
            reg.errors.append((plugins[-1], _conflict_message(name, sorted(plugins))))
    return reg


def _registrar(
    plugin: str, version: str, staged: dict[str, BotEntry], problems: list[str]
) -> hookspecs.Register:
    """The ``register`` callback for one plugin: collects its entries and its mistakes."""

    def register(name: str, factory: Any, **metadata: Any) -> None:
        entry = _make_entry(name, factory, plugin, version, metadata)
        if isinstance(entry, str):
            problems.append(entry)
        elif name in staged:
            problems.append(f"registers bot {name!r} twice")
        else:
            staged[name] = entry

    return register


def _make_entry(
    name: object, factory: object, plugin: str, plugin_version: str, metadata: dict[str, Any]
) -> BotEntry | str:
    """A :class:`BotEntry` for one ``register`` call, or the reason it is refused."""
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        return f"bot name {name!r} must be a non-empty string without surrounding spaces"
    if any(ch.isspace() for ch in name) or name.startswith("cmd:"):
        return f"bot name {name!r} may not contain spaces or start with 'cmd:'"
    if not callable(factory):
        return f"bot {name!r}: factory {factory!r} is not callable"
    unknown = sorted(set(metadata) - _METADATA_KEYS)
    if unknown:
        return f"bot {name!r}: unknown metadata {unknown} (allowed: {sorted(_METADATA_KEYS)})"

    def attr(key: str, default: Any) -> Any:
        if key in metadata:
            return metadata[key]
        value = getattr(factory, key, None) if isinstance(factory, type) else None
        return value if value not in (None, "") else default

    description = attr("description", "") or _first_line(getattr(factory, "__doc__", None))
    return BotEntry(
        name=name,
        factory=factory,
        plugin=plugin,
        version=str(attr("version", plugin_version)),
        description=str(description),
        author=str(attr("author", "")),
        stochastic=bool(attr("stochastic", False)),
    )


@functools.cache
def registry() -> BotRegistry:
    """The registry of every installed bot, loaded once per process."""
    return load_registry()
