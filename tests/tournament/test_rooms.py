"""The rooms of arena/tournament and arena/cli stay small, and their imports form no circle.

Parsed, not imported: every module's size, every function's length (from its ``def`` to its
last line, docstring included), and every import at any depth (lazy ones too) between the
modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIRS = ("arena/tournament", "arena/cli")
MAX_MODULE = 400
MAX_FUNCTION = 60

# Exceptions, each with its reason; a test fails once one is no longer needed.
LONG: dict[str, str] = {
    "arena/cli/_match.py:match_command": "arena match's output is reworked with issue 25",
    "arena/cli/_show.py:print_match": "arena show's output is reworked with issue 25",
    "arena/cli/_ratings.py:print_leaderboard": "arena ratings' output is reworked with issue 25",
}


def _modules() -> dict[str, Path]:
    found = {}
    for folder in DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _long_functions(path: Path) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT).as_posix()
    return {
        f"{where}:{node.name}": node.end_lineno - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION
    }


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_400_lines_nor_a_function_over_60(name: str) -> None:
    path = MODULES[name]
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE, f"{path.relative_to(ROOT)}: {lines} lines"
    long = {key: n for key, n in _long_functions(path).items() if key not in LONG}
    assert not long, ", ".join(f"{key}: {n} lines" for key, n in long.items())


def test_every_exception_is_still_needed() -> None:
    found = {key for path in MODULES.values() for key in _long_functions(path)}
    assert not set(LONG) - found, f"no longer long: {sorted(set(LONG) - found)}"


def _imports(name: str, path: Path) -> set[str]:
    """The modules of MODULES that ``name`` imports, at any depth of its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        found.update(t for t in targets if t in MODULES and t != name)
    return found


def test_no_circle_of_imports() -> None:
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    # a package's __init__ re-exports its modules: an import of the package from inside it
    # is an import of the module that defines the name, not of every module
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                circles.append([*trail[trail.index(target):], target])
            elif target not in state:
                visit(target, [*trail, target])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not circles, "; ".join(" -> ".join(c) for c in circles)
