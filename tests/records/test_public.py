"""A fault's public detail: the referee's words without the bot's, for every wording the
referee gives a fault, taken from real matches of bots that say a secret on stderr, in their
exception or in the error they report, then fault in each way they can."""

from __future__ import annotations

import base64
import gzip
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

from arena import Bot
from arena.cli import main
from arena.game import CARDS, Move, View
from arena.records import (
    MAX_DETAIL,
    RecordWriter,
    clip,
    public_fault,
    public_fault_detail,
    public_record,
)
from arena.referee import make_host, play_match
from arena.referee.child.__main__ import _error
from arena.referee.hosts._host import _crash_detail
from tests.matchspecs import match_spec

SECRET = "MARKER7f3aSECRET"
LIMITS = {"move_ms": 5000, "start_ms": 30000, "grace_ms": 300}
"""Roomy: a bot that faults by its own act does so before any timeout, however slow its
start and answers at load (a timeout's wording names no secret)."""
WAITED = {"start-silent": {"start_ms": 3000}, "sleep": {"move_ms": 400}}
"""The bots that say nothing, whose timeout is their fault: a short one each."""

# A protocol bot (docs/protocol.md) that says the secret on stderr, then faults as its mode
# says: at start (``start-exit``, ``start-silent``), or at its first play.
PROTOCOL_BOT = f"""\
import json, sys, time
mode = sys.argv[1]
say = lambda: print("{SECRET} on stderr: it said so", file=sys.stderr, flush=True)
if mode.startswith("start-"):
    say()
    if mode == "start-exit":
        sys.exit(1)
    time.sleep(30)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({{"type": "ready", "id": msg["id"]}}), flush=True)
    elif msg["type"] == "play":
        say()
        if mode == "exit":
            sys.exit(3)
        if mode == "sleep":
            time.sleep(30)
        if mode == "garble":
            print("{SECRET}: no JSON", flush=True)
        if mode == "report":
            print(json.dumps({{"type": "error", "id": msg["id"],
                              "message": "{SECRET} without a colon"}}), flush=True)
        if mode == "report-python":
            print(json.dumps({{"type": "error", "id": msg["id"],
                              "message": "KeyError: '{SECRET}'; traceback tail: x"}}),
                  flush=True)
"""
MODES = ("start-exit", "start-silent", "exit", "sleep", "garble", "report", "report-python")


class StartRaiser(Bot):
    """Says the secret, then its start raises with the secret in the message."""

    def start_match(self, info: Any) -> None:
        print(f"{SECRET} printed", file=sys.stderr)
        raise ValueError(f"{SECRET}: {SECRET}; output tail: {SECRET}")


class Cheater(Bot):
    """Says the secret, then plays a card it does not hold: an illegal move."""

    def play(self, view: View) -> Move:
        print(SECRET, file=sys.stderr)
        held = {str(c) for c in view.hand}
        return Move.parse(next(str(c) for c in CARDS if str(c) not in held))


class PlayRaiser(Bot):
    """Its play raises an exception of its own class, named with the secret."""

    def play(self, view: View) -> Move:
        print(SECRET)
        raise type(SECRET, (Exception,), {})(SECRET)


def play(seats: list[dict[str, Any]], limits: dict[str, int] | None = None
         ) -> dict[str, Any]:
    """The record of one match of ``seats`` and two ``random`` bots (``limits`` over
    :data:`LIMITS`)."""
    spec = match_spec({"match_id": "public", "seed": 7, "rules": {"rounds": 1},
                       "seats": [*seats, {"label": "r1", "name": "random"},
                                 {"label": "r2", "name": "random"}],
                       "limits": {**LIMITS, **(limits or {})}})
    hosts = [make_host(seat, spec.limits) for seat in spec.seats]
    return trio.run(lambda: play_match(spec, hosts=hosts))


def details(seats: list[dict[str, Any]], limits: dict[str, int] | None = None) -> list[str]:
    """The fault details of one match of ``seats`` and two ``random`` bots."""
    return [str(f["detail"]) for deal in play(seats, limits)["deals"]
            for f in deal["faults"]]


@pytest.fixture(scope="module")
def wordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each bot's fault details in a real match."""
    script = tmp_path_factory.mktemp("bots") / "protocol_bot.py"
    script.write_text(PROTOCOL_BOT, encoding="utf-8")
    out = {mode: details([{"label": mode, "host": "command",
                           "command": f"{sys.executable} {script} {mode}"}], WAITED.get(mode))
           for mode in MODES}
    for cls in (StartRaiser, PlayRaiser, Cheater):
        out[cls.__name__] = details([{"label": cls.__name__, "host": "inline",
                                      "name": f"{__name__}:{cls.__name__}"}])
    return out


EXPECTED = {  # each bot's public detail: the referee's words
    "start-exit": r"start failed: process (exited|closed its (output|input)).* \(exit code 1\)",
    "start-silent": r"start failed: did not start within 3000 ms",
    "exit": r"process (exited|closed its (output|input)).* \(exit code 3\)",
    "sleep": r"no answer within the \d+ ms allowed",
    "garble": r"not JSON",
    "report": r"bot error",
    "report-python": r"bot error: KeyError",
    "StartRaiser": r"start failed: ValueError",
    "PlayRaiser": r"an exception",
}


