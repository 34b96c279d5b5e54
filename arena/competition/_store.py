"""The competition's state in the run folder: entrants, their tokens, their submissions.

One SQLite file (the standard library's ``sqlite3``) in write-ahead-log mode, every change
in one transaction: a ``kill -9`` of the run loses at most the change in flight, never
half of one, and the next run reads the file as it was left, as the records are.

A token is ``ID.SECRET``: ``ID`` names its entrant, ``SECRET`` is 32 random bytes in
URL-safe base64. Only SHA-256 of the whole token is stored, and a token given is compared
with it in constant time (``hmac.compare_digest``). A label belongs to the entrant that
first submitted under it: nobody else can submit a version of it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DB_NAME", "LOGS_DIR", "MAX_LOG", "NAME_PATTERN", "CompetitionError", "Entrant",
           "Store", "Submission", "SubmissionLog", "write_log"]

DB_NAME = "competition.sqlite"
"""The store's file in the run folder."""

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
"""An entrant's name and a label: letters, digits, ``_ . -``, at most 32, no ``@`` (the
league's versions are ``LABEL@N``), nothing a page could take for markup."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entrants (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_sha256 BLOB NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS labels (
    label TEXT PRIMARY KEY,
    entrant INTEGER NOT NULL REFERENCES entrants(id)
);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    entrant INTEGER NOT NULL REFERENCES entrants(id),
    label TEXT NOT NULL,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    state TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    UNIQUE (label, version)
);
CREATE TABLE IF NOT EXISTS attempts (
    entrant INTEGER NOT NULL REFERENCES entrants(id),
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_entrant ON attempts (entrant, created);
CREATE TABLE IF NOT EXISTS builds (
    submission INTEGER PRIMARY KEY REFERENCES submissions(id),
    log TEXT NOT NULL,
    artifact_sha256 TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL
);
"""

DAY_S = 86_400.0

LOGS_DIR = "logs"
"""``OUT/competition/logs/<submission id>/<name>.log``: a submission's logs (its trial's),
its entrant's alone to read."""
MAX_LOG = 65_536
"""The most characters of one log kept: its last ones."""


