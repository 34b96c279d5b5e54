"""The three kinds of submission, checked and built in the sandbox: a package by pip
without network, a program by its manifest's build command; a build that calls out or
writes outside its folder is contained, and each refusal is one line."""

from __future__ import annotations

import io
import shutil
import socket
import tarfile
import zipfile
from pathlib import Path

import pytest

from arena.cli._competition import pack_folder
from arena.cli._newbot import write_bot
from arena.competition import (
    COMPETITION_DIR,
    KINDS,
    BuildFailed,
    BuildLimits,
    CompetitionError,
    Store,
    Submission,
    artifact_path,
    build,
    check_submission,
    entry_command,
    materialise,
    store_source,
)
from arena.referee import sandbox_unavailable_reason

ROOT = Path(__file__).resolve().parents[2]
REASON = sandbox_unavailable_reason()
sandboxed = pytest.mark.skipif(REASON is not None, reason=str(REASON))
needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc) here")


def package(parent: Path, name: str = "pkgbot") -> Path:
    """A package as ``arena new-bot`` writes it."""
    return write_bot(name, "python", parent)


def program(parent: Path, manifest: str, name: str = "cbot") -> Path:
    """The C example with a manifest."""
    folder = parent / name
    folder.mkdir()
    shutil.copyfile(ROOT / "examples" / "c-bot" / "bot.c", folder / "bot.c")
    (folder / "arena.toml").write_text(manifest, encoding="utf-8")
    return folder


def check(data: bytes, kinds: tuple[str, ...] = KINDS) -> str:
    """The one-line refusal of ``data``."""
    with pytest.raises(CompetitionError) as refused:
        check_submission(data, max_bytes=1 << 20, kinds=kinds)
    message = str(refused.value)
    assert "\n" not in message
    return message


def submitted(tmp_path: Path, folder: Path) -> tuple[Path, Submission]:
    """``folder`` packed, checked, stored and submitted as a store would: the competition's
    folder and the submission."""
    data = pack_folder(folder)
    checked = check_submission(data, max_bytes=1 << 20, kinds=KINDS)
    competition = tmp_path / "out" / COMPETITION_DIR
    store = Store(competition)
    entrant, _ = store.register("e")
    store_source(competition, checked.kind, checked.sha256, data)
    made = store.submit(entrant, folder.name, kind=checked.kind, sha256=checked.sha256,
                        size=checked.size, per_day=9)
    store.close()
    return competition, made


def test_a_folder_is_a_package_or_a_program_by_what_it_holds(tmp_path: Path) -> None:
    pkg = check_submission(pack_folder(package(tmp_path)), max_bytes=1 << 20, kinds=KINDS)
    assert (pkg.kind, pkg.entry) == ("python-package", "pkgbot")
    prog = check_submission(pack_folder(program(tmp_path, 'run = "./bot"\n')),
                            max_bytes=1 << 20, kinds=KINDS)
    assert (prog.kind, prog.entry) == ("program", "./bot")
    assert "takes python-file" in check(pack_folder(tmp_path / "cbot"), ("python-file",))


@pytest.mark.parametrize(("manifest", "expected"), [
    ('build = "make"\n', "no run command"),
    ('run = "./bot"\nnetwork = true\n', "unknown key 'network'"),
    ('run = ""\n', "run must be one printable command line"),
    ('run = "./bot \'unclosed"\n', "cannot be split"),
    ("run = [", "not TOML"),
])
def test_a_bad_manifest_is_refused_in_one_line(tmp_path: Path, manifest: str,
                                               expected: str) -> None:
    assert expected in check(pack_folder(program(tmp_path, manifest)))


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda t: t.replace('[project.entry-points."arena.bots"]', "[tool.x]"),
     "one entry point"),
    (lambda t: t.replace('["arena-president"]', '["arena-president", "numpy>=1"]'),
     "depends on 'numpy>=1'"),
    (lambda t: t.replace('["setuptools>=61"]', '["hatchling"]'), "needs 'hatchling'"),
    (lambda t: t.replace("pkgbot = ", "greedy = "), "an installed bot's"),
])
def test_a_bad_package_is_refused_in_one_line(tmp_path: Path, edit: object,
                                              expected: str) -> None:
    folder = package(tmp_path)
    pyproject = folder / "pyproject.toml"
    assert callable(edit)
    pyproject.write_text(edit(pyproject.read_text(encoding="utf-8")), encoding="utf-8")
    assert expected in check(pack_folder(folder))


