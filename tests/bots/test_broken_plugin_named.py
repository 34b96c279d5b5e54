"""A third-party plugin that fails to load is named, with its error, wherever its bot is
started.

The referee lists it by its package's metadata and never imports it, so its name is known;
its import fails where its bot starts (the child process of its seat, or the try-out of
``arena validate``), and that start's one-line error says why.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main

from .plugin_fixtures import Install, install

__all__ = ["install"]

SAVER = "import nonexistent_module_xyz\n"
WHY = ("plugin 'saver' failed to load: cannot import 'saver_mod': ModuleNotFoundError: "
       "No module named 'nonexistent_module_xyz'")


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text("name: t\nplayers: 2\nbots:\n  - name: saver\n  - name: random\n")
    return path


@pytest.mark.parametrize("command", [
    lambda tmp: ["match", "saver", "random", "--rounds", "1"],
    lambda tmp: ["match", "saver", "random", "--host", "process", "--rounds", "1"],
    lambda tmp: ["validate", str(_config(tmp))],
    lambda tmp: ["run", str(_config(tmp)), "--out", str(tmp / "out")],
    lambda tmp: ["ab", "saver", "random", "--max-sets", "1"],
], ids=["match", "match-process", "validate", "run", "ab"])
def test_unknown_bot_message_names_the_broken_plugin_and_its_error(
    install: Install, tmp_path: Path, command: object
) -> None:
    install("saver-bots", "saver", "saver_mod", SAVER)
    args = command(tmp_path)  # type: ignore[operator]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    # One line says it (arena run's sandbox header may come before it).
    errors = [line for line in result.stderr.splitlines() if "saver" in line]
    assert len(errors) == 1, result.stderr
    assert "bot 'saver'" in errors[0] and WHY in errors[0]


def test_the_listing_knows_the_plugin_by_its_metadata_and_imports_nothing(
    install: Install,
) -> None:
    install("saver-bots", "saver", "saver_mod", SAVER)
    result = CliRunner().invoke(main, ["bots", "saver", "--json"])
    assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(result.stdout)["bots"] == [{
        "name": "saver", "plugin": "saver", "version": "1.2.3", "description": None,
        "author": None, "stochastic": None, "imported": False, "distribution": "saver-bots"}]


def test_without_broken_plugins_the_message_has_no_note(install: Install) -> None:
    result = CliRunner().invoke(main, ["match", "nosuch", "random"])
    assert result.exit_code == 2
    assert "unknown bot 'nosuch'" in result.stderr and "failed to load" not in result.stderr
