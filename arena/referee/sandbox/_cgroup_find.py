"""Where arena can make memory cgroups: the writable memory controller that
``/proc/self/mountinfo`` and ``/proc/self/cgroup`` show (cgroup v2 first, else v1), or one
line saying why there is none. Only reads files; :mod:`arena.referee.sandbox._cgroup` makes and
removes the cgroups.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["CGROUP_ENV", "Controller", "find"]

CGROUP_ENV = "ARENA_CGROUP"
"""``none`` (no memory cgroup), or the folder of a cgroup to make the arena parent in;
unset: found (v2 first, else v1)."""

_PREFIX = "arena-"


@dataclass(frozen=True, slots=True)
class Controller:
    """A writable memory controller: cgroup ``version`` (1 or 2), and ``base``, the folder
    in which this process makes its arena parent."""

    version: int
    base: str

    def parent(self) -> str:
        """This process's arena parent (it may not exist yet)."""
        return os.path.join(self.base, f"{_PREFIX}{os.getpid()}-{_start_time(os.getpid())}")


def _start_time(pid: int) -> str:
    """The start time of process ``pid`` in clock ticks since boot (``/proc/PID/stat``
    field 22), or ``""`` if it has gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return ""
    fields = stat[stat.rfind(b")") + 2 :].split()
    return fields[19].decode() if len(fields) > 19 else ""


def _read(path: str) -> str:
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return ""


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _mounts(mountinfo: str) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    """(root, mount point) of the first cgroup v2 mount and of the first v1 mount with the
    memory controller, from ``/proc/self/mountinfo``'s text."""
    v2 = v1 = None
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        where = (fields[3], fields[4].replace("\\040", " "))
        if tail[0] == "cgroup2" and v2 is None:
            v2 = where
        elif tail[0] == "cgroup" and "memory" in tail[2].split(",") and v1 is None:
            v1 = where
    return v2, v1


def _own(cgroups: str) -> tuple[str | None, str | None]:
    """This process's cgroup v2 path and v1 memory path, from ``/proc/self/cgroup``."""
    v2 = v1 = None
    for line in cgroups.splitlines():
        number, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        if number == "0" and names == "":
            v2 = path
        elif "memory" in names.split(","):
            v1 = path
    return v2, v1


def _folder(mount: tuple[str, str], path: str) -> str | None:
    """The folder of cgroup ``path`` under ``mount`` (its root, its mount point), or None
    when the mount does not show it."""
    root, point = mount
    root = root.rstrip("/")
    if root and path != root and not path.startswith(root + "/"):
        return None
    folder = os.path.normpath(point + "/" + path[len(root):])
    return folder if folder.startswith(point.rstrip("/")) else None


def _v2_base(folder: str, top: bool) -> Controller | str:
    """The controller whose arena parent goes beside the v2 cgroup in ``folder`` (``top``:
    the root of its mount), or why not."""
    if "memory" not in _read(os.path.join(folder, "cgroup.controllers")).split():
        return "cgroup v2: no memory controller for arena's cgroup"
    if "memory" in _read(os.path.join(folder, "cgroup.subtree_control")).split():
        base = folder  # the root, or a cgroup that hands the controller down already
    elif top:  # a container's own tree: its root holds processes, so hands nothing down
        return ("cgroup v2: arena runs in the root of its cgroup tree, which holds processes "
                "and so cannot hand the memory controller down")
    else:
        base = os.path.dirname(folder)
        if "memory" not in _read(os.path.join(base, "cgroup.subtree_control")).split():
            return "cgroup v2: the memory controller is not enabled beside arena's cgroup"
    if not os.access(base, os.W_OK):
        return f"cgroup v2: {base} is not writable"
    return Controller(2, base)


def find(mountinfo: str, cgroups: str, choice: str = "") -> Controller | str:
    """The memory controller that ``/proc/self/mountinfo`` and ``/proc/self/cgroup`` (their
    texts) show, or one line saying why none is usable; ``choice`` is ``ARENA_CGROUP``.

    Only reads the files; :func:`controller` then tries it."""
    if choice.lower() in ("none", "off"):
        return f"{CGROUP_ENV}={choice}"
    if choice:
        path = os.path.abspath(choice)
        if os.path.isfile(os.path.join(path, "memory.max")):
            return Controller(2, path)
        if os.path.isfile(os.path.join(path, "memory.limit_in_bytes")):
            return Controller(1, path)
        return f"{CGROUP_ENV}={choice} is not a memory cgroup"
    (v2_mount, v1_mount), (v2_path, v1_path) = _mounts(mountinfo), _own(cgroups)
    reasons = []
    if v2_mount is not None and v2_path is not None:
        folder = _folder(v2_mount, v2_path)
        found = (_v2_base(folder, folder == os.path.normpath(v2_mount[1])) if folder
                 else "cgroup v2: arena's cgroup is not mounted here")
        if isinstance(found, Controller):
            return found
        reasons.append(found)
    else:
        reasons.append("no cgroup v2")
    if v1_mount is not None and v1_path is not None:
        folder = _folder(v1_mount, v1_path)
        if folder is None or not os.path.isfile(os.path.join(folder, "memory.limit_in_bytes")):
            reasons.append("cgroup v1: arena's memory cgroup is not mounted here")
        elif not os.access(folder, os.W_OK):
            reasons.append(f"cgroup v1: {folder} is not writable")
        else:
            return Controller(1, folder)
    else:
        reasons.append("no cgroup v1 memory controller")
    return "; ".join(reasons)
