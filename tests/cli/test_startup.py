"""``arena --help`` and ``arena bots`` start without importing what they do not use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


INLINE_RUN = """\
name: inline
seed: 1
rules: {preset: runs}
players: 4
format: {type: round_robin}
jobs: 1
bots:
  - {name: random}
  - {name: lowest}
  - {name: highest}
  - {name: passer}
"""

UNUSED_BY_INLINE = ("trio", "structlog", "asyncio", "rich")
"""What a quiet run of inline bots never uses: the process hosts' event loop, the operational
logs (nothing is logged) and their asyncio, the terminal's drawing."""


def test_a_quiet_run_of_inline_bots_imports_no_event_loop_logs_or_drawing(tmp_path: Path) -> None:
    config = tmp_path / "inline.yaml"
    config.write_text(INLINE_RUN)
    args = ["run", str(config), "--out", str(tmp_path / "out"), "--quiet"]
    proc = subprocess.run([sys.executable, "-c", PROBE.format(heavy=UNUSED_BY_INLINE), *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "records.jsonl").read_text().count("\n") == 1
    assert (tmp_path / "out" / "standings.json").is_file()
    assert proc.stderr.strip().splitlines()[-1:] in ([], [""]), proc.stderr
