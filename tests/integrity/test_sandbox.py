"""The sandbox's mechanisms: bubblewrap, the unshare fallback, and none at all."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import arena.referee.sandbox._sandbox as sandbox
from arena.tournament import ConfigError, validate_config

from .test_hostile import home, tournament

__all__ = ["home"]  # a fixture, used by name


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Pretend only some sandbox programs are installed (mechanism() is found again)."""

    monkeypatch.delenv(sandbox.MECHANISM_ENV, raising=False)

    def choose(*programs: str) -> str | None:
        real = shutil.which
        monkeypatch.setattr(sandbox.shutil, "which",
                            lambda name: real(name) if name in programs else None)
        sandbox._probe.cache_clear()
        return sandbox.mechanism()

    yield choose
    sandbox._probe.cache_clear()


def test_validate_refuses_a_sandbox_the_machine_cannot_give(only: Any) -> None:
    assert only() is None
    config = {"name": "x", "players": 2, "bots": [{"name": "greedy"}, {"name": "random"}],
              "limits": {"sandbox": True}}
    with pytest.raises(ConfigError, match=r"limits\.sandbox: this machine cannot sandbox bots"):
        validate_config(config)
    validate_config({**config, "limits": {"sandbox": None}})  # auto: runs unsandboxed


def test_validate_says_why_in_one_line(only: Any) -> None:
    assert only() is None
    why = sandbox.unavailable_reason()
    assert why is not None and "\n" not in why
    assert "bwrap is not installed" in why and "unshare is not installed" in why
    config = {"name": "x", "players": 2, "bots": [{"name": "greedy"}, {"name": "random"}],
              "limits": {"sandbox": True}}
    with pytest.raises(ConfigError, match="bwrap is not installed"):
        validate_config(config)


def test_arena_sandbox_forces_a_mechanism_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        monkeypatch.setenv(sandbox.MECHANISM_ENV, "none")
        assert sandbox.mechanism() is None
        assert sandbox.unavailable_reason() == "no sandbox on this machine: ARENA_SANDBOX=none"
        with pytest.raises(sandbox.SandboxUnavailable, match="ARENA_SANDBOX=none"):
            sandbox.sandbox_argv()
        monkeypatch.setenv(sandbox.MECHANISM_ENV, "chroot")
        assert sandbox.mechanism() is None
        assert "'chroot' is not one of bwrap, unshare, none" in (sandbox.unavailable_reason()
                                                                  or "")
        for kind in ("bwrap", "unshare"):
            monkeypatch.setenv(sandbox.MECHANISM_ENV, kind)
            assert sandbox.mechanism() in (kind, None)
    finally:
        sandbox._probe.cache_clear()


_UNSHARE = sandbox._probe("unshare")


@pytest.mark.skipif(_UNSHARE[0] is None, reason=f"no unshare fallback here: {_UNSHARE[1]}")
def test_the_unshare_fallback_hides_the_run_and_kills_escapers(only: Any, home: Path) -> None:
    assert only("unshare") == "unshare"
    # a user namespace of its own, not real root (as root: one arena made, entered)
    assert "--user" in sandbox.sandbox_argv() or any(
        a.startswith("--user=/proc/self/fd/") for a in sandbox.sandbox_argv())
    _, version = tournament(home, "escaper", "setsid")  # checks nothing survives
    assert version == "setsid:started"
    out = home / "reader"
    files = [home / "reader.yaml", out / "records.jsonl"]
    _, version = tournament(home, "reader", "read", *map(str, files))
    assert version == "read:FileNotFoundError,FileNotFoundError"
    _, version = tournament(home, "caller", "connect", "9")
    assert version.startswith("connect:") and version != "connect:ok"


def test_what_a_bot_needs_under_tmp_stays_visible(tmp_path: Path) -> None:
    script = tmp_path / "bots" / "entrant.py"
    script.parent.mkdir()
    script.write_text("")
    keep = sandbox.needed_under_tmp(["python3", str(script), "--flag", "/usr/bin"])
    assert str(script.parent) in keep and "/usr/bin" not in keep and "/tmp" not in keep
    # nested paths are kept once, by their outermost folder
    keep = sandbox.needed_under_tmp([str(tmp_path), str(script)])
    assert str(tmp_path) in keep and str(script.parent) not in keep


@pytest.mark.skipif(sandbox.mechanism() is None, reason=sandbox.unavailable_reason() or "")
def test_an_entrant_under_tmp_starts_in_the_sandbox(tmp_path: Path) -> None:
    """A checkout, a virtual environment or an entrant under /tmp, which the sandbox
    replaces by an empty folder: what the bot needs to start is shown read-only."""
    import sys

    import yaml

    from arena.records import read_records
    from arena.tournament import run_tournament

    tmp_path.chmod(0o755)  # open to the bot's uid (pytest makes it 0700)

    entrant = tmp_path / "entrant" / "hostile_entrant.py"
    entrant.parent.mkdir()
    for name in ("hostile_entrant.py", "entrant_play.py"):  # the entrant's own files
        shutil.copy(Path(__file__).parent / name, entrant.parent / name)
    config = tmp_path / "t.yaml"
    config.write_text(yaml.safe_dump({
        "name": "tmp", "seed": 5, "players": 3, "rules": {"rounds": 1},
        "format": {"type": "round_robin"}, "jobs": 1,
        "bots": [{"label": "entrant", "command": f"{sys.executable} {entrant} m plain"},
                 {"name": "greedy"}, {"name": "random"}],
        "limits": {"move_ms": 3000, "start_ms": 20000, "sandbox": True},
    }))
    result = run_tournament(config, out=tmp_path / "out")
    [record] = list(read_records(Path(result.records)))
    assert record["seats"][0]["version"] == "plain"
    assert not any(deal["faults"] for deal in record["deals"])


def test_the_import_path_under_tmp_stays_visible(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable install in a checkout under /tmp puts its folder on the import path of
    process bots (and the probe's): it is kept beside the private /tmp."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    monkeypatch.syspath_prepend(str(checkout))
    monkeypatch.chdir("/")
    assert str(checkout) in sandbox.needed_under_tmp()
    tools = tmp_path / "tools" / "bin"  # a bot's interpreter, found on PATH
    tools.mkdir(parents=True)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}/usr/bin")
    assert str(tools) in sandbox.needed_under_tmp()


@pytest.mark.parametrize("program", ["bwrap", "unshare"])
def test_a_folder_gone_since_the_layout_was_drawn_is_simply_absent(
        only: Any, tmp_path: Path, program: str) -> None:
    """A keep folder under /tmp with a private path in it is shown entry by entry; an entry
    removed between the layout and the bot's start (a neighbouring run's folder) must not
    stop the bot from starting."""
    import subprocess
    import sys

    if only(program) is None:
        pytest.skip(f"{program} cannot sandbox here: {sandbox.unavailable_reason()}")
    keep = tmp_path / "keep"
    (keep / "secret").mkdir(parents=True)
    (keep / "neighbour").mkdir()
    script = keep / "bot.py"
    script.write_text("import os; print(sorted(os.listdir(os.path.dirname(__file__))))\n")
    argv = sandbox.sandbox_argv(private=[str(keep / "secret")],
                                program=[sys.executable, str(script)])
    assert any(str(keep / "neighbour") in str(a) for a in argv)  # shown entry by entry
    (keep / "neighbour").rmdir()
    done = subprocess.run([*argv, sys.executable, str(script)], capture_output=True,
                          text=True, timeout=60, pass_fds=sandbox.sandbox_fds())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['bot.py']"
