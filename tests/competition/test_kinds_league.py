"""Two entrants register over HTTP and submit a single file, a package and a C program
with its manifest to a running league: each is built, tried and entered, and plays; a new
version enters as LABEL@2. Hostile submissions are refused in one line."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.competition import COMPETITION_DIR, Store
from arena.referee import sandbox_unavailable_reason

from .test_build import package, program
from .test_enter import BOT, arena, one_line_error, serve_league
from .test_league_entry import _seated

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

REASON = sandbox_unavailable_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=str(REASON))

CONFIG = """\
name: kinds
seed: 5
players: 3
rules: {preset: runs, rounds: 1}
format: {type: league, min_sets: 1, resamples: 20, stop: {deals: 1000000}}
submissions: {open: true, max_bytes: 200000, per_day: 4, build_s: 120, build_mb: 1024}
bots: [greedy, random, lowest]
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from serve_league(tmp_path_factory, "kinds", CONFIG)


def _register(url: str, name: str) -> str:
    result = arena("register", url, name)
    assert result.exit_code == 0, result.output
    return result.stdout.strip().splitlines()[-1]


def _submit(url: str, token: str, path: Path, label: str) -> float:
    result = arena("submit", url, str(path), "--token", token, "--label", label)
    assert result.exit_code == 0, result.output
    return time.monotonic()


def test_each_kind_is_built_tried_and_entered(served: tuple[str, Path],
                                              tmp_path: Path) -> None:
    url, out = served
    alice, bob = _register(url, "alice"), _register(url, "bob")
    single = tmp_path / "solo.py"
    single.write_bytes(BOT)
    kinds = {"solo": (alice, single), "pkg": (bob, package(tmp_path))}
    if shutil.which("cc") is not None:  # else the C program is left out (no compiler)
        kinds["cprog"] = (alice, program(tmp_path, 'build = "cc -O2 -o bot bot.c"\n'
                                                   'run = "./bot"\n'))
    for label, (token, path) in kinds.items():  # one after the other: each one's own time
        sent = _submit(url, token, path, label)
        record = _seated(out, label, time.monotonic() + 300)
        assert record["type"] == "match"
        print(f"{label}: submit to first league match {time.monotonic() - sent:.1f} s")
    store = Store(out / COMPETITION_DIR)
    made = {s.label: s for s in store.submissions()}
    assert {made[label].kind for label in kinds} >= {"python-file", "python-package"}
    assert all(made[label].state == "entered" for label in kinds), made
    assert "Successfully installed arena-pkgbot" in str(store.build_log(made["pkg"].id))
    assert store.build_log(made["solo"].id) == ""
    # a new version of the package enters as pkg@2, the first retires
    module = kinds["pkg"][1] / "pkgbot" / "__init__.py"
    module.write_text(module.read_text() + "\n# version 2\n", encoding="utf-8")
    again = _submit(url, bob, kinds["pkg"][1], "pkg")
    _seated(out, "pkg@2", time.monotonic() + 300)
    print(f"pkg@2: submit to first league match {time.monotonic() - again:.1f} s")
    states = {(s.label, s.version): s.state for s in store.submissions()}
    assert states[("pkg", 1)] == "retired" and states[("pkg", 2)] == "entered"
    store.close()


def _zip(name: str, data: bytes, method: int = zipfile.ZIP_STORED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as zipped:
        zipped.writestr(name, data)
    return out.getvalue()


def _link_to_etc() -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        info = tarfile.TarInfo("config")
        info.type, info.linkname = tarfile.SYMTYPE, "/etc"
        tar.addfile(info)
    return out.getvalue()


HOSTILE = {
    "zip slip": (_zip("../../evil.py", b"x"), "a path outside its folder"),
    "a link to /etc": (_link_to_etc(), "a symbolic link"),
    "a zip bomb": (_zip("arena.toml", b"\n" * (60 << 20), zipfile.ZIP_DEFLATED),
                   "stopped there"),
}


def test_hostile_submissions_are_refused_in_one_line(served: tuple[str, Path],
                                                     tmp_path: Path) -> None:
    url, out = served
    owner, other = _register(url, "carol"), _register(url, "dave")
    seen: dict[str, str] = {}
    for what, (data, expected) in HOSTILE.items():
        path = tmp_path / "hostile.bin"
        path.write_bytes(data)
        seen[what] = one_line_error(arena("submit", url, str(path), "--token", owner,
                                          "--label", "hostile"))
        assert expected in seen[what], seen[what]
    seen["a name with HTML"] = one_line_error(arena("register", url, "<b>x</b>"))
    assert "the name" in seen["a name with HTML"]
    bot = tmp_path / "bot.py"
    bot.write_bytes(BOT)
    _submit(url, owner, bot, "mine")
    seen["a token for another's label"] = one_line_error(
        arena("submit", url, str(bot), "--token", other, "--label", "mine"))
    assert "(403)" in seen["a token for another's label"]
    for _ in range(3):  # the league's per_day is 4: this entrant has made 1
        _submit(url, owner, bot, "mine")
    seen["a flood"] = one_line_error(arena("submit", url, str(bot), "--token", owner,
                                           "--label", "mine"))
    assert "(429)" in seen["a flood"]
    store = Store(out / COMPETITION_DIR)
    assert {s.label for s in store.submissions() if s.entrant in ("carol", "dave")} == {"mine"}
    store.close()
    print(json.dumps(seen, indent=1))
