"""A config's relative paths, taken from the config file's folder.

A config read from a file (:func:`._checks.read_config`) knows its folder; its ``out`` and
the words of its bots' commands that are relative paths are read from there, so a config
means the same from any working directory. A config given as a mapping or text has no
folder: its paths stay relative to the working directory.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path


def is_path_word(word: str) -> bool:
    """Whether a word of a command line names a file or folder: it holds a ``/`` and is no
    option (``-x``, ``--model=a/b``) and no URL."""
    return (
        not word.startswith("-")
        and ("/" in word or os.sep in word)
        and "://" not in word
    )


def from_folder(path: str, folder: Path | None) -> str:
    """``path`` as seen from ``folder``: unchanged when absolute, ``~``-based or there is no
    folder, else joined to it (``..`` folded)."""
    if folder is None or os.path.isabs(path) or path.startswith("~"):
        return path
    return os.path.normpath(folder / path)


def command_from(command: str, folder: Path | None) -> str:
    """The command line with each relative path word (:func:`is_path_word`) taken from
    ``folder``; the command as given when there is no folder or it cannot be split."""
    if folder is None:
        return command
    try:
        words = shlex.split(command)
    except ValueError:  # the config's check names it ("cannot parse the command")
        return command
    if not any(is_path_word(word) for word in words):
        return command
    return shlex.join(from_folder(w, folder) if is_path_word(w) else w for w in words)