def test_an_archive_of_neither_kind_and_hostile_archives_are_refused(tmp_path: Path) -> None:
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w") as zipped:
        zipped.writestr("notes.txt", "hello")
    assert "neither a pyproject.toml" in check(plain.getvalue())
    slip = io.BytesIO()
    with zipfile.ZipFile(slip, "w") as zipped:
        zipped.writestr("../evil.py", "x")
    assert "outside its folder" in check(slip.getvalue())
    link = io.BytesIO()
    with tarfile.open(fileobj=link, mode="w:gz") as tar:
        info = tarfile.TarInfo("etc")
        info.type, info.linkname = tarfile.SYMTYPE, "/etc"
        tar.addfile(info)
    assert "a symbolic link" in check(link.getvalue())
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("arena.toml", b"\n" * (50 << 20))
    assert "stopped there" in check(bomb.getvalue())


def test_what_is_neither_a_python_file_nor_an_archive_is_refused() -> None:
    assert "neither a Python file nor a zip or tar archive" in check(b"\x7fELF\x02\x01\xff")
    assert "not an archive; this competition takes program" in check(b"x = 1\n", ("program",))


def test_a_folder_with_a_link_is_not_sent(tmp_path: Path) -> None:
    from arena.cli import InputError

    folder = package(tmp_path)
    (folder / "passwords").symlink_to("/etc/passwd")
    with pytest.raises(InputError, match="only files and folders"):
        pack_folder(folder)


@sandboxed
def test_a_package_is_built_by_pip_in_the_sandbox(tmp_path: Path) -> None:
    competition, made = submitted(tmp_path, package(tmp_path))
    artifact, log = build(competition, made, BuildLimits(120, 1024), [str(tmp_path / "out")])
    assert artifact == artifact_path(competition, made.sha256)
    assert "Successfully installed arena-pkgbot" in log
    folder = materialise(tmp_path / "entries" / made.sha256, artifact.read_bytes())
    assert (folder / "site" / "pkgbot" / "__init__.py").is_file()
    assert entry_command(folder)[1] == str(folder / "run.py")
    assert build(competition, made, BuildLimits(120, 1024), [])[0].read_bytes() == (
        artifact.read_bytes())  # the same bytes again: fixed order, owners and times


@sandboxed
@needs_cc
def test_a_program_is_built_by_its_manifest_in_the_sandbox(tmp_path: Path) -> None:
    competition, made = submitted(
        tmp_path, program(tmp_path, 'build = "cc -O2 -o bot bot.c"\nrun = "./bot"\n'))
    artifact, log = build(competition, made, BuildLimits(120, 1024), [])
    assert "cc -O2" in log
    folder = materialise(tmp_path / "entries" / made.sha256, artifact.read_bytes())
    assert (folder / "prog" / "bot").stat().st_mode & 0o100
    assert entry_command(folder) == ["/bin/sh", str(folder / "run.sh")]


@sandboxed
def test_a_build_that_fails_says_why_and_keeps_its_log(tmp_path: Path) -> None:
    competition, made = submitted(
        tmp_path, program(tmp_path, 'build = "echo compiling; cc -o bot missing.c"\n'
                                    'run = "./bot"\n'))
    with pytest.raises(BuildFailed) as failed:
        build(competition, made, BuildLimits(120, 1024), [])
    assert str(failed.value).startswith("the build failed (exit status ")
    assert "compiling" in failed.value.log
    assert not artifact_path(competition, made.sha256).exists()


