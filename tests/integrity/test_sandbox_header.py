"""The sandbox line of `arena run` names what runs outside the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli._start_checks import sandbox_header
from arena.tournament import load_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


def test_a_uecda_client_is_named_as_not_sandboxed() -> None:
    line = sandbox_header(load_config(CONFIGS / "uecda.yaml"), None)
    assert "NOT sandboxed: 1 UECda client(s)" in line
    assert "for 1 process" not in line  # the UECda client is not counted as sandboxed


def test_inline_only_needs_no_sandbox() -> None:
    line = sandbox_header(load_config(CONFIGS / "demo.yaml"), None)
    assert line.startswith("sandbox: none needed")
    assert "UECda" not in line


def test_a_uecda_client_is_named_with_the_sandbox_off_too() -> None:
    line = sandbox_header(load_config(CONFIGS / "uecda.yaml"), False)
    assert "NOT sandboxed: 1 UECda client(s)" in line


def test_the_line_says_once_what_bounds_a_bots_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.referee.sandbox import _cgroup

    cfg = load_config(CONFIGS / "external-bot.yaml")
    mb = cfg.limits.limits().memory_mb
    line = sandbox_header(cfg, False)
    assert line.count("memory:") == 1 and line.endswith(_cgroup.memory_bound(mb))
    monkeypatch.setenv(_cgroup.CGROUP_ENV, "none")
    line = sandbox_header(cfg, False)
    assert line.endswith(f"memory: {mb} MB of address space per process, not per bot (no "
                         "memory cgroup: ARENA_CGROUP=none)")
