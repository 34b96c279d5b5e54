"""A run's output folder, made by ``arena run``, is its user's alone (mode 0700): a sandboxed
bot of another run, which is nobody outside too, cannot read it (docs/security.md)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.cli import main

CONFIG = "name: t\nplayers: 2\nrules: {rounds: 1}\nbots: [random, lowest]\n"


def test_a_new_run_folder_is_its_users_alone(tmp_path: Path) -> None:
    config = tmp_path / "t.yaml"
    config.write_text(CONFIG)
    out = tmp_path / "new" / "out"
    done = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q",
                                     "--no-sandbox"])
    assert done.exit_code == 0, done.output
    assert out.stat().st_mode & 0o777 == 0o700


def test_a_folder_that_exists_keeps_its_mode(tmp_path: Path) -> None:
    config = tmp_path / "t.yaml"
    config.write_text(CONFIG)
    out = tmp_path / "out"
    out.mkdir(mode=0o755)
    out.chmod(0o755)
    done = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q",
                                     "--no-sandbox"])
    assert done.exit_code == 0, done.output
    assert out.stat().st_mode & 0o777 == 0o755
