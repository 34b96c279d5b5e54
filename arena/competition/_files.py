"""A single Python file, checked before anything of it is kept; where submissions are kept.

A submission is hostile input. A Python file is read as bytes no longer than the
competition's bound, decoded as UTF-8 and parsed (never imported or run here): it must
define a class on ``Bot`` (``arena.Bot``), the entry point a ``host: process`` bot is
started by (``module:Class``, docs/protocol.md "Hosts"). What passes is stored once by its
content: ``files/bot_<sha256>.py`` in the competition's folder (an archive of another kind,
:mod:`._kinds`, as ``files/src_<sha256>.archive``).
"""

from __future__ import annotations

import ast
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ._store import CompetitionError

__all__ = ["PythonFile", "check_python_file", "source_path", "store_file", "store_source"]

FILES_DIR = "files"


@dataclass(frozen=True)
class PythonFile:
    """A checked single-file bot: its content's hash and the class that is its bot."""

    sha256: str
    size: int
    bot_class: str


def _is_bot_base(base: ast.expr) -> bool:
    """``Bot`` or ``something.Bot``: the base an ``arena.Bot`` subclass names."""
    return (isinstance(base, ast.Name) and base.id == "Bot") or (
        isinstance(base, ast.Attribute) and base.attr == "Bot")


def check_python_file(data: bytes, max_bytes: int) -> PythonFile:
    """``data`` as a single-file Python bot, or a :class:`CompetitionError` naming the
    first thing wrong with it (too large, not UTF-8, not Python, no bot class)."""
    if len(data) > max_bytes:
        raise CompetitionError(f"the file is {len(data)} bytes; this competition takes at most "
                               f"{max_bytes}", 413)
    if not data.strip():
        raise CompetitionError("the file is empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CompetitionError(f"the file is not UTF-8 text (byte {exc.start})") from None
    try:
        tree = ast.parse(text, filename="bot.py")
    except SyntaxError as exc:
        raise CompetitionError(f"the file is not Python: line {exc.lineno}: {exc.msg}") from None
    except ValueError as exc:  # a NUL byte
        raise CompetitionError(f"the file is not Python: {exc}") from None
    classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)
               and any(_is_bot_base(base) for base in node.bases)]
    if not classes:
        raise CompetitionError("the file defines no bot: no top-level class based on "
                               "arena.Bot (class MyBot(Bot): ...)")
    return PythonFile(hashlib.sha256(data).hexdigest(), len(data), classes[0])


def source_path(folder: Path, kind: str, sha256: str) -> Path:
    """Where a submission of ``kind`` is kept under ``folder/files/``: a file as
    ``bot_<sha256>.py``, an archive as ``src_<sha256>.archive``."""
    name = f"bot_{sha256}.py" if kind == "python-file" else f"src_{sha256}.archive"
    return folder / FILES_DIR / name


def store_file(folder: Path, checked: PythonFile, data: bytes) -> Path:
    """Keep the single-file bot ``data`` once by its content under ``folder/files/``; its
    path."""
    return store_source(folder, "python-file", checked.sha256, data)


def store_source(folder: Path, kind: str, sha256: str, data: bytes) -> Path:
    """Keep a submission's ``data`` once by its content (:func:`source_path`); its path."""
    path = source_path(folder, kind, sha256)
    files = path.parent
    files.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        partial = files / f".{path.name}.{os.getpid()}.new"
        partial.write_bytes(data)
        os.replace(partial, path)
    return path
