"""Finding the memory controller a bot's cgroup is made with, in a fake cgroup tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.referee.sandbox._cgroup import (
    CGROUP_ENV,
    Controller,
    MemoryCgroup,
    _stale,
    _start_time,
    find,
    memory_bound,
)


def mountinfo(tmp_path: Path, v2_root: str = "/", v1_root: str = "/") -> str:
    return (f"31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
            f"35 31 0:32 {v1_root} {tmp_path}/memory rw,relatime - cgroup cgroup rw,memory\n"
            f"36 31 0:33 / {tmp_path}/cpu rw,relatime - cgroup cgroup rw,cpu\n"
            f"41 31 0:38 {v2_root} {tmp_path}/unified rw,relatime - cgroup2 cgroup2 rw\n")


def cgroup(folder: Path, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name.replace("_", ".", 1)).write_text(text)
    return folder


def v1_tree(tmp_path: Path, path: str = "job") -> Path:
    return cgroup(tmp_path / "memory" / path, memory_limit_in_bytes="9223372036854771712\n")


OWN = "4:memory:/job\n2:cpu:/\n0::/work/arena\n"


def test_v2_comes_first_beside_arenas_own_cgroup(tmp_path: Path) -> None:
    cgroup(tmp_path / "unified" / "work", cgroup_subtree_control="cpu memory\n")
    cgroup(tmp_path / "unified" / "work" / "arena", cgroup_controllers="cpu memory\n",
           cgroup_subtree_control="")
    v1_tree(tmp_path)
    found = find(mountinfo(tmp_path), OWN)
    assert found == Controller(2, str(tmp_path / "unified" / "work"))


def test_v2_in_a_cgroup_that_hands_memory_down_already(tmp_path: Path) -> None:
    cgroup(tmp_path / "unified", cgroup_controllers="memory\n",
           cgroup_subtree_control="memory\n")
    assert find(mountinfo(tmp_path), "0::/\n") == Controller(2, str(tmp_path / "unified"))


def test_v2_without_the_memory_controller_falls_back_to_v1(tmp_path: Path) -> None:
    cgroup(tmp_path / "unified" / "work", cgroup_subtree_control="hugetlb\n")
    cgroup(tmp_path / "unified" / "work" / "arena", cgroup_controllers="hugetlb\n")
    v1_tree(tmp_path)
    assert find(mountinfo(tmp_path), OWN) == Controller(1, str(tmp_path / "memory" / "job"))


def test_v2_with_memory_not_enabled_beside_arena_falls_back_to_v1(tmp_path: Path) -> None:
    cgroup(tmp_path / "unified" / "work", cgroup_subtree_control="cpu\n")
    cgroup(tmp_path / "unified" / "work" / "arena", cgroup_controllers="cpu memory\n")
    v1_tree(tmp_path)
    assert find(mountinfo(tmp_path), OWN) == Controller(1, str(tmp_path / "memory" / "job"))


def test_a_container_mount_shows_its_own_cgroup_at_its_root(tmp_path: Path) -> None:
    v1_tree(tmp_path, "sub")
    info = mountinfo(tmp_path, v1_root="/docker/abc")
    assert find(info, "4:memory:/docker/abc/sub\n") == Controller(1, str(tmp_path / "memory"
                                                                          / "sub"))
    why = find(info, "4:memory:/elsewhere\n")
    assert isinstance(why, str) and "not mounted here" in why


def test_neither_says_why_in_one_line(tmp_path: Path) -> None:
    why = find("36 31 0:33 / /x rw - cgroup cgroup rw,cpu\n", "2:cpu:/\n")
    assert why == "no cgroup v2; no cgroup v1 memory controller"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes whatever a folder's mode says")
def test_a_read_only_controller_is_not_used(tmp_path: Path) -> None:
    folder = v1_tree(tmp_path)
    folder.chmod(0o555)
    try:
        why = find(mountinfo(tmp_path), "4:memory:/job\n")
        assert isinstance(why, str) and "is not writable" in why
    finally:
        folder.chmod(0o755)


def test_arena_cgroup_names_a_parent_or_turns_it_off(tmp_path: Path) -> None:
    assert find("", "", "none") == "ARENA_CGROUP=none"
    v1_tree(tmp_path)
    assert find("", "", str(tmp_path / "memory" / "job")) == Controller(
        1, str(tmp_path / "memory" / "job"))
    cgroup(tmp_path / "v2", memory_max="max\n")
    assert find("", "", str(tmp_path / "v2")) == Controller(2, str(tmp_path / "v2"))
    why = find("", "", str(tmp_path))
    assert isinstance(why, str) and "is not a memory cgroup" in why


def test_a_stale_parent_is_removed_and_a_live_one_kept(tmp_path: Path) -> None:
    dead = tmp_path / "arena-999999999-1"
    (dead / "bot-0").mkdir(parents=True)
    (dead / "bot-1").mkdir()
    busy = tmp_path / "arena-999999998-1"
    (busy / "bot-0").mkdir(parents=True)
    (busy / "bot-0" / "cgroup.procs").write_text("1\n")  # rmdir refuses, as for a live bot
    live = tmp_path / f"arena-{os.getpid()}-{_start_time(os.getpid())}"
    (live / "bot-0").mkdir(parents=True)
    other = tmp_path / "someone-elses"
    other.mkdir()
    _stale(str(tmp_path))
    assert not dead.exists()
    assert (busy / "bot-0").exists() and (live / "bot-0").exists() and other.exists()


def test_the_bound_is_said_per_process_without_a_cgroup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CGROUP_ENV, "none")
    assert memory_bound(512) == ("memory: 512 MB of address space per process, not per bot "
                                 "(no memory cgroup: ARENA_CGROUP=none)")
    assert memory_bound(None) == "memory: no bound (memory_mb: null)"


def test_v2_in_a_containers_own_tree_says_why_not(tmp_path: Path) -> None:
    cgroup(tmp_path / "unified", cgroup_controllers="cpu memory\n", cgroup_subtree_control="")
    why = find(mountinfo(tmp_path), "0::/\n")
    assert isinstance(why, str) and "root of its cgroup tree" in why.split(";")[0]


def test_a_memory_kill_is_a_fault_once_read_from_the_events_file(tmp_path: Path) -> None:
    """The hosts ask after every call: the file's text is compared with the last read and
    parsed only when it changed; a kill is told once, and a change without one is none."""
    events = tmp_path / "memory.oom_control"
    events.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 0\n")
    group = object.__new__(MemoryCgroup)  # the events file alone, without a cgroup
    group.version, group.memory_mb, group.closed, group._kills, group._seen = 1, 64, False, 0, b""
    group._events = os.open(events, os.O_RDONLY)
    try:
        assert group.fault() is None and group.fault() is None
        events.write_text("oom_kill_disable 0\nunder_oom 1\noom_kill 0\n")
        assert group.fault() is None  # under pressure, nothing killed yet
        events.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n")
        detail = group.fault()
        assert detail is not None and "memory_mb (64 MB)" in detail
        assert group.fault() is None and group.kills() == 1
        events.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")
        assert group.fault() is not None
    finally:
        os.close(group._events)
