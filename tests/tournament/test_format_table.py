"""One table of formats, and nothing outside a format's own module testing which format a
config has (docs/architecture.md, "A tournament format")."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from arena.tournament import TournamentConfig, config_schema, tournament_format
from arena.tournament._config._formats import FORMAT_MODELS
from arena.tournament._config._table import FORMATS as INSTALLED
from arena.tournament._formats import FORMATS, TABLE

ROOT = Path(__file__).resolve().parents[2]
FORMAT_MODULES = ROOT / "arena" / "tournament" / "_formats"


def test_every_module_of_the_table_is_a_format_installed_in_the_config() -> None:
    names = [importlib.import_module(module).FORMAT.name for module in TABLE]
    assert names == list(FORMATS) == list(INSTALLED) == list(FORMAT_MODELS)
    for name in names:
        fmt = tournament_format(name)
        assert INSTALLED[name] is fmt and FORMAT_MODELS[name] is fmt.settings
    union = config_schema()["properties"]["format"]
    assert {ref["$ref"].rsplit("/", 1)[-1] for ref in union["oneOf"]} == {
        model.__name__ for model in FORMAT_MODELS.values()}
    assert TournamentConfig.model_validate(
        {"name": "x", "players": 2, "bots": ["a", "b"]}).format.type == "round_robin"


def _format_tests(path: Path) -> list[str]:
    """Where ``path`` tests a config's format: ``X.format.type`` compared with a string, or
    ``isinstance(x, SomeFormat)`` of a settings model the module does not define."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT) if ROOT in path.parents else path
    own = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            typed = any(isinstance(s, ast.Attribute) and s.attr == "type"
                        and isinstance(s.value, ast.Attribute) and s.value.attr == "format"
                        for s in sides)
            text = any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides)
            if typed and text:
                found.append(f"{where}:{node.lineno}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "isinstance" and len(node.args) == 2):
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if any(n.endswith("Format") and n not in own for n in names):
                found.append(f"{where}:{node.lineno}")
    return found


def test_no_module_tests_a_configs_format_but_the_formats_own() -> None:
    found = []
    for path in sorted((ROOT / "arena").rglob("*.py")):
        if FORMAT_MODULES in path.parents:
            continue
        found += _format_tests(path)
    assert found == [], "ask the format (tournament_format(...)) instead: " + ", ".join(found)


def test_the_guard_sees_a_format_tested(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text('def f(config):\n    return config.format.type == "league"\n'
                     "def g(fmt):\n    return isinstance(fmt, SwissFormat)\n")
    assert len(_format_tests(probe)) == 2
