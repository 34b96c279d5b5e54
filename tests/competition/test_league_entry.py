"""A submission that passes its trial plays in the running league, and its next version
enters as LABEL@2 while the first retires (the league's rule for a changed entry)."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.referee import sandbox_unavailable_reason

from .test_enter import BOT, serve_league

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")


REASON = sandbox_unavailable_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=str(REASON))

# Long enough to be running while a submission is tried and entered (it is stopped at the
# end of the test).
CONFIG = """\
name: running
seed: 8
players: 3
rules: {preset: runs, rounds: 1}
format: {type: league, min_sets: 1, resamples: 20, stop: {deals: 1000000}}
submissions: {open: true}
bots: [greedy, random, lowest]
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from serve_league(tmp_path_factory, "running", CONFIG)


def _seated(out: Path, label: str, deadline: float) -> dict[str, object]:
    """The first record of the run that seats ``label``."""
    while time.monotonic() < deadline:
        with (out / "records.jsonl").open(encoding="utf-8") as file:
            for line in file:
                if f'"label": "{label}"' in line or f'"label":"{label}"' in line:
                    record: dict[str, object] = json.loads(line)
                    return record
        time.sleep(0.3)
    raise AssertionError(f"{label} never played in the league")


def _states(url: str, token: str) -> dict[tuple[str, int], str]:
    request = urllib.request.Request(f"{url}/api/submissions",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return {(s["label"], s["version"]): s["state"]
                for s in json.loads(answer.read())["submissions"]}


def test_a_tried_submission_enters_the_running_league(served: tuple[str, Path],
                                                       tmp_path: Path) -> None:
    url, out = served
    runner = CliRunner()
    token = runner.invoke(main, ["register", url, "ida"]).stdout.strip().splitlines()[-1]
    bot = tmp_path / "bot.py"
    bot.write_bytes(BOT)
    submitted = time.monotonic()
    assert runner.invoke(main, ["submit", url, str(bot), "--token", token, "--label",
                                "sub"]).exit_code == 0
    record = _seated(out, "sub", time.monotonic() + 240)
    first_match = time.monotonic() - submitted
    assert record["type"] == "match"
    assert _states(url, token)[("sub", 1)] == "entered"
    bot.write_bytes(BOT + b"\n# version 2\n")
    assert runner.invoke(main, ["submit", url, str(bot), "--token", token, "--label",
                                "sub"]).exit_code == 0
    _seated(out, "sub@2", time.monotonic() + 240)
    states = _states(url, token)
    assert states[("sub", 1)] == "retired" and states[("sub", 2)] == "entered"
    field = json.loads((out / "league.jsonl").read_text().splitlines()[-1])["field"]
    active = {e["label"]: e["active"] for e in field}
    assert active["sub"] is False and active["sub@2"] is True
    print(f"submit to first league match: {first_match:.1f} s")


def test_a_submission_longer_than_the_doors_bound_is_taken(served: tuple[str, Path],
                                                          tmp_path: Path) -> None:
    """The server's door refuses bodies over 4 KiB before they are read, but for the paths
    that take more (a submission, up to the league's max_bytes)."""
    import httpx

    url, _ = served
    runner = CliRunner()
    token = runner.invoke(main, ["register", url, "wordy"]).stdout.strip().splitlines()[-1]
    bot = tmp_path / "wordy_bot.py"
    bot.write_bytes(BOT + b"\n# " + b"x" * 6000 + b"\n")
    done = runner.invoke(main, ["submit", url, str(bot), "--token", token, "--label", "wordy"])
    assert done.exit_code == 0, done.output
    assert httpx.post(f"{url}/api/entrants", content=b"x" * 6000, timeout=60).status_code == 413
