"""A submission built, then tried in one match against built-in bots, sandboxed, before
anything else.

The server builds and tries each submission in a process of its own (``python -m
arena.competition._trial``), one at a time: the build (:mod:`._build`) makes its artifact,
which is unpacked into the entry's own folder (:mod:`._entries`), and the trial plays the
very command the league will: a ``command`` bot in the sandbox, with the run folder
private (absent from the bot's file system), under the referee's own limits. A submission
is never built or run where the machine has no sandbox: it waits, saying why.

States: ``received`` -> ``building`` -> ``trying`` -> ``tried`` (it played: its moves and
faults in the detail) or ``failed`` (the first line that explains it: the build's, or the
bot's own error when it never made a move); a tried submission is then ``entered`` in the
league (``_entries``), and ``retired`` once a newer version of its label is.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._build import BuildFailed, BuildLimits, artifact_path, build
from ._entries import place, write_entries
from ._store import CompetitionError, Store, Submission, write_log

__all__ = ["TRIAL_TIMEOUT_S", "TrialQueue", "judge", "trial_spec"]

TRIAL_TIMEOUT_S = 300.0
"""A trial still running after this long is stopped and fails."""

_OPPONENTS = ("greedy", "random", "lowest", "highest", "passer", "greedy-2", "random-2")
_BUILT_IN = {"greedy-2": "greedy", "random-2": "random"}


def trial_spec(submission: Submission, command: list[str], *, players: int,
               rules: Mapping[str, Any], private: list[str]) -> dict[str, Any]:
    """The trial's match spec: the submission's entry command in seat 0, built-in bots in
    the others."""
    seats = [{"label": submission.label, "command": shlex.join(command), "host": "command"}]
    seats += [{"label": label, "name": _BUILT_IN.get(label, label), "host": "inline"}
              for label in _OPPONENTS[: players - 1]]
    return {"match_id": f"trial-{submission.id}", "tournament": "trial", "seed": submission.id,
            "rules": dict(rules), "seats": seats, "limits": {"sandbox": True},
            "private": private}


def judge(record: Mapping[str, Any], label: str) -> tuple[str, str]:
    """``("tried", what it did)`` or ``("failed", the first line that explains it)``."""
    from arena.records import FaultLog

    if record.get("type") != "match":
        return "failed", f"the trial could not be played: {record.get('error')}"
    log = FaultLog()
    log.add(record)
    row = log.bots[label]
    if row.silent:  # the referee's words first: the public part (public_detail)
        line = row.line()
        return "failed", (f"made no move in its trial: {line.removeprefix(label + ': ')}"
                          if line else f"{label} made no move")
    deals = len(record.get("deals") or ())
    detail = f"played {deals} deals, {row.moves} moves, {row.faults} faults"
    line = row.line()
    return "tried", detail + (f" ({line})" if line else "")


def trial_log(record: Mapping[str, Any], label: str, state: str, detail: str) -> str:
    """The trial's log, for its entrant alone: the match, its outcome, and each of the
    submission's faults with its detail (the referee's words and the bot's output tail)."""
    seats = [str(s.get("label")) for s in record.get("seats") or ()]
    lines = [f"trial match {record.get('match_id')}: {', '.join(seats)}",
             f"{state}: {detail}"]
    for deal in record.get("deals") or ():
        for fault in deal.get("faults") or ():
            if 0 <= fault.get("seat", -1) < len(seats) and seats[fault["seat"]] == label:
                lines.append(f"deal {deal.get('deal')}, move {fault.get('move')}, "
                             f"{fault.get('stage')}, {fault.get('kind')}: {fault.get('detail')}")
    if record.get("type") != "match":
        lines.append(str(record.get("traceback") or record.get("error")))
    return "\n".join(lines) + "\n"


