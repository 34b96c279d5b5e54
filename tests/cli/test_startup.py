"""``arena --help`` and ``arena bots`` start without importing what they do not use."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.cli._lazy import LazyGroup

HEAVY = ("numpy", "pydantic", "trio", "yaml", "openskill", "structlog", "rich.live",
         "arena.tournament", "arena.ratings", "arena.referee", "arena.records")

PROBE = """
import sys
from arena.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
heavy = {heavy!r}
print(",".join(m for m in heavy if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("args", [["--help"], ["bots"], ["--version"], ["bots", "--json"]])
def test_help_and_bots_import_no_heavy_module(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1:] in ([], [""]), proc.stderr


def test_every_command_is_registered_and_its_listed_help_is_its_own() -> None:
    assert isinstance(main, LazyGroup)
    listed = CliRunner().invoke(main, ["--help"]).stdout
    for name, lazy in main.lazy_commands.items():
        command = main.load(name)
        assert isinstance(command, click.Command) and command.name == name
        assert (command.help or "").startswith(lazy.short_help.rstrip(".")), name
        assert f"  {name} " in listed
    # Loaded or not, the list reads the same.
    assert CliRunner().invoke(main, ["--help"]).stdout.count("\n") == listed.count("\n")


def test_a_command_runs_from_its_registration_alone() -> None:
    group = LazyGroup(name="g")
    group.lazy("bots", "arena.cli._bots:bots_command", "List every installed bot.")
    assert "bots" not in group.commands
    result = CliRunner().invoke(group, ["bots", "greedy", "--json"])
    assert result.exit_code == 0 and '"greedy"' in result.stdout
    assert "bots" in group.commands
