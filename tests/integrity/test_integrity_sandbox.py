"""The sandbox's mechanisms: bubblewrap, the unshare fallback, and none at all."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_integrity_hostile import home, tournament

import arena.referee._sandbox as sandbox
from arena.tournament import ConfigError, validate_config

__all__ = ["home"]  # a fixture, used by name


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Pretend only some sandbox programs are installed (mechanism() is found again)."""

    def choose(*programs: str) -> str | None:
        real = shutil.which
        monkeypatch.setattr(sandbox.shutil, "which",
                            lambda name: real(name) if name in programs else None)
        sandbox.mechanism.cache_clear()
        return sandbox.mechanism()

    yield choose
    sandbox.mechanism.cache_clear()


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
    config, records = version.removeprefix("read:").split(",")
    assert config in ("0B", "PermissionError") and records == "FileNotFoundError"
    _, version = tournament(home, "caller", "connect", "9")
    assert version.startswith("connect:") and version != "connect:ok"
