"""Entering tried submissions into the running league: ``OUT/entries.json``.

Each label's latest version that passed its trial is an entry of the league's field
(docs/league.md, "entries beside the config"): a ``command`` bot that runs it as the
trial did, from a folder of its own under ``/tmp``, its built artifact (:mod:`._build`:
the file, the installed package or the built program, and its runner) unpacked there.
In the sandbox ``/tmp`` is private and only what the bot's command names is kept there,
read-only: each bot sees its own folder, never another entrant's, and never the run
folder. The folder's path is a function of the run folder and the submission's hash, so the
entry's command, and with it the league's version of the entrant, stays the same across
a resumed run (the folders are written again when the server starts).

A new version of a label enters as ``LABEL@N`` beside the old one, which retires: the
league's rule for a changed entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import stat
import sys
from pathlib import Path

from ._build import BuildLimits, artifact_path, build
from ._store import CompetitionError, Store, Submission
from ._unpack import UnpackLimits, unpack_archive

__all__ = ["ENTRIES_ROOT", "entry_command", "entry_folder", "materialise", "place",
           "write_entries"]

_ENTRY_LIMITS = UnpackLimits(max_bytes=256 << 20, max_files=5_100, max_ratio=2.0)
"""An artifact is a plain tar this server packed within its bounds (:mod:`._build`)."""

ENTRIES_ROOT = Path("/tmp")
"""Where the entries' folders are: the sandbox's private ``/tmp`` keeps each bot's own."""

def entry_folder(run: Path, sha256: str) -> Path:
    """The folder of one submission's entry in the league of ``run``."""
    key = hashlib.sha256(str(run.resolve()).encode()).hexdigest()[:16]
    return ENTRIES_ROOT / f"arena-entries-{key}" / sha256


def entry_command(folder: Path) -> list[str]:
    """The command that plays the entry unpacked in ``folder``: its ``run.sh`` (a program)
    by ``/bin/sh``, else its ``run.py`` by this interpreter."""
    if (folder / "run.sh").is_file():
        return ["/bin/sh", str(folder / "run.sh")]
    return [sys.executable, str(folder / "run.py")]


def _own_folder(path: Path) -> None:
    """``path`` as a folder of this user's, made if need be (never one another user planted,
    nor a link), open to the bot's user."""
    path.mkdir(exist_ok=True)
    found = os.lstat(path)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
        raise CompetitionError(f"{path} is not a folder of this user's: entries are not "
                               "written there")
    os.chmod(path, 0o755)


def materialise(folder: Path, artifact: bytes) -> Path:
    """``folder`` holding the built ``artifact`` (a tar, :mod:`._build`) unpacked, once:
    a folder there already is this user's and complete (each is renamed into place whole);
    the artifact is kept beside it, ``<folder>.tar``, which a Dask executor ships to the
    workers that lack the folder (:mod:`arena.tournament._dask_ship`)."""
    _own_folder(folder.parent)
    beside = folder.with_name(f"{folder.name}.tar")
    if folder.exists():
        _own_folder(folder)
        if not beside.is_file():  # a folder a run from before artifacts made
            partial = folder.with_name(f".{folder.name}.{os.getpid()}.tar")
            partial.write_bytes(artifact)
            os.replace(partial, beside)
        return folder
    partial = folder.with_name(f".{folder.name}.{os.getpid()}.new")
    packed = folder.with_name(f".{folder.name}.{os.getpid()}.tar")
    shutil.rmtree(partial, ignore_errors=True)
    packed.write_bytes(artifact)
    try:
        unpack_archive(packed, partial, _ENTRY_LIMITS)
        for dirpath, _, _ in os.walk(partial):
            os.chmod(dirpath, 0o755)
        os.replace(packed, beside)
        os.rename(partial, folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
        packed.unlink(missing_ok=True)
    return folder


def place(run: Path, competition: Path, submission: Submission) -> list[str]:
    """Unpack the submission's built artifact into its entry's folder (a single file's is
    made here, when a run from before artifacts left none); the entry's command."""
    artifact = artifact_path(competition, submission.sha256)
    if not artifact.exists():
        if submission.kind != "python-file":
            raise CompetitionError(f"submission {submission.id} has no built artifact")
        build(competition, submission, BuildLimits(), [])
    folder = materialise(entry_folder(run, submission.sha256), artifact.read_bytes())
    return entry_command(folder)


def write_entries(run: Path, competition: Path, store: Store) -> list[dict[str, object]]:
    """Rewrite ``run/entries.json`` from the store: each label's latest version that passed
    its trial, marked ``entered``, and its older entered versions ``retired``; the entries."""
    latest: dict[str, Submission] = {}
    for submission in store.submissions():
        if submission.state in ("tried", "entered", "retired"):
            latest[submission.label] = submission
    entries: list[dict[str, object]] = []
    for label, submission in latest.items():
        entries.append({"label": label,
                        "command": shlex.join(place(run, competition, submission)),
                        "version": submission.version})
        if submission.state != "entered":
            store.set_state(submission.id, "entered", submission.detail)
    current = {s.id for s in latest.values()}
    for submission in store.submissions():
        if submission.state == "entered" and submission.id not in current:
            newest = latest[submission.label].version
            store.set_state(submission.id, "retired", f"replaced by version {newest}")
    path = run / "entries.json"
    partial = path.with_name(f".{path.name}.new")
    partial.write_text(json.dumps(entries, indent=2) + "\n", encoding="utf-8")
    os.replace(partial, path)
    return entries

