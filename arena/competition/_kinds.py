"""What a submission is, found and checked before anything of it is kept or built.

Three kinds (docs/competition.md):

- ``python-file``: one Python file defining a class on ``arena.Bot`` (:mod:`._files`);
- ``python-package``: a zip or tar archive of a Python package whose ``pyproject.toml``
  declares one ``arena.bots`` entry point and depends on nothing but arena;
- ``program``: a zip or tar archive of a program in any language whose ``arena.toml``
  names its ``run`` command (speaking docs/protocol.md) and, if it needs one, its
  ``build`` command.

An archive is unpacked as hostile input (:func:`._unpack.unpack_archive`) into a fresh
folder, read (never run) and removed; an archive that holds one folder and nothing else
is that folder's content. Whatever is wrong is one line, naming it.
"""

from __future__ import annotations

import importlib.metadata
import re
import shlex
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._files import check_python_file
from ._store import NAME_PATTERN, CompetitionError
from ._unpack import UnpackLimits, unpack_archive

__all__ = ["KINDS", "MANIFEST", "Checked", "check_submission", "manifest", "package_entry",
           "source_root"]

KINDS = ("python-file", "python-package", "program")
MANIFEST = "arena.toml"
"""A program's manifest: ``run`` (required) and ``build`` (optional), both one command."""

_ARCHIVE_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")
_OWN = "arena-president"
_MAX_COMMAND = 1000


@dataclass(frozen=True)
class Checked:
    """A checked submission: its kind, its content's hash and size, and its entry: the bot
    class (a file), the entry point's bot name (a package) or the run command (a program)."""

    kind: str
    sha256: str
    size: int
    entry: str


def is_archive(data: bytes) -> bool:
    """Whether ``data`` begins as a zip or a (compressed) tar archive does."""
    return data.startswith(_ARCHIVE_MAGIC) or data[257:262] == b"ustar"


def source_root(folder: Path) -> Path:
    """The folder an unpacked archive's content is in: ``folder``, or the one folder it
    holds alone."""
    inside = list(folder.iterdir())
    if len(inside) == 1 and inside[0].is_dir() and not inside[0].is_symlink():
        return inside[0]
    return folder


def _toml(path: Path, what: str) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise CompetitionError(f"the {what} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise CompetitionError(f"the {what} is not TOML: {exc}") from None


def _command(value: object, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > _MAX_COMMAND or any(
            not c.isprintable() for c in value):
        raise CompetitionError(f"{MANIFEST}: {key} must be one printable command line of at "
                               f"most {_MAX_COMMAND} characters")
    try:
        shlex.split(value)
    except ValueError as exc:
        raise CompetitionError(f"{MANIFEST}: {key} cannot be split into words: {exc}") from None
    return value


def manifest(root: Path) -> tuple[str, str | None]:
    """A program's ``(run, build)`` from ``root/arena.toml``, checked."""
    data = _toml(root / MANIFEST, MANIFEST)
    unknown = sorted(set(data) - {"run", "build"})
    if unknown:
        raise CompetitionError(f"{MANIFEST}: unknown key {unknown[0]!r} (it takes run and "
                               "build)")
    if "run" not in data:
        raise CompetitionError(f"{MANIFEST}: no run command (run = \"./bot\")")
    build = data.get("build")
    return _command(data["run"], "run"), None if build is None else _command(build, "build")


def _requirement_name(text: object) -> str:
    name = re.split(r"[\s<>=!~\[;(@]", str(text).strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def package_entry(root: Path) -> str:
    """A package's bot name, its one ``arena.bots`` entry point, from
    ``root/pyproject.toml``, checked: it depends on nothing beyond arena, its build needs
    only what this server has, and its name is no installed bot's."""
    data = _toml(root / "pyproject.toml", "pyproject.toml")
    project = data.get("project")
    if not isinstance(project, dict):
        raise CompetitionError("pyproject.toml has no [project] table")
    points = (project.get("entry-points") or {}).get("arena.bots")
    if not isinstance(points, dict) or len(points) != 1:
        raise CompetitionError("pyproject.toml must declare one entry point in "
                               "[project.entry-points.\"arena.bots\"] (NAME = \"module\")")
    name = str(next(iter(points)))
    if NAME_PATTERN.fullmatch(name) is None:
        raise CompetitionError(f"the entry point's name {name[:40]!r} is not 1-32 letters, "
                               "digits, '_', '.' or '-'")
    for requirement in project.get("dependencies") or []:
        if _requirement_name(requirement) != _OWN:
            raise CompetitionError(
                f"the package depends on {str(requirement)[:60]!r}: a submission may depend "
                "on nothing beyond the standard library and arena (builds have no network)")
    system = data.get("build-system")
    for requirement in (system.get("requires") or []) if isinstance(system, dict) else []:
        try:
            importlib.metadata.distribution(_requirement_name(requirement))
        except importlib.metadata.PackageNotFoundError:
            raise CompetitionError(f"the build needs {str(requirement)[:60]!r}, which this "
                                   "server does not have (builds have no network)") from None
    from arena.plugins import registry

    if name in registry().names():
        raise CompetitionError(f"the entry point's name {name!r} is an installed bot's")
    return name


def _check_archive(data: bytes, kinds: tuple[str, ...], limits: UnpackLimits) -> Checked:
    import hashlib

    with tempfile.TemporaryDirectory(prefix="arena-check-") as scratch:
        archive = Path(scratch) / "submission"
        archive.write_bytes(data)
        unpack_archive(archive, Path(scratch) / "src", limits)
        root = source_root(Path(scratch) / "src")
        if (root / MANIFEST).is_file():
            kind, entry = "program", manifest(root)[0]
        elif (root / "pyproject.toml").is_file():
            kind, entry = "python-package", ""
        else:
            raise CompetitionError(f"the archive holds neither a pyproject.toml (a Python "
                                   f"package) nor an {MANIFEST} (a program's manifest)")
        if kind not in kinds:
            raise CompetitionError(f"the submission is a {kind}; this competition takes "
                                   f"{', '.join(kinds)}", 415)
        if kind == "python-package":
            entry = package_entry(root)
    return Checked(kind, hashlib.sha256(data).hexdigest(), len(data), entry)


def check_submission(data: bytes, *, max_bytes: int, kinds: tuple[str, ...],
                     limits: UnpackLimits | None = None) -> Checked:
    """``data`` as one of the ``kinds``, or a :class:`CompetitionError` naming the first
    thing wrong with it."""
    if len(data) > max_bytes:
        raise CompetitionError(f"the submission is {len(data)} bytes; this competition takes "
                               f"at most {max_bytes}", 413)
    if is_archive(data):
        return _check_archive(data, kinds, limits or UnpackLimits())
    if "python-file" not in kinds:
        raise CompetitionError(f"the submission is not an archive; this competition takes "
                               f"{', '.join(kinds)}", 415)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CompetitionError("the submission is neither a Python file nor a zip or tar "
                               f"archive (not UTF-8 text at byte {exc.start})") from None
    checked = check_python_file(data, max_bytes)
    return Checked("python-file", checked.sha256, checked.size, checked.bot_class)
