"""A league open to its entrants: they register, and submit their bots themselves.

The state (entrants, hashes of their tokens, submissions) is one SQLite file in the run
folder (:class:`Store`); the endpoints (:class:`Competition`) are served beside the run's
pages by ``arena run league.yaml --serve`` when the config opens submissions. What is built
and what is not yet: docs/competition.md.
"""

from ._files import PythonFile, check_python_file, store_file
from ._http import COMPETITION_DIR, Competition, Limits
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

__all__ = [
    "COMPETITION_DIR",
    "DB_NAME",
    "NAME_PATTERN",
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
    "check_python_file",
    "judge",
    "store_file",
    "trial_spec",
    "unpack_archive",
    "write_log",
]
