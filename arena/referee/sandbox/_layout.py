"""The file system of the sandbox, drawn as steps (bubblewrap's options, in order), which
bubblewrap follows, or the launcher under ``unshare`` (:mod:`arena.referee.sandbox._jail`).

Every folder of the machine is shown read-only but the private paths (the run's output
folder and config) and :data:`ABSENT`, which are simply not there: a folder with one of
them below it is made anew and its other entries shown one by one. A folder closed to
the bot's uid on the way to what the bot needs to start is made anew too, showing only
the way. :mod:`arena.referee.sandbox._sandbox` draws it and starts the mechanism.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

__all__ = ["ABSENT", "BOT_UID", "Step", "layout"]

BOT_UID = 65534
"""Whom a sandboxed bot runs as in its user namespace (``nobody``/``nogroup``), whoever
runs arena."""

_REPLACED = ("/proc", "/dev", "/tmp")
"""Top-level folders the sandbox makes anew rather than showing the machine's."""

ABSENT = ("/sys/fs/cgroup",)
"""The machine's folders a bot never sees, as the run's private paths: the cgroup tree
(another bot's memory use is a channel; the bot's own cgroup bounds it unseen)."""


Step = tuple[object, ...]


def _below(path: str, paths: Sequence[str] | frozenset[str]) -> bool:
    return any(p.startswith(path + "/") for p in paths)


def _visit(folder: str, hidden: frozenset[str], kind: str, steps: list[Step],
           skip: Sequence[str] = (), reach: Sequence[str] = (),
           closed: frozenset[str] = frozenset()) -> None:
    """Show what ``folder`` holds (``kind``: ``ro-bind`` or ``bind``), but the ``hidden``
    paths: a folder with a hidden path below it is made anew and its entries shown one
    by one, so a hidden path is simply absent, and no mount is named after it. A folder
    of ``closed`` (closed to the bot's uid, on the way to one of the ``reach`` paths) is
    made anew too, and shows only what leads to them."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return
    if folder in closed:
        names = [n for n in names if any(r == os.path.join(folder, n)
                                         or r.startswith(os.path.join(folder, n) + "/")
                                         for r in reach)]
    for name in names:
        path = os.path.join(folder, name)
        if path in skip or path in hidden:
            continue
        if os.path.islink(path):
            steps.append(("symlink", os.readlink(path), path))
        elif os.path.isdir(path) and (_below(path, hidden) or path in closed
                                      or _below(path, closed)):
            steps.append(("dir", path))
            _visit(path, hidden, kind, steps, reach=reach, closed=closed)
        else:
            steps.append((kind, path, path))


def _ancestors(path: str) -> list[str]:
    """The folders above ``path``, ``/`` left out."""
    parts = path.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def _closed(folder: str) -> bool:
    """Whether the bot's uid (:data:`BOT_UID`, the same outside) may not pass through
    ``folder`` by its permissions."""
    try:
        st = os.stat(folder)
    except OSError:
        return False
    return not (st.st_mode & 0o001 or (st.st_uid == BOT_UID and st.st_mode & 0o100)
                or (st.st_gid == BOT_UID and st.st_mode & 0o010))


def _show(path: str, hidden: frozenset[str], kind: str, steps: list[Step]) -> None:
    if path in hidden or not os.path.exists(path):
        return
    if os.path.isdir(path) and any(h.startswith(path + "/") for h in hidden):
        steps.append(("dir", path))
        _visit(path, hidden, kind, steps)
    else:
        steps.append((kind, path, path))


def layout(private: Sequence[str], writable: Sequence[str], keep: Sequence[str],
           tmp_bytes: int | None, reach: Sequence[str] = ()) -> list[Step]:
    """The sandbox's file system, step by step (bubblewrap's options, in order).

    ``keep``: what the bot needs under ``/tmp``; ``reach``: what it needs elsewhere,
    where a folder on the way is closed to its uid (a Python installation under a
    ``/root`` of mode 0700): that folder is made anew, showing only the way.
    """
    hidden = frozenset([*(os.path.realpath(p) for p in private), *ABSENT])
    reach = [r for r in reach if not _under_tmp(r)]
    closed = frozenset(a for r in reach for a in _ancestors(r) if _closed(a))
    steps: list[Step] = []
    _visit("/", hidden, "ro-bind", steps, skip=_REPLACED, reach=reach, closed=closed)
    steps += [("dev", "/dev"), ("proc", "/proc"), ("tmpfs", "/tmp", tmp_bytes),
              ("tmpfs", "/dev/shm", tmp_bytes), ("remount-ro", "/dev")]
    for path in keep:  # what the bot needs to start, where it lies under the private /tmp
        path = os.path.realpath(path)  # on its way, folders open to the bot's uid
        steps += [("dir", a) for a in _ancestors(path) if _under_tmp(a) and a != "/tmp"]
        _show(path, hidden, "ro-bind", steps)
    for path in writable:  # an organiser's choice: what it holds that is private is covered
        path = os.path.realpath(path)
        if path not in hidden and os.path.exists(path):
            steps += [("dir", a) for a in _ancestors(path) if _under_tmp(a) and a != "/tmp"]
            steps.append(("bind", path, path))
            steps += [("cover", h) for h in sorted(hidden) if h.startswith(path + "/")
                      and os.path.exists(h)]
    return steps


def _under_tmp(path: str) -> bool:
    return path == "/tmp" or path.startswith("/tmp/")