def test_an_illegal_move_is_the_referees_judgement_whole(
        wordings: dict[str, list[str]]) -> None:
    found = wordings["Cheater"]
    assert found and all(re.fullmatch(r"\S+: .+", detail) for detail in found), found
    for detail in found:
        assert SECRET not in detail
        assert public_fault({"kind": "illegal", "detail": detail})["detail"] == detail
    assert public_fault({"kind": "illegal", "detail": "JK: does not beat the pile"})[
        "detail"] == "JK: does not beat the pile"
    assert public_fault({"kind": "illegal", "detail": f"pass; output tail: {SECRET}"})[
        "detail"] == "pass"


@pytest.mark.parametrize("bot", list(EXPECTED))
def test_every_wording_keeps_the_referees_words_alone(wordings: dict[str, list[str]],
                                                      bot: str) -> None:
    found = wordings[bot]
    assert found and all(SECRET in detail for detail in found), found
    for detail in found:
        public = public_fault_detail(detail)
        assert SECRET not in public and "tail" not in public, (detail, public)
        assert re.fullmatch(EXPECTED[bot], public), (detail, public)
        assert public_fault_detail(public) == public  # a public detail stays as it is
        # and a detail the record clipped, the bot's words going on long
        assert public_fault_detail(clip(detail + "x" * 5000, MAX_DETAIL)) == public


def test_the_referees_own_forms() -> None:
    crash = _crash_detail(RuntimeError(f"{SECRET}\n{SECRET}"))
    assert public_fault_detail(crash) == "RuntimeError"
    assert public_fault_detail("end_deal failed: " + crash) == "end_deal failed: RuntimeError"
    assert public_fault_detail("bot error: " + _error(OSError(SECRET))) == "bot error: OSError"
    for referee in ("answered after 900 ms (its own time 800 ms), over the 400 ms allowed "
                    "(answer discarded)", "no answer within 400 ms"):
        assert public_fault_detail(referee) == referee
    assert public_fault_detail("out of memory: its processes together reached memory_mb "
                               "(160 MB), and the kernel killed them") == "out of memory"
    assert public_fault_detail(f"unreadable answer (UnicodeDecodeError: {SECRET})") == \
        "unreadable answer"
    assert public_fault_detail(f"the client closed the connection; output tail: {SECRET} "
                               "(earlier in the match)") == "the client closed the connection"
    # a UECda client's, a person's seat's
    assert public_fault_detail(f"start failed: the client exited with status 1 before "
                               f"connecting; output tail: {SECRET}") == (
        "start failed: the client exited with status 1 before connecting")
    assert public_fault_detail(f"start failed: no connection and profile within 900 ms; "
                               f"output tail: {SECRET}") == (
        "start failed: no connection and profile within 900 ms")
    for referee in ("the seat was left for more than 120 s",
                    "the person left the table (input ended)"):
        assert public_fault_detail(referee) == referee


def test_a_record_and_a_fault() -> None:
    fault = {"seat": 1, "kind": "crash", "move": 3, "stage": "play",
             "detail": f"bot error: {SECRET}"}
    record = {"match_id": "m", "deals": [{"deal": 1, "faults": []},
                                         {"deal": 2, "faults": [fault]}]}
    public = public_record(record)
    assert SECRET not in repr(public) and SECRET in repr(record)  # the record is not changed
    assert public["deals"][1]["faults"] == [public_fault(fault)] == [
        {**fault, "detail": "bot error"}]
    assert public["deals"][0] is record["deals"][0]
    clean = {"match_id": "m", "deals": [{"deal": 1, "faults": []}]}
    assert public_record(clean) is clean
    error = {"type": "error", "error": f"RuntimeError: {SECRET} (x.py:3)",
             "traceback": SECRET}
    assert public_record(error) == {"type": "error", "error": "RuntimeError"}


def _replays(folder: Path) -> str:
    """The text of a written report's replay files (gzip in base64 in each)."""
    texts = []
    for path in sorted((folder / "report" / "data" / "replays").glob("*.js")):
        found = re.search(r'"([A-Za-z0-9+/=]+)"', path.read_text(encoding="utf-8"))
        assert found is not None
        texts.append(gzip.decompress(base64.b64decode(found.group(1))).decode())
    return "".join(texts)


def test_arena_report_keeps_the_details_unless_public(tmp_path: Path) -> None:
    record = play([{"label": "raiser", "host": "inline", "name": f"{__name__}:PlayRaiser"}])
    with RecordWriter(tmp_path / "records.jsonl") as writer:
        writer.write(record)
    for flags, said in (([], True), (["--public"], False)):
        done = CliRunner().invoke(main, ["report", str(tmp_path), "-q", *flags])
        assert done.exit_code == 0, done.output
        text = _replays(tmp_path)
        assert "an exception" in text or said
        assert (SECRET in text) is said, flags
        summary = (tmp_path / "report" / "data" / "summary.js").read_text(encoding="utf-8")
        assert (SECRET in summary) is said, flags  # the first fault's line
