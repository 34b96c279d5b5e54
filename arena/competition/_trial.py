"""A submission tried in one match against built-in bots, sandboxed, before anything else.

The server runs each trial in a process of its own (``python -m arena.competition._trial``):
the submitted file is copied alone into a fresh folder, which only that process puts on
its import path, so the bot (a ``host: process`` bot, ``bot_<sha256>:Class``) imports it
and nothing of another entrant's. The match runs in the sandbox, with the run folder
private (absent from the bot's file system), under the referee's own limits. A submission
is never run where the machine has no sandbox: it waits, saying why.

States: ``received`` -> ``trying`` -> ``tried`` (it played: its moves and faults in the
detail) or ``failed`` (the first line that explains it: the bot's own error when it never
made a move); a tried submission is then ``entered`` in the league (``_entries``), and
``retired`` once a newer version of its label is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._entries import write_entries
from ._files import FILES_DIR
from ._store import Store, Submission, write_log

__all__ = ["TRIAL_TIMEOUT_S", "TrialQueue", "judge", "trial_spec"]

TRIAL_TIMEOUT_S = 300.0
"""A trial still running after this long is stopped and fails."""

_OPPONENTS = ("greedy", "random", "lowest", "highest", "passer", "greedy-2", "random-2")
_BUILT_IN = {"greedy-2": "greedy", "random-2": "random"}


def trial_spec(submission: Submission, bot_class: str, *, players: int,
               rules: Mapping[str, Any], private: list[str]) -> dict[str, Any]:
    """The trial's match spec: the submission in seat 0, built-in bots in the others."""
    seats = [{"label": submission.label, "name": f"bot_{submission.sha256}:{bot_class}",
              "host": "process"}]
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
    if row.silent:
        return "failed", row.line() or f"{label} made no move"
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


def _run(folder: Path, submission_id: int, bot_class: str, players: int,
         rules: Mapping[str, Any], private: list[str]) -> None:
    """One trial, in this process (``python -m arena.competition._trial``)."""
    from arena.referee import MatchSpec, run_match, sandbox_unavailable_reason

    store = Store(folder)
    submission = store.submission(submission_id)
    reason = sandbox_unavailable_reason()
    if reason is not None:
        store.set_state(submission_id, "received", f"waiting: {reason}; a submission is "
                        "never run outside the sandbox")
        return
    store.set_state(submission_id, "trying", "")
    with tempfile.TemporaryDirectory(prefix="arena-trial-") as alone:
        os.chmod(alone, 0o755)  # the sandboxed bot's user (nobody, outside too) reads it
        name = f"bot_{submission.sha256}.py"
        shutil.copyfile(folder / FILES_DIR / name, Path(alone) / name)
        os.chmod(Path(alone) / name, 0o644)
        sys.path.insert(0, alone)
        spec = MatchSpec.from_dict(trial_spec(submission, bot_class, players=players,
                                              rules=rules, private=private))
        record = run_match(spec, reuse_processes=False)
    state, detail = judge(record, submission.label)
    write_log(folder, submission_id, "trial", trial_log(record, submission.label, state, detail))
    store.set_state(submission_id, state, detail)
    if state == "tried":  # into the league's field from its next round
        write_entries(folder.parent, folder, store)


class TrialQueue:
    """Tries submissions one at a time, each in a process of its own, in a thread."""

    def __init__(self, folder: Path, *, players: int, rules: Mapping[str, Any],
                 private: list[str]) -> None:
        self.folder = folder
        self.options = {"players": players, "rules": dict(rules), "private": private}
        self._lock = threading.Lock()

    def start(self, submission_id: int, bot_class: str) -> threading.Thread:
        """Try ``submission_id`` after the trials before it."""
        thread = threading.Thread(target=self._try, args=(submission_id, bot_class),
                                  name=f"arena-trial-{submission_id}", daemon=True)
        thread.start()
        return thread

    def _try(self, submission_id: int, bot_class: str) -> None:
        argv = [sys.executable, "-m", "arena.competition._trial", str(self.folder),
                str(submission_id), bot_class, json.dumps(self.options)]
        with self._lock:
            try:
                done = subprocess.run(argv, capture_output=True, text=True,
                                      timeout=TRIAL_TIMEOUT_S, check=False)
                failure = None if done.returncode == 0 else (
                    (done.stderr.strip().splitlines() or ["no output"])[-1])
                if done.stderr.strip():
                    write_log(self.folder, submission_id, "trial-process", done.stderr)
            except subprocess.TimeoutExpired:
                failure = f"the trial took over {TRIAL_TIMEOUT_S:g} s"
                write_log(self.folder, submission_id, "trial-process", failure + "\n")
            if failure is not None:
                store = Store(self.folder)
                try:
                    store.set_state(submission_id, "failed", failure[:500])
                finally:
                    store.close()


if __name__ == "__main__":
    options = json.loads(sys.argv[4])
    _run(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(options["players"]),
         options["rules"], list(options["private"]))
