"""Entering tried submissions into the running league: ``OUT/entries.json``.

Each label's latest version that passed its trial is an entry of the league's field
(docs/league.md, "entries beside the config"): a ``command`` bot that runs the file as the
trial did, from a folder of its own under ``/tmp`` holding only that file and its runner.
In the sandbox ``/tmp`` is private and only what the bot's command names is kept there,
read-only: each bot sees its own folder, never another entrant's, and never the run
folder. The folder's path is a function of the run folder and the file's hash, so the
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
import stat
import sys
from pathlib import Path

from ._files import FILES_DIR, check_python_file
from ._store import CompetitionError, Store, Submission

__all__ = ["ENTRIES_ROOT", "entry_folder", "write_entries"]

ENTRIES_ROOT = Path("/tmp")
"""Where the entries' folders are: the sandbox's private ``/tmp`` keeps each bot's own."""

_RUNNER = """\
# Runs {module}:{bot_class} over stdin and stdout for the referee (arena.competition).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
protocol = os.dup(1)
os.dup2(2, 1)  # the bot's own prints go to its stderr, never into the protocol
from arena.referee.child.__main__ import main

sys.exit(main(["--bot", "{module}:{bot_class}", "--in", "0", "--out", str(protocol)]))
"""


def entry_folder(run: Path, sha256: str) -> Path:
    """The folder of one submitted file's entry in the league of ``run``."""
    key = hashlib.sha256(str(run.resolve()).encode()).hexdigest()[:16]
    return ENTRIES_ROOT / f"arena-entries-{key}" / sha256


def _place(run: Path, competition: Path, submission: Submission) -> Path:
    """Write the entry's folder (the file and its runner, readable by the bot's user); the
    runner's path."""
    module = f"bot_{submission.sha256}"
    data = (competition / FILES_DIR / f"{module}.py").read_bytes()
    bot_class = check_python_file(data, len(data)).bot_class
    folder = entry_folder(run, submission.sha256)
    for path in (folder.parent, folder):  # made by this user, not planted by another
        path.mkdir(exist_ok=True)
        found = os.lstat(path)
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
            raise CompetitionError(f"{path} is not a folder of this user's: entries are "
                                   "not written there")
        os.chmod(path, 0o755)
    runner = folder / "run.py"
    for path, content in ((folder / f"{module}.py", data),
                          (runner, _RUNNER.format(module=module, bot_class=bot_class).encode())):
        partial = path.with_name(f".{path.name}.new")
        partial.write_bytes(content)
        os.chmod(partial, 0o644)
        os.replace(partial, path)
    return runner


def write_entries(run: Path, competition: Path, store: Store) -> list[dict[str, object]]:
    """Rewrite ``run/entries.json`` from the store: each label's latest version that passed
    its trial, marked ``entered``, and its older entered versions ``retired``; the entries."""
    latest: dict[str, Submission] = {}
    for submission in store.submissions():
        if submission.state in ("tried", "entered", "retired"):
            latest[submission.label] = submission
    entries: list[dict[str, object]] = []
    for label, submission in latest.items():
        runner = _place(run, competition, submission)
        entries.append({"label": label, "command": shlex.join([sys.executable, str(runner)]),
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