def _built(folder: Path, submission: Submission, store: Store, limits: BuildLimits,
           private: list[str]) -> bool:
    """Build the submission (its artifact kept once by its hash: the same content is built
    once); whether it built."""
    artifact = artifact_path(folder, submission.sha256)
    if artifact.exists():  # built before: this submission, or the same content sent again
        if store.build_log(submission.id) is None:
            store.set_build(submission.id, "the same content as an earlier submission: its "
                            "build is used\n", hashlib.sha256(artifact.read_bytes()).hexdigest())
        return True
    store.set_state(submission.id, "building", "")
    try:
        artifact, log = build(folder, submission, limits, private)
    except BuildFailed as failed:
        store.set_build(submission.id, failed.log)
        store.set_state(submission.id, "failed", str(failed))
        return False
    store.set_build(submission.id, log, hashlib.sha256(artifact.read_bytes()).hexdigest())
    return True


def _run(folder: Path, submission_id: int, players: int, rules: Mapping[str, Any],
         private: list[str], limits: BuildLimits) -> None:
    """One submission built and tried, in this process (``python -m
    arena.competition._trial``)."""
    from arena.referee import MatchSpec, run_match, sandbox_unavailable_reason

    store = Store(folder)
    submission = store.submission(submission_id)
    reason = sandbox_unavailable_reason()
    if reason is not None:
        store.set_state(submission_id, "received", f"waiting: {reason}; a submission is "
                        "never built or run outside the sandbox")
        return
    if not _built(folder, submission, store, limits, private):
        return
    try:
        command = place(folder.parent, folder, submission)
    except CompetitionError as exc:  # an entries folder another user planted
        store.set_state(submission_id, "failed", str(exc))
        return
    store.set_state(submission_id, "trying", "")
    spec = MatchSpec.from_dict(trial_spec(submission, command, players=players, rules=rules,
                                          private=private))
    record = run_match(spec, reuse_processes=False)
    state, detail = judge(record, submission.label)
    write_log(folder, submission_id, "trial", trial_log(record, submission.label, state, detail))
    store.set_state(submission_id, state, detail)
    if state == "tried":  # into the league's field from its next round
        write_entries(folder.parent, folder, store)


class TrialQueue:
    """Tries submissions one at a time, each in a process of its own, in a thread."""

    def __init__(self, folder: Path, *, players: int, rules: Mapping[str, Any],
                 private: list[str], build: BuildLimits | None = None) -> None:
        build = build or BuildLimits()
        self.folder = folder
        self.options = {"players": players, "rules": dict(rules), "private": private,
                        "build": [build.seconds, build.memory_mb]}
        self.timeout_s = TRIAL_TIMEOUT_S + build.seconds
        self._lock = threading.Lock()

    def start(self, submission_id: int) -> threading.Thread:
        """Build and try ``submission_id`` after the trials before it."""
        thread = threading.Thread(target=self._try, args=(submission_id,),
                                  name=f"arena-trial-{submission_id}", daemon=True)
        thread.start()
        return thread

    def _try(self, submission_id: int) -> None:
        argv = [sys.executable, "-m", "arena.competition._trial", str(self.folder),
                str(submission_id), json.dumps(self.options)]
        with self._lock:
            try:
                done = subprocess.run(argv, capture_output=True, text=True,
                                      timeout=self.timeout_s, check=False)
                failure = None if done.returncode == 0 else (
                    (done.stderr.strip().splitlines() or ["no output"])[-1])
                if done.stderr.strip():
                    write_log(self.folder, submission_id, "trial-process", done.stderr)
            except subprocess.TimeoutExpired:
                failure = f"the build and trial took over {self.timeout_s:g} s"
                write_log(self.folder, submission_id, "trial-process", failure + "\n")
            if failure is not None:
                store = Store(self.folder)
                try:
                    store.set_state(submission_id, "failed", failure[:500])
                finally:
                    store.close()


if __name__ == "__main__":
    options = json.loads(sys.argv[3])
    _run(Path(sys.argv[1]), int(sys.argv[2]), int(options["players"]), options["rules"],
         list(options["private"]), BuildLimits(*options["build"]))
