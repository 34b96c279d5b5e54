"""Unpacking a submitted archive as hostile input: nothing outside its folder, no links, no
devices, bounded size, file count and compression ratio.

A zip or tar archive (gzip, bzip2 or xz compressed) is read member by member and each
member is refused before anything of it is written when its name climbs out (``..``, an
absolute path, a drive, a backslash), is not printable, or repeats another; when it is a
link (symbolic or hard), a device, a FIFO or anything but a file or a folder. Files are
written by streaming at most the bounds' bytes, counted as they are decompressed (a zip's
declared sizes are not trusted), into a folder that must be new, with ``O_EXCL`` and
``O_NOFOLLOW``, mode 0644 (0755 for a file its owner could run in the archive): a zip
bomb stops at ``max_bytes`` or at ``max_ratio`` times the archive's own size, whichever
comes first. On any refusal the folder is removed whole.
"""

from __future__ import annotations

import lzma
import os
import shutil
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from ._store import CompetitionError

__all__ = ["UnpackLimits", "unpack_archive"]

_CHUNK = 65_536


@dataclass(frozen=True)
class UnpackLimits:
    """How much an archive may hold once unpacked."""

    max_bytes: int = 64 * 1024 * 1024  # every file's bytes together
    max_files: int = 2_000  # files and folders
    max_ratio: float = 100.0  # unpacked bytes per byte of the archive


@dataclass(frozen=True)
class _Member:
    name: str
    kind: str  # "file", "dir" or what it is instead (refused)
    open: object  # a callable giving the member's bytes as a binary stream (files only)
    executable: bool = False  # a file its owner may run: written 0755, else 0644


def _safe_name(raw: str) -> PurePosixPath:
    """The member's relative path, or a refusal naming it."""
    shown = repr(raw[:80])
    if not raw or any(not c.isprintable() for c in raw) or "\\" in raw:
        raise CompetitionError(f"the archive holds a name that is not a plain path: {shown}")
    path = PurePosixPath(raw)
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise CompetitionError(f"the archive holds a path outside its folder: {shown}")
    parts = [p for p in path.parts if p != "."]
    if not parts:
        raise CompetitionError(f"the archive holds an empty name: {shown}")
    return PurePosixPath(*parts)


def _zip_members(archive: zipfile.ZipFile) -> Iterator[_Member]:
    for info in archive.infolist():
        kind_bits = stat.S_IFMT(info.external_attr >> 16)  # 0: a zip written without them
        if kind_bits == stat.S_IFLNK:
            kind = "a symbolic link"
        elif kind_bits not in (0, stat.S_IFREG, stat.S_IFDIR):
            kind = "a special file"
        else:
            kind = "dir" if info.is_dir() else "file"
        yield _Member(info.filename, kind, lambda info=info: archive.open(info),
                      bool((info.external_attr >> 16) & stat.S_IXUSR))


def _tar_members(archive: tarfile.TarFile) -> Iterator[_Member]:
    for info in archive:
        if info.isreg():
            kind = "file"
        elif info.isdir():
            kind = "dir"
        elif info.issym():
            kind = "a symbolic link"
        elif info.islnk():
            kind = "a hard link"
        elif info.ischr() or info.isblk():
            kind = "a device"
        elif info.isfifo():
            kind = "a FIFO"
        else:
            kind = "a special file"
        yield _Member(info.name, kind, lambda info=info: archive.extractfile(info),
                      bool(info.mode & stat.S_IXUSR))


class _Budget:
    def __init__(self, limits: UnpackLimits, archive_bytes: int) -> None:
        self.left = int(min(limits.max_bytes, limits.max_ratio * max(archive_bytes, 1)))
        self.files = limits.max_files
        self.limits = limits

    def entry(self) -> None:
        self.files -= 1
        if self.files < 0:
            raise CompetitionError(f"the archive holds more than {self.limits.max_files} "
                                   "files and folders")

    def spend(self, count: int) -> None:
        self.left -= count
        if self.left < 0:
            raise CompetitionError(
                f"the archive unpacks to more than {self.limits.max_bytes} bytes or "
                f"{self.limits.max_ratio:g} times its own size (stopped there)")


def _write(source: IO[bytes], target: Path, budget: _Budget, mode: int) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(target, flags, mode)
    with os.fdopen(fd, "wb") as out:
        while chunk := source.read(_CHUNK):
            budget.spend(len(chunk))
            out.write(chunk)


def _extract(members: Iterator[_Member], dest: Path, budget: _Budget) -> list[Path]:
    seen: set[PurePosixPath] = set()
    written: list[Path] = []
    for member in members:
        name = _safe_name(member.name)
        if member.kind not in ("file", "dir"):
            raise CompetitionError(f"the archive holds {member.kind}: {member.name[:80]!r}")
        if name in seen:
            raise CompetitionError(f"the archive holds {str(name)[:80]!r} twice")
        seen.add(name)
        budget.entry()
        target = dest.joinpath(*name.parts)
        for parent in reversed(target.relative_to(dest).parents[:-1]):
            (dest / parent).mkdir(exist_ok=True)
        if member.kind == "dir":
            target.mkdir(exist_ok=True)
            continue
        opener = member.open
        assert callable(opener)
        source = opener()
        if source is None:
            raise CompetitionError(f"the archive's {member.name[:80]!r} cannot be read")
        with source:
            _write(source, target, budget, 0o755 if member.executable else 0o644)
        written.append(target)
    return written


def _unpack(archive: Path, dest: Path, budget: _Budget) -> list[Path]:
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zipped:
            return _extract(_zip_members(zipped), dest, budget)
    if not tarfile.is_tarfile(archive):
        raise CompetitionError("the file is neither a zip nor a tar archive")
    with tarfile.open(archive, mode="r:*") as tarred:
        return _extract(_tar_members(tarred), dest, budget)


def unpack_archive(archive: Path, dest: Path, limits: UnpackLimits = UnpackLimits()
                   ) -> list[Path]:
    """Unpack ``archive`` (zip or tar) into ``dest``, which must not exist yet; the files
    written. A :class:`CompetitionError` in one line names what was refused, and ``dest``
    is then removed."""
    budget = _Budget(limits, archive.stat().st_size)
    dest.mkdir(parents=False, exist_ok=False)
    try:
        return _unpack(archive, dest, budget)
    except CompetitionError:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, NotImplementedError, OSError,
            zlib.error, lzma.LZMAError) as exc:
        shutil.rmtree(dest, ignore_errors=True)
        raise CompetitionError(f"the archive cannot be unpacked: {exc}") from None
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
