"""A league open to its entrants: they register, and submit their bots themselves.

The state (entrants, hashes of their tokens, submissions, build logs) is one SQLite file
in the run folder (:class:`Store`); a submission (a Python file, a package or a program
with its manifest, :func:`check_submission`) is built in the sandbox (:func:`build`),
tried in one match, then entered; the endpoints (:class:`Competition`) are served beside the run's
pages by ``arena run league.yaml --serve`` when the config opens submissions. What is built
and what is not yet: docs/competition.md.
"""

from typing import TYPE_CHECKING, Any

from ._build import BuildFailed, BuildLimits, artifact_path, build, run_build
from ._entries import entry_command, entry_folder, materialise
from ._files import PythonFile, check_python_file, store_file, store_source
from ._kinds import KINDS, MANIFEST, Checked, check_submission
from ._store import (
    DB_NAME,
    NAME_PATTERN,
    CompetitionError,
    Entrant,
    Store,
    Submission,
    SubmissionLog,
    write_log,
)
from ._trial import TrialQueue, judge, trial_spec
from ._unpack import UnpackLimits, unpack_archive

if TYPE_CHECKING:
    from ._http import COMPETITION_DIR, Competition, Limits

__all__ = [
    "COMPETITION_DIR",
    "DB_NAME",
    "KINDS",
    "MANIFEST",
    "NAME_PATTERN",
    "BuildFailed",
    "BuildLimits",
    "Checked",
    "Competition",
    "CompetitionError",
    "Entrant",
    "Limits",
    "PythonFile",
    "Store",
    "Submission",
    "SubmissionLog",
    "TrialQueue",
    "UnpackLimits",
    "artifact_path",
    "build",
    "check_python_file",
    "check_submission",
    "entry_command",
    "entry_folder",
    "judge",
    "materialise",
    "run_build",
    "store_file",
    "store_source",
    "trial_spec",
    "unpack_archive",
    "write_log",
]


def __getattr__(name: str) -> Any:
    """The endpoints (:mod:`._http`, which needs the web extra) are imported when first
    named: a trial's process needs none of them."""
    if name in ("COMPETITION_DIR", "Competition", "Limits"):
        from . import _http

        return getattr(_http, name)
    raise AttributeError(f"module 'arena.competition' has no attribute {name!r}")
