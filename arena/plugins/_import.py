"""Importing plugins: the entry points of the group, which of them are trusted, and what
a plugin's ``register_bots`` hands over."""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Collection, Iterable
from typing import Any

import pluggy

from arena import hookspecs

from ._entries import BotEntry, Plugins, conflict_message

ENTRY_POINT_GROUP = "arena.bots"
"""The entry-point group a bot package declares its plugin in."""

OWN_DISTRIBUTION = "arena-president"
"""The distribution whose plugins (the built-in bots) are trusted: imported to list them."""

_METADATA_KEYS = frozenset({"description", "author", "version", "stochastic"})


def _first_line(text: str | None) -> str:
    for line in (text or "").strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def _canonical(distribution: str) -> str:
    """A distribution's name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def distribution(ep: importlib.metadata.EntryPoint) -> tuple[str, str]:
    """The name and version of the distribution declaring ``ep`` (metadata only)."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "", ""
    return str(dist.name or ""), str(dist.version or "")


def trusted(ep: importlib.metadata.EntryPoint, names: Collection[str] = ()) -> bool:
    """Whether ``ep`` is imported to list its bots: a plugin of arena's own distribution,
    or one named in ``names``."""
    return ep.name in names or _canonical(distribution(ep)[0]) == OWN_DISTRIBUTION


def installed_points() -> list[importlib.metadata.EntryPoint]:
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


def import_plugins(
    points: Iterable[importlib.metadata.EntryPoint], extra_plugins: Iterable[object] = ()
) -> Plugins:
    """Import the plugins of ``points``, register them and ``extra_plugins`` with one
    pluggy manager, and collect the bots they register."""
    pm = _plugin_manager()
    reg = Plugins()
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

    for ep in points:
        try:
            module = ep.load()
        except BaseException as exc:  # a plugin may fail in any way, even sys.exit()
            if isinstance(exc, KeyboardInterrupt):
                raise
            reg.errors.append((ep.name, f"cannot import {ep.value!r}: {_describe(exc)}"))
            continue
        add(module, ep.name, distribution(ep)[1])
    for index, plugin in enumerate(extra_plugins):
        name = getattr(plugin, "__name__", None) or f"{type(plugin).__name__}-{index}"
        add(plugin, str(name), str(getattr(plugin, "__version__", "")))
    _collect(pm, reg, versions)
    return reg


def _collect(pm: pluggy.PluginManager, reg: Plugins, versions: dict[str, str]) -> None:
    """Call every registered plugin's ``register_bots`` and file its bots in ``reg``."""
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
            reg.errors.append((plugins[-1], conflict_message(name, sorted(plugins))))


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
