"""Commands that do the same thing share its default, and say so in their help."""

from __future__ import annotations

import click
from click.testing import CliRunner

from arena.cli import main


def option(command: str, name: str) -> click.Parameter:
    cmd = main.get_command(click.Context(main), command)
    assert cmd is not None
    (param,) = [p for p in cmd.params if p.name == name]
    return param


def test_ab_and_run_leave_the_workers_to_the_one_default_the_number_of_cores() -> None:
    for command in ("ab", "run"):
        assert option(command, "jobs").default is None, command  # run_tournament's default
    result = CliRunner().invoke(main, ["ab", "--help"])
    assert "default: the number of cores" in " ".join(result.stdout.split())


def test_play_help_lists_bots() -> None:
    result = CliRunner().invoke(main, ["play", "--help"])
    assert result.exit_code == 0 and "--bots" in result.stdout
