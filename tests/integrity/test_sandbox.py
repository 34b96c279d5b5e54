"""The sandbox's mechanisms: bubblewrap, the unshare fallback, and none at all."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import arena.referee._sandbox as sandbox
from arena.tournament import ConfigError, validate_config

from .test_hostile import home, tournament

__all__ = ["home"]  # a fixture, used by name


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Pretend only some sandbox programs are installed (mechanism() is found again)."""

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


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="the unshare fallback needs root and util-linux unshare")
def test_the_unshare_fallback_hides_the_run_and_kills_escapers(only: Any, home: Path) -> None:
    assert only("unshare") == "unshare"
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


@pytest.mark.skipif(sandbox.mechanism() is None, reason="no sandbox on this machine")
def test_an_entrant_under_tmp_starts_in_the_sandbox(tmp_path: Path) -> None:
    """A checkout, a virtual environment or an entrant under /tmp, which the sandbox
    replaces by an empty folder: what the bot needs to start is shown read-only."""
    import sys

    import yaml

    from arena.records import read_records
    from arena.tournament import run_tournament

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