@sandboxed
def test_a_build_that_calls_out_is_contained(tmp_path: Path) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    call = (f"python3 -c \\\"import socket; socket.create_connection(('127.0.0.1', {port}), "
            "timeout=3)\\\"")
    competition, made = submitted(
        tmp_path, program(tmp_path, f'build = "{call}"\nrun = "./bot"\n'))
    with pytest.raises(BuildFailed) as failed:
        build(competition, made, BuildLimits(60, 512), [])
    with pytest.raises(TimeoutError):
        listener.accept()  # nothing came
    listener.close()
    assert "Network is unreachable" in failed.value.log or "refused" in failed.value.log
    print(f"a build that calls out: {failed.value}")


@sandboxed
def test_a_build_that_writes_outside_its_folder_is_contained(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    outside.chmod(0o777)
    target = outside / "planted"
    competition, made = submitted(
        tmp_path, program(tmp_path, f'build = "echo x > {target}; echo y > /usr/planted"\n'
                                    'run = "./bot"\n'))
    with pytest.raises(BuildFailed) as failed:
        build(competition, made, BuildLimits(60, 512), [str(tmp_path / "out")])
    assert not target.exists() and not Path("/usr/planted").exists()
    assert "Read-only file system" in str(failed.value)
    print(f"a build that writes outside its folder: {failed.value}")


@sandboxed
def test_a_build_past_its_time_is_stopped(tmp_path: Path) -> None:
    competition, made = submitted(tmp_path, program(tmp_path, 'build = "sleep 60"\n'
                                                              'run = "./bot"\n'))
    with pytest.raises(BuildFailed, match="took over 2 s"):
        build(competition, made, BuildLimits(2, 256), [])


@sandboxed
def test_a_build_that_leaves_a_link_is_refused(tmp_path: Path) -> None:
    competition, made = submitted(tmp_path, program(tmp_path, 'build = "ln -s /etc etc"\n'
                                                              'run = "./bot"\n'))
    with pytest.raises(BuildFailed, match="not a file or a folder"):
        build(competition, made, BuildLimits(60, 256), [])


@sandboxed
def test_a_build_that_floods_its_folder_is_stopped(tmp_path: Path) -> None:
    flood = "i=0; while [ $i -lt 6000 ]; do : > f$i; i=$((i+1)); done; sleep 60"
    competition, made = submitted(tmp_path, program(tmp_path, f'build = "{flood}"\n'
                                                              'run = "./bot"\n'))
    with pytest.raises(BuildFailed, match="holds more than 5000 files"):
        build(competition, made, BuildLimits(120, 256), [])


@sandboxed
def test_a_package_a_stopped_run_left_building_is_built_on_resume(tmp_path: Path) -> None:
    import json
    import time

    pytest.importorskip("starlette", reason="the web extra is not installed")
    from arena.competition import Competition, Limits, TrialQueue

    competition, made = submitted(tmp_path, package(tmp_path))
    store = Store(competition)
    store.set_state(made.id, "building", "")  # as a kill -9 mid-build leaves it
    trials = TrialQueue(competition, players=3, rules={"preset": "runs", "rounds": 1},
                        private=[str(competition.parent)], build=BuildLimits(120, 1024))
    Competition(competition.parent, Limits(), trials)  # the server starting again
    deadline = time.monotonic() + 240
    while store.submission(made.id).state not in ("entered", "failed"):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert store.submission(made.id).state == "entered", store.submission(made.id)
    assert "Successfully installed" in str(store.build_log(made.id))
    entries = json.loads((competition.parent / "entries.json").read_text(encoding="utf-8"))
    assert [(e["label"], e["version"]) for e in entries] == [("pkgbot", 1)]
    assert entries[0]["command"].endswith("/run.py")
