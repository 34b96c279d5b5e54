"""Hostile entrants, third pass: the bot's uid is unprivileged outside too.

Run as root, the sandbox mapped the bot's uid 65534 to root outside: a file of root's of
mode 0600 that the sandbox showed was readable by owner permission, such as another
run's ``secret-seed``. Now, as root, arena makes the bot's user namespace itself, with
65534 mapped to 65534 outside (``nobody``): what is not for every user is unreadable by
permission as well as by absence. What the bot needs to start and lies behind a folder
closed to that uid (an interpreter under a ``/root`` of mode 0700) is shown through a
folder made anew that shows only the way.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.referee.sandbox._sandbox import layout, sandbox_argv, sandbox_fds

from .test_hostile import MECHANISM, NO_SANDBOX, home, tournament

__all__ = ["home"]  # a fixture, used by name

pytestmark = [pytest.mark.skipif(MECHANISM is None, reason=NO_SANDBOX),
              pytest.mark.skipif(os.geteuid() != 0,
                                 reason="arena is not root here: the bot's uid maps to the "
                                        "user who runs it, as the kernel allows")]


def test_another_runs_secret_seed_is_unreadable(home: Path) -> None:
    other = home / "other-run"
    other.mkdir()
    seed = other / "secret-seed"
    seed.write_text("123456789\n")
    seed.chmod(0o600)
    notes = other / "notes.txt"  # readable by every user: readable by the bot too
    notes.write_text("public\n")
    _, version = tournament(home, "seed-reader", "read", str(seed), str(notes))
    assert version == "read:PermissionError,7B", version


def test_another_runs_folder_is_closed_to_the_bot(home: Path) -> None:
    tournament(home, "first-run", "plain")
    first = home / "first-run"
    assert first.stat().st_mode & 0o777 == 0o700  # made by arena: its user's alone
    _, version = tournament(home, "second-run", "read", str(first / "records.jsonl"),
                            str(first / "standings.json"))
    assert version == "read:PermissionError,PermissionError", version


READ = r"""
import sys
out = []
for path in sys.argv[1:]:
    try:
        out.append(open(path).read().strip())
    except OSError as exc:
        out.append(type(exc).__name__)
print(",".join(out))
"""


def test_a_closed_folder_on_the_way_shows_only_the_way(home: Path) -> None:
    closed = home / "closed"
    (closed / "open").mkdir(parents=True)
    (closed / "open" / "tool.txt").write_text("tool")
    (closed / "private.txt").write_text("private")
    (closed / "private.txt").chmod(0o644)  # readable by all, yet behind a closed folder
    closed.chmod(0o700)
    way = str(closed / "open")
    steps = layout([], [], [], None, reach=[way])
    assert ("dir", str(closed)) in steps and ("ro-bind", way, way) in steps
    assert not any(str(closed / "private.txt") in map(str, step) for step in steps)
    argv = [*sandbox_argv(program=[sys.executable, way]), sys.executable, "-c", READ,
            str(closed / "open" / "tool.txt"), str(closed / "private.txt")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          pass_fds=sandbox_fds())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "tool,FileNotFoundError", done.stdout
