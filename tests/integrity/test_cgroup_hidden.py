"""Hostile entrants, third pass: no cgroup tree in the sandbox.

``/sys/fs/cgroup`` was the machine's, read-only but readable: one seat read another's
``memory.usage_in_bytes`` while that one pulsed memory by the cards it held, and decoded
its hand; the other tables' cgroups were listed too. Now the folder is absent, and
``/proc/self/cgroup`` (a cgroup namespace of the bot's own, under both mechanisms) names
no arena cgroup, with or without a memory cgroup.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_hostile import MECHANISM, NO_SANDBOX, home, tournament

__all__ = ["home"]  # a fixture, used by name

pytestmark = pytest.mark.skipif(MECHANISM is None, reason=NO_SANDBOX)


@pytest.mark.parametrize("cgroup", ["none", ""])
def test_a_bot_sees_no_cgroup_tree_and_no_arena_cgroup(
        home: Path, monkeypatch: pytest.MonkeyPatch, cgroup: str) -> None:
    monkeypatch.setenv("ARENA_CGROUP", cgroup)
    _, version = tournament(home, "cgroups", "cgroup")
    assert version == "cgroup:tree=False,fs=True,named=False", version
