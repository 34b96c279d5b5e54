"""Shipping a command bot's folder to the Dask workers that lack it.

A command whose file argument lies in a folder ``DIR`` with ``DIR.tar`` beside it (a
competition's entry is one: its built artifact, docs/competition.md) is shipped: the
machine running the tournament reads the tar once and scatters it to the cluster with its
sha256; a worker that lacks ``DIR`` fetches it through the scheduler with the task, checks
the hash and unpacks it there (the standard library's ``data`` filter: no path outside,
no link out of the folder, no device), renaming it into place whole, and keeps it for
every later match: the folder is the worker's cache.
"""

from __future__ import annotations

import hashlib
import io
import os
import shlex
import shutil
import stat
import tarfile
from pathlib import Path

__all__ = ["shipped_folder", "unpack_shipped"]


def shipped_folder(command: str) -> tuple[str, Path] | None:
    """The folder ``command`` runs from and its tar here, when the command names a file
    (by its absolute path) in a folder packed beside itself as ``DIR.tar``; else None."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for word in words[1:]:
        path = Path(word)
        if path.is_absolute() and path.parent != path:
            packed = path.parent.with_name(f"{path.parent.name}.tar")
            if packed.is_file():
                return str(path.parent), packed
    return None


def _own_folder(path: Path) -> str | None:
    """Why ``path`` is not a folder of this user's (made if absent), or None."""
    path.mkdir(parents=True, exist_ok=True)
    found = os.lstat(path)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
        return f"{path} is not a folder of this user's"
    os.chmod(path, 0o755)  # a sandboxed bot's user passes through it
    return None


def unpack_shipped(folder: str, sha256: str, data: bytes) -> str | None:
    """Make ``folder`` from its shipped tar ``data`` unless it is here already; why it
    could not, or None."""
    target = Path(folder)
    if target.is_dir():
        return None
    if hashlib.sha256(data).hexdigest() != sha256:
        return f"the folder {folder} came with another hash than its own"
    if not hasattr(tarfile, "data_filter"):
        return f"unpacking {folder} needs Python 3.11.4 or later (tarfile's data filter)"
    problem = _own_folder(target.parent)
    if problem is not None:
        return problem
    partial = target.with_name(f".{target.name}.{os.getpid()}.new")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            tar.extractall(partial, filter="data")
        os.chmod(partial, 0o755)
        os.rename(partial, target)
    except (tarfile.TarError, OSError) as exc:
        return f"cannot unpack {folder}: {exc}"
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return None
