"""Imports go down the layers of docs/architecture.md, never into another package's privates,
and never round a circle inside a package.

Every module under arena/ and bots/ is parsed (not imported) and each of its imports, at any
depth (lazy imports in functions and type-only imports count too), is checked against the
layers: a package may import its own modules and the packages of the layers under it (or
beside it, in the same layer), and another package only through its public names. ``ratings``
reads records and nothing else (it draws its bootstrap from ``arena.seeds``, where every seed
arena uses is made). Inside a package, the modules' imports (of every kind, as above) form no
circle: each module can be read knowing only the ones under it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The layers, bottom first (docs/architecture.md draws the same picture).
LAYERS: dict[str, int] = {
    "arena.game": 0,  # pure rules
    "arena._version": 0,  # the version number, read by every layer (see SHARED)
    "arena._lazy": 0,  # a module's names imported when first read (see SHARED)
    "arena.records": 0,  # the record format: reads and writes JSONL, imports nothing of arena
    "arena.seeds": 1,
    "arena.bot": 1,
    "arena.hookspecs": 1,
    "arena.plugins": 1,
    "bots": 1,
    "arena": 1,  # the top-level namespace: eagerly only the bot API, the rest loads lazily
    "arena.referee": 2,
    "arena.env": 2,  # learning environments: the game, the bot API, bots by name (plugins)
    "arena.ratings": 3,
    "arena.tournament": 4,
    "arena.report": 5,
    "arena.web": 5,  # the run's pages and API, beside the report (may import it)
    "arena.competition": 5,  # a league's entrants and submissions, served beside the web
    "arena.cli": 6,
    "arena.train": 6,  # training the built-in learned: expert's labels, the env's encoding
}

# What a package may import besides itself, when the layers alone would allow more.
ONLY: dict[str, set[str]] = {
    "arena.ratings": {"arena.records", "arena.seeds"},
    # Environments drive arena.game themselves and find opponents through the registry:
    # never through the referee, whose loop, hosts and time limits a learner does not need.
    "arena.env": {"arena.game", "arena.bot", "arena.plugins", "arena.seeds"},
}

# A package whose rooms are sub-packages names its faces: another package imports it through
# these modules only (the referee's rooms, loop, hosts, child, sandbox and uecda, are its own).
FACES: dict[str, set[str]] = {
    "arena.referee": {"arena.referee", "arena.referee.lowlevel", "arena.referee.testing"},
}

# Private modules of the top-level namespace that every layer reads: no layer imports the top
# package itself for them.
SHARED: set[str] = {"arena._version", "arena._lazy"}

# Exceptions to the rules above, each with its reason; a test fails once one is not needed.
ALLOWED: set[tuple[str, str]] = {
    # The built-in learned plays a network over the environments' encoding; bots/__init__.py
    # imports it only when such a bot is made, so the other built-ins do not load arena.env.
    ("bots/learned.py", "arena.env"),
    ("bots/after.py", "arena.env"),  # the after-move head of learned's network
}


# Circles of imports inside a package still to be broken, each with its reason; a test fails
# once one is not needed.
ALLOWED_CIRCLES: dict[frozenset[str], str] = {}


def package(module: str) -> str:
    """The package (the unit of the layers) that ``module`` belongs to."""
    parts = module.split(".")
    if parts[0] == "bots" or len(parts) == 1:
        return parts[0]
    return ".".join(parts[:2])


def is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of the checkout (not a name inside one)."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def facade() -> dict[str, str]:
    """The names the top-level ``arena`` namespace re-exports, and the modules they come from
    (``from arena import run_tournament`` imports the tournament layer)."""
    tree = ast.parse((ROOT / "arena" / "__init__.py").read_text(encoding="utf-8"))
    return {alias.asname or alias.name: node.module
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names}


FACADE = facade()


def imported(module: str, is_package: bool, tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, module)`` for every import of arena or bots in ``tree``, relative ones resolved;
    ``from X import y`` counts as an import of ``X.y`` when that is a module, and a name of the
    top-level namespace as an import of the module it comes from."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: len(module.split(".")) - node.level + is_package]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                name = f"{source}.{alias.name}"
                if is_module(name):
                    found.append((node.lineno, name))
                elif source == "arena" and alias.name in FACADE:
                    found.append((node.lineno, FACADE[alias.name]))
                elif alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((node.lineno, name))  # a private name: judged like a module
                else:
                    found.append((node.lineno, source))
    return [(line, name) for line, name in found if name.split(".")[0] in ("arena", "bots")]


def problems(module: str, is_package: bool, source: str, where: str) -> list[str]:
    """What is wrong with the imports of ``module`` (its text is ``source``)."""
    mine = package(module)
    found: list[str] = []
    for line, target in imported(module, is_package, ast.parse(source)):
        theirs = package(target)
        if theirs == mine or theirs in SHARED or (where, target) in ALLOWED:
            continue
        if any(part.startswith("_") and not part.startswith("__")
               for part in target.split(".")[1:]):
            found.append(f"{where}:{line} imports {target}, private to {theirs}")
        elif theirs in FACES and target not in FACES[theirs]:
            found.append(f"{where}:{line} imports {target}, not a face of {theirs} "
                         f"({', '.join(sorted(FACES[theirs]))})")
        elif mine in ONLY and theirs not in ONLY[mine] and theirs != "arena":
            found.append(f"{where}:{line} imports {theirs}: {mine} may import only "
                         f"{', '.join(sorted(ONLY[mine]))}")
        elif LAYERS[theirs] > LAYERS[mine]:
            found.append(f"{where}:{line} imports {theirs}, a layer above {mine}")
    return found


def runtime_part(source: str) -> str:
    """``source`` without its ``if TYPE_CHECKING:`` blocks (the top-level namespace re-exports
    every layer for type checkers, and loads them lazily)."""
    tree = ast.parse(source)
    tree.body = [node for node in tree.body
                 if not (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                         and node.test.id == "TYPE_CHECKING")]
    return ast.unparse(tree)


def modules() -> list[tuple[str, bool, Path]]:
    found = []
    for top in ("arena", "bots"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found.append((".".join(parts), is_package, path))
    return found


def own_imports(module: str, is_package: bool, source: str, known: set[str]) -> set[str]:
    """The modules of ``module``'s own package (among ``known``) that ``source`` imports."""
    found = set()
    for _, target in imported(module, is_package, ast.parse(source)):
        parts = target.split(".")
        while parts and ".".join(parts) not in known:
            parts.pop()  # a name inside a module: the module
        name = ".".join(parts)
        if name and name != module and package(name) == package(module):
            found.add(name)
    return found


