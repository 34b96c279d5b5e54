"""The served standings computed in a child process of the server's, at a lower priority.

``arena run --serve`` runs its server beside the run on the same machine, and computing the
standings (every new record read, the ratings fitted, in Python) takes a long run's fit seconds
of CPU, which the runner (that decides the next matches) and its workers need more.
:class:`ApartStandings` computes the same document (:class:`arena.report.GrowingStandings`,
each record read once) in a child process of the server's (:class:`~arena.web._child.Child`),
started at the second document and kept while the server serves: the server's thread waits for
the answer without the lock.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from arena.ratings import RatingsError
from arena.records import get_logger
from arena.report import GrowingStandings

from ._child import Child

__all__ = ["ApartStandings"]

_log = get_logger("arena.web")

_CODE = ("import json, sys\n"
         "from arena.ratings import RatingsError\n"
         "from arena.report import GrowingStandings\n"
         "growing = GrowingStandings(sys.argv[1])\n"
         "print(flush=True)\n"
         "for line in sys.stdin:\n"
         "    try:\n"
         "        answer = {'document': growing.document()}\n"
         "    except RatingsError as exc:\n"
         "        answer = {'ratings_error': str(exc)}\n"
         "    print(json.dumps(answer, allow_nan=False), flush=True)\n")
"""The child: a line asks for the document of the records so far, a JSON line answers it
(or the records' :class:`~arena.ratings.RatingsError`); any other error ends the child."""


class ApartStandings:
    """``GrowingStandings(path).document()`` answered by a child process (blocking: call it in
    a thread). The first document (of the first record, for a late subscriber: at once) is
    computed in this process; the second starts the child, so that a run nobody watches
    starts none, and the documents are computed here until it is ready (its imports take a
    while: nobody waits for them), by the child from then on. Should the child fail, the
    documents are computed here from then on (logged once): the same documents, or the same
    error, the lock held again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.child = Child(_CODE, str(path))
        self._here: GrowingStandings | None = GrowingStandings(path)  # until the child's
        self._state = "first"  # then "apart" (the child's, once ready), or "here" if it failed
        self._lock = threading.Lock()

    def document(self) -> dict[str, Any]:
        """The standings document of the records so far."""
        with self._lock:
            if self._state == "first":
                self._state = "apart"
            elif self._state == "apart":
                process = self.child.process
                try:
                    if process is not None and process.poll() is not None:
                        answer = None  # it died: not started again
                    else:
                        self.child.start()
                        answer = self.child.ask("") if self.child.ready() else ""
                except OSError as exc:  # no child process to be had
                    answer = None
                    _log.warning("the standings' child process did not start: they are "
                                 "computed in the server's process", error=str(exc)[:300])
                    self._state = "here"
                if answer:
                    return self._answer(answer)
                if answer is None and self._state == "apart":  # it ended
                    _log.warning("the standings' child process failed: they are computed "
                                 "in the server's process")
                    self.close()
                    self._state = "here"
            if self._here is None:
                self._here = GrowingStandings(self.path)
            return self._here.document()

    def _answer(self, answer: str) -> dict[str, Any]:
        found = json.loads(answer)
        if "ratings_error" in found:
            raise RatingsError(str(found["ratings_error"]))
        self._here = None  # the child's records from now on
        return dict(found["document"])

    def close(self) -> None:
        """End the child (a document it computes now is not waited for)."""
        self.child.close()