class CompetitionError(ValueError):
    """A refusal, in one line naming what is wrong; ``status`` is its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Entrant:
    """A registered entrant."""

    id: int
    name: str


@dataclass(frozen=True)
class SubmissionLog:
    """One log of a submission (``trial``: its trial match and the trial's process), for its
    entrant alone."""

    name: str
    text: str

    def to_dict(self) -> dict[str, str]:
        """Plain, JSON-ready form."""
        return {"name": self.name, "text": self.text}


def write_log(folder: Path, submission_id: int, name: str, text: str) -> None:
    """Keep ``text`` (its last :data:`MAX_LOG` characters) as the log ``name`` of
    ``submission_id`` in the competition's ``folder``; what :meth:`Store.logs` reads."""
    logs = folder / LOGS_DIR / str(submission_id)
    logs.mkdir(parents=True, exist_ok=True)
    path = logs / f"{name}.log"
    partial = logs / f".{name}.log.new"
    partial.write_text(text[-MAX_LOG:], encoding="utf-8", errors="replace")
    os.replace(partial, path)


@dataclass(frozen=True)
class Submission:
    """One submitted version of a label, and where it stands."""

    id: int
    entrant: str
    label: str
    version: int
    kind: str
    sha256: str
    size: int
    state: str  # received, building, trying, tried, failed, entered or retired
    # (docs/competition.md)
    detail: str
    created: float

    def to_dict(self) -> dict[str, object]:
        """Plain, JSON-ready form."""
        return {"id": self.id, "entrant": self.entrant, "label": self.label,
                "version": self.version, "kind": self.kind, "sha256": self.sha256,
                "size": self.size, "state": self.state, "detail": self.detail,
                "created": self.created}


def check_name(text: str, what: str) -> str:
    """``text`` if it is a valid name or label, else a :class:`CompetitionError` naming
    ``what``."""
    if not isinstance(text, str) or NAME_PATTERN.fullmatch(text) is None:
        shown = repr(text[:40]) if isinstance(text, str) else type(text).__name__
        raise CompetitionError(f"{what} {shown} is not 1-32 letters, digits, '_', '.' or '-' "
                               "(starting with a letter or digit)")
    return text


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class Store:
    """The competition's SQLite file (:data:`DB_NAME`) in ``folder``."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / DB_NAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=10, isolation_level=None,
                                   check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def register(self, name: str, *, taken: frozenset[str] = frozenset()) -> tuple[Entrant, str]:
        """A new entrant and its token (shown once: only its hash is kept). ``taken``: names
        the organiser's bots hold."""
        check_name(name, "the name")
        if name in taken:
            raise CompetitionError(f"the name {name!r} is taken", 409)
        secret = secrets.token_urlsafe(32)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if self._db.execute("SELECT 1 FROM entrants WHERE name = ?", (name,)).fetchone():
                raise CompetitionError(f"the name {name!r} is taken", 409)
            cursor = self._db.execute(
                "INSERT INTO entrants (name, token_sha256, created) VALUES (?, ?, ?)",
                (name, b"", time.time()))
            entrant_id = int(cursor.lastrowid or 0)
            token = f"{entrant_id}.{secret}"
            self._db.execute("UPDATE entrants SET token_sha256 = ? WHERE id = ?",
                             (_digest(token), entrant_id))
        return Entrant(entrant_id, name), token

    def entrant(self, token: str) -> Entrant:
        """The entrant whose token this is (a :class:`CompetitionError`, 401, for any other
        string: unknown, malformed or wrong, all alike)."""
        refused = CompetitionError("unknown token", 401)
        head, dot, _ = token.partition(".") if isinstance(token, str) else ("", "", "")
        if not dot or not head.isdigit() or len(token) > 200:
            raise refused
        row = self._db.execute("SELECT id, name, token_sha256 FROM entrants WHERE id = ?",
                               (int(head),)).fetchone()
        if row is None or not hmac.compare_digest(bytes(row[2]), _digest(token)):
            raise refused
        return Entrant(int(row[0]), str(row[1]))

    def submit(self, entrant: Entrant, label: str, *, kind: str, sha256: str, size: int,
               per_day: int, taken: frozenset[str] = frozenset()) -> Submission:
        """Record a submission of ``label`` by ``entrant`` as its next version: refused if
        another entrant owns the label, the organiser's bots hold it (``taken``), or the
        entrant has made ``per_day`` submissions in the last 24 hours."""
        check_name(label, "the label")
        if label in taken:
            raise CompetitionError(f"the label {label!r} belongs to another entrant", 403)
        now = time.time()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            owner = self._db.execute("SELECT entrant FROM labels WHERE label = ?",
                                     (label,)).fetchone()
            if owner is not None and int(owner[0]) != entrant.id:
                raise CompetitionError(f"the label {label!r} belongs to another entrant", 403)
            recent = self._db.execute(
                "SELECT COUNT(*) FROM submissions WHERE entrant = ? AND created > ?",
                (entrant.id, now - DAY_S)).fetchone()[0]
            if recent >= per_day:
                raise CompetitionError(f"{entrant.name} has made {recent} submissions in the "
                                       f"last 24 hours, the most this competition takes", 429)
            if owner is None:
                self._db.execute("INSERT INTO labels (label, entrant) VALUES (?, ?)",
                                 (label, entrant.id))
            version = 1 + self._db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM submissions WHERE label = ?",
                (label,)).fetchone()[0]
            cursor = self._db.execute(
                "INSERT INTO submissions (entrant, label, version, kind, sha256, size, state, "
                "created) VALUES (?, ?, ?, ?, ?, ?, 'received', ?)",
                (entrant.id, label, version, kind, sha256, size, now))
        return Submission(int(cursor.lastrowid or 0), entrant.name, label, version, kind,
                          sha256, size, "received", "", now)

    def attempt(self, entrant: Entrant, per_day: int) -> None:
        """Count a body ``entrant`` sends to submit, kept or refused: a
        :class:`CompetitionError` (429) when it has sent ``per_day`` in the last 24 hours, so
        a flood of refused archives is not read and unpacked without end."""
        now = time.time()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM attempts WHERE entrant = ? AND created <= ?",
                             (entrant.id, now - DAY_S))
            recent = self._db.execute("SELECT COUNT(*) FROM attempts WHERE entrant = ?",
                                      (entrant.id,)).fetchone()[0]
            if recent >= per_day:
                raise CompetitionError(f"{entrant.name} has sent {recent} submissions, kept or "
                                       "refused, in the last 24 hours, the most this "
                                       "competition reads", 429)
            self._db.execute("INSERT INTO attempts (entrant, created) VALUES (?, ?)",
                             (entrant.id, now))

    def set_state(self, submission_id: int, state: str, detail: str) -> None:
        """Where a submission stands now (``detail``: the first line that explains it)."""
        with self._db:
            self._db.execute("UPDATE submissions SET state = ?, detail = ? WHERE id = ?",
                             (state, detail[:500], submission_id))

    def set_build(self, submission_id: int, log: str, artifact_sha256: str = "") -> None:
        """Keep a submission's build log (its last :data:`MAX_LOG` characters) and its
        artifact's hash (empty: the build failed)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO builds (submission, log, artifact_sha256, created) "
                "VALUES (?, ?, ?, ?)", (submission_id, log[-MAX_LOG:], artifact_sha256,
                                        time.time()))

    def build_log(self, submission_id: int) -> str | None:
        """The log of a submission's build, its entrant's alone to see (None: not built
        yet). A single-file bot's build runs nothing: its log is empty."""
        row = self._db.execute("SELECT log FROM builds WHERE submission = ?",
                               (submission_id,)).fetchone()
        return None if row is None else str(row[0])

    def submission(self, submission_id: int) -> Submission:
        """One submission by its id (KeyError if there is none)."""
        found = self._select(" WHERE s.id = ?", (submission_id,))
        if not found:
            raise KeyError(f"no submission {submission_id}")
        return found[0]

    def submissions(self, entrant: Entrant | None = None) -> list[Submission]:
        """Every submission (or ``entrant``'s), oldest first."""
        if entrant is None:
            return self._select("", ())
        return self._select(" WHERE s.entrant = ?", (entrant.id,))

    def _select(self, where: str, args: tuple[int, ...]) -> list[Submission]:
        query = ("SELECT s.id, e.name, s.label, s.version, s.kind, s.sha256, s.size, s.state, "
                 "s.detail, s.created FROM submissions s JOIN entrants e ON e.id = s.entrant")
        rows = self._db.execute(query + where + " ORDER BY s.id", args).fetchall()
        return [Submission(int(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4]), str(r[5]),
                           int(r[6]), str(r[7]), str(r[8]), float(r[9])) for r in rows]

    def owner(self, name: str) -> str | None:
        """The entrant registered as ``name``, else the entrant that owns the label
        ``name``; None for neither."""
        row = self._db.execute("SELECT name FROM entrants WHERE name = ?", (name,)).fetchone()
        if row is None:
            row = self._db.execute("SELECT e.name FROM labels l JOIN entrants e ON e.id = "
                                   "l.entrant WHERE l.label = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def names(self) -> list[str]:
        """Every entrant's name, in registration order."""
        return [str(r[0]) for r in self._db.execute("SELECT name FROM entrants ORDER BY id")]

    def logs(self, submission_id: int) -> list[SubmissionLog]:
        """The logs of one submission, oldest step first, for its entrant alone: its trial's
        (``trial``: the match's faults with their details, ``trial-process``: what the
        trial's process wrote), kept by :func:`write_log`. Every log of a submission is read
        through here: the build's first (``build``, kept in the store by :meth:`set_build`;
        none for a single file, whose build runs nothing)."""
        build = self.build_log(submission_id)
        first = [SubmissionLog("build", build)] if build else []
        folder = self.path.parent / LOGS_DIR / str(int(submission_id))
        found = sorted(folder.glob("*.log"), key=lambda p: (p.stat().st_mtime, p.name))
        return first + [SubmissionLog(path.stem, path.read_text(encoding="utf-8",
                                                               errors="replace"))
                        for path in found]