def circles(imports: dict[str, set[str]]) -> list[frozenset[str]]:
    """The circles of ``imports`` (module to the modules it imports): each set of modules that
    import each other, round however many steps (a strongly connected part, Tarjan's)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in sorted(imports.get(module, ())):
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            part = {stack.pop()}
            while module not in part:
                part.add(stack.pop())
            if len(part) > 1:
                found.append(frozenset(part))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of the checkout, and the modules of its own package it imports."""
    every = modules()
    known = {module for module, _, _ in every}
    return {module: own_imports(module, is_package, path.read_text(encoding="utf-8"), known)
            for module, is_package, path in every}


def test_every_package_has_a_layer() -> None:
    assert {package(module) for module, _, _ in modules()} == set(LAYERS)


def test_imports_go_down_the_layers_and_through_public_names() -> None:
    found: list[str] = []
    for module, is_package, path in modules():
        source = path.read_text(encoding="utf-8")
        if module == "arena":
            source = runtime_part(source)
        found += problems(module, is_package, source, str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)


def test_the_temporary_allowances_are_still_needed() -> None:
    # An allowance that no module needs any more goes from ALLOWED, so the list only shrinks.
    used = set()
    for module, is_package, path in modules():
        where = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used |= {(where, target) for _, target in imported(module, is_package, tree)}
    assert used >= ALLOWED, sorted(ALLOWED - used)


@pytest.mark.parametrize(("module", "source", "complaint"), [
    ("arena.game._deal", "from arena.referee import run_match", "a layer above arena.game"),
    ("arena.referee._x", "import arena.tournament", "a layer above arena.referee"),
    ("arena.referee._x", "from arena.game._rules import trick_lock", "private to arena.game"),
    ("arena.cli._x", "from arena.game import _deal", "private to arena.game"),
    ("arena.cli._x", "from arena.tournament import _private", "private to arena.tournament"),
    ("arena.ratings._x", "from arena.game import Rules", "may import only arena.records"),
    ("arena.env._x", "from arena.referee import play_bots", "may import only arena.bot"),
    ("bots._x", "def f():\n    from arena.cli import main", "a layer above bots"),
    ("arena.referee._x", "from arena import run_tournament", "a layer above arena.referee"),
    ("arena.cli._x", "from arena.referee.sandbox import _jail", "private to arena.referee"),
    ("arena.cli._x", "import arena.referee.child.__main__", "not a face of arena.referee"),
])
def test_the_check_finds_a_wrong_import(module: str, source: str, complaint: str) -> None:
    (found,) = problems(module, False, source, "here.py")
    assert complaint in found


@pytest.mark.parametrize(("module", "source"), [
    ("arena.cli._x", "from arena.tournament import run_tournament"),
    ("arena.referee._x", "from arena.game import Rules\nfrom arena.records import get_logger"),
    ("arena.game._view", "from ._cards import CARDS"),
    ("arena.ratings._x", "from arena.records import read_records"),
    ("bots._x", "from arena.plugins import get_plugin_manager"),
    ("arena.web._x", "from arena.referee.testing import MemoryHost"),
    ("arena.referee.hosts._x", "from ..sandbox._cputime import Meter"),
])
def test_the_check_lets_a_right_import_through(module: str, source: str) -> None:
    assert problems(module, False, source, "here.py") == []


def test_no_circle_of_imports_inside_a_package() -> None:
    found = [sorted(part) for part in circles(import_graph()) if part not in ALLOWED_CIRCLES]
    assert not found, "\n".join(" <-> ".join(part) for part in found)


def test_every_allowed_circle_is_still_there() -> None:
    assert set(ALLOWED_CIRCLES) <= set(circles(import_graph()))


def test_the_check_finds_a_planted_circle() -> None:
    """Three modules round a circle, one import of it in a function and one for types only;
    a fourth that imports them stands outside it, and so does a module of another package."""
    sources = {
        "arena.game._a": "from ._b import thing",
        "arena.game._b": "def f():\n    from arena.game._c import other",
        "arena.game._c": "from typing import TYPE_CHECKING\n"
                         "if TYPE_CHECKING:\n    from arena.game._a import _private",
        "arena.game._d": "from ._a import thing\nfrom arena.env._x import y",
        "arena.env._x": "from arena.game import Deal",
    }
    graph = {module: own_imports(module, False, source, set(sources))
             for module, source in sources.items()}
    assert circles(graph) == [frozenset({"arena.game._a", "arena.game._b", "arena.game._c"})]
    sources["arena.game._c"] = "import arena.game._d"
    graph["arena.game._c"] = own_imports("arena.game._c", False, sources["arena.game._c"],
                                         set(sources))
    assert circles(graph) == [frozenset({"arena.game._a", "arena.game._b", "arena.game._c",
                                         "arena.game._d"})]
