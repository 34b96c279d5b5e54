"""Which engine runs: the modules compiled with mypyc, or the pure-Python ones beside them.

Where the install compiled arena.game, the encoding of arena.env and the referee's match loop
(setup.py), each compiled module is a shared library next to its ``.py`` source, which
Python's import prefers. The pure modules of these packages are loaded instead, all of
them (the compiled ones share one library and their native classes, so the two never mix),
when ``ARENA_PURE`` is set to anything but ``0``, or when a source file is newer than its
compiled module (an edit since the last install: the source is the truth). This module is
never compiled; it runs before any other module of arena.game is imported, and arena.env
and arena.referee.loop import arena.game first.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent
# The packages with compiled modules (setup.py's list), and their folders.
_FOLDERS = {"arena.game": _HERE, "arena.env": _HERE.parent / "env",
            "arena.referee.loop": _HERE.parent / "referee" / "loop"}
_SLACK = 2.0  # seconds: an install may write a source a moment after its compiled module


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the package's modules as their ``.py`` sources, never their compiled twins."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        folder = _FOLDERS.get(package)
        if folder is None or not (source := folder / f"{name}.py").is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _compiled_modules() -> dict[Path, Path]:
    # Each compiled module's source, and the module; not mypyc's shared library, which has
    # no source of its own.
    found: dict[Path, Path] = {}
    for folder in _FOLDERS.values():
        for library in folder.glob("*.so"):
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:  # the longest first
                source = folder / (library.name[: -len(suffix)] + ".py")
                if library.name.endswith(suffix) and source.is_file():
                    found.setdefault(source, library)
                    break
    return found


def _choose() -> str:
    compiled = _compiled_modules()
    if not compiled:
        return "pure Python (not compiled at install)"
    reason = None
    if os.environ.get("ARENA_PURE", "") not in ("", "0"):
        reason = "ARENA_PURE is set"
    else:
        for source, library in sorted(compiled.items()):
            # A module in C has its source beside its Python twin: either edited is stale.
            for edited in (source, source.with_suffix(".c")):
                if edited.is_file() and (edited.stat().st_mtime
                                         > library.stat().st_mtime + _SLACK):
                    reason = (f"{edited.parent.name}/{edited.name} is newer than its "
                              "compiled module: reinstall to compile")
                    break
            if reason is not None:
                break
    if reason is None:
        in_c = sum(source.with_suffix(".c").is_file() for source in compiled)
        return (f"compiled with mypyc ({len(compiled) - in_c} modules)"
                + (f" and C ({in_c} module{'s' if in_c > 1 else ''})" if in_c else ""))
    sys.meta_path.insert(0, _PureFinder())
    return f"pure Python ({reason})"


ENGINE = _choose()
"""Which engine this process runs, in words (``arena.game.engine()``)."""


def engine() -> str:
    """Which engine runs ``arena.game`` in this process: ``"compiled with mypyc (...)"`` or
    ``"pure Python (<why>)"``. Records are the same on both (tests/game/test_engines.py)."""
    return ENGINE


def restore_docstrings(names: dict[str, object]) -> None:
    """Give the public classes of a compiled module their docstrings back (mypyc drops them,
    and ``help()`` and the API's own tests read them), from their ``.py`` sources."""
    if not ENGINE.startswith("compiled"):
        return
    import ast

    sources: dict[str, dict[str, str]] = {}
    for value in names.values():
        if not isinstance(value, type) or value.__doc__:
            continue
        # The source from the package's folder: a compiled module's ``__file__`` may name a
        # path that does not exist (mypyc's shared library repeats the package's path).
        package, _, name = value.__module__.rpartition(".")
        folder = _FOLDERS.get(package)
        if folder is None:
            continue
        source = folder / f"{name}.py"
        docs = sources.get(str(source))
        if docs is None and source.is_file():
            tree = ast.parse(source.read_text(encoding="utf-8"))
            docs = sources[str(source)] = {
                node.name: ast.get_docstring(node) or "" for node in tree.body
                if isinstance(node, ast.ClassDef)}
        doc = (docs or {}).get(value.__name__)
        if doc:
            with contextlib.suppress(AttributeError, TypeError):  # a type that refuses it
                value.__doc__ = doc
