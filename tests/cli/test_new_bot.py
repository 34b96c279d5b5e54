"""``arena new-bot`` writes packages that install, get listed, and pass their own tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main

CLI = "from arena.cli import main; main()"


def _new(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["new-bot", *args, "--dir", str(tmp_path)])
    return result.exit_code, result.output


def test_the_python_package_installs_is_listed_and_passes_its_own_test(tmp_path: Path) -> None:
    code, out = _new(tmp_path, "my-bot")
    assert code == 0, out
    package = tmp_path / "my-bot"
    assert "README.md" in out and (package / "README.md").read_text().count("pip install -e")
    site = tmp_path / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--disable-pip-version-check", "--target", str(site),
         str(package)],
        capture_output=True, text=True, timeout=180,
    )
    assert pip.returncode == 0, pip.stderr
    env = {**os.environ, "PYTHONPATH": str(site)}
    listed = subprocess.run([sys.executable, "-c", CLI, "bots", "my-bot", "--json"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    (bot,) = json.loads(listed.stdout)["bots"]
    assert bot["name"] == "my-bot" and bot["plugin"] == "my-bot" and bot["version"] == "0.1.0"
    # Its own test, run where a bot writer runs it: in the package, against the install.
    tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-p", "no:randomly", "tests"],
                            cwd=package, env=env, capture_output=True, text=True, timeout=120)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "1 passed" in tested.stdout


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_javascript_bot_passes_its_own_test(tmp_path: Path) -> None:
    code, out = _new(tmp_path, "jsbot", "--lang", "js")
    assert code == 0, out
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    tested = subprocess.run(["node", "test.js"], cwd=tmp_path / "jsbot", env=env,
                            capture_output=True, text=True, timeout=180)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert tested.stdout.startswith("ok: ranking")


def test_bad_names_and_existing_folders_are_one_line_errors(tmp_path: Path) -> None:
    code, out = _new(tmp_path, "My Bot")
    assert code == 2 and "bot name 'My Bot'" in out and "Traceback" not in out
    assert _new(tmp_path, "twice")[0] == 0
    code, out = _new(tmp_path, "twice")
    assert code == 2 and "already exists" in out
