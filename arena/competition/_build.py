"""Building a submission into its artifact: what its entry's folder holds, as one tar.

- a ``python-file``: the file and its runner (nothing is run to build it);
- a ``python-package``: ``pip install --no-index --no-build-isolation --no-deps --target
  site`` of its source, run in the sandbox, and a runner that puts ``site`` on the path
  and plays the entry point's bot;
- a ``program``: its manifest's ``build`` command, run in the sandbox in the program's
  folder, and a runner, ``run.sh``, that starts its ``run`` command there.

A build runs as a bot does (:class:`arena.referee.lowlevel.ChildProcess` under
:func:`arena.referee.lowlevel.sandbox_argv`): no network, the run folder and the config
absent, every folder of the machine read-only but its own build folder, a private
``/tmp``, with its own time and memory limits (the config's ``build_s`` and
``build_mb``). What it printed (stdout and stderr, the last 64 KiB) is its log, kept in
the store for its entrant (:meth:`Store.build_log`). What it leaves must be files and
folders only (a link is refused), within the unpacking bounds; it is then packed as a
tar of fixed order, owners and times, ``OUT/competition/built/<sha256>.tar``, the
artifact an entry's folder is unpacked from, here and on Dask workers.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ._files import source_path
from ._kinds import manifest, package_entry, source_root
from ._store import CompetitionError, Submission
from ._unpack import UnpackLimits, unpack_archive

__all__ = ["BUILT_DIR", "BuildFailed", "BuildLimits", "artifact_path", "build",
           "run_build"]

BUILT_DIR = "built"
LOG_BYTES = 65_536
_FILE_MODULE = "submitted_bot"
"""A single file's module in its entry's folder (short: errors quote it)."""
_OUTPUT = UnpackLimits(max_bytes=256 << 20, max_files=5_000, max_ratio=1e9)

_PY_RUNNER = """\
# Runs {bot} over stdin and stdout for the referee (arena.competition).
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(here, {folder!r}) if {folder!r} else here)
protocol = os.dup(1)
os.dup2(2, 1)  # the bot's own prints go to its stderr, never into the protocol
from arena.referee.child.__main__ import main

sys.exit(main(["--bot", {bot!r}, "--in", "0", "--out", str(protocol)]))
"""

_SH_RUNNER = """\
# Runs the program's run command in its folder (arena.competition).
cd "$(dirname "$0")/prog" || exit 127
exec {run}
"""


@dataclass(frozen=True)
class BuildLimits:
    """A build's bounds: seconds (wall clock and CPU) and MiB (memory, and its ``/tmp``)."""

    seconds: int = 300
    memory_mb: int = 1024


class BuildFailed(CompetitionError):
    """A build that did not make its artifact: the first line that explains it, and the
    log."""

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


def artifact_path(competition: Path, sha256: str) -> Path:
    """Where the built artifact of the submission ``sha256`` is kept."""
    return competition / BUILT_DIR / f"{sha256}.tar"


def run_build(command: str, cwd: Path, work: Path, limits: BuildLimits, private: list[str],
              *, sandboxed: bool = True) -> tuple[int | None, str, float]:
    """Run ``command`` (by ``/bin/sh``, in ``cwd``) where only ``work`` is writable; its
    exit status (None: stopped, at the time limit or with ``work`` over the bounds of what a
    build may leave, checked twice a second; the log's last line says which), its log and
    its seconds. ``sandboxed`` False only measures what the sandbox costs (benchmarks/)."""
    from arena.referee.lowlevel import ChildProcess, sandbox_argv

    argv = ["/bin/sh", "-c", f"cd {_quote(cwd)} && exec 1>&2 && {command}"]
    sandbox = (sandbox_argv(private, writable=[str(work)], program=argv,
                            tmp_mb=limits.memory_mb) if sandboxed else None)
    start = time.monotonic()
    child = ChildProcess(argv, stdio=False, pipes=False, memory_mb=limits.memory_mb,
                         cpu_s=limits.seconds, sandbox=sandbox)
    stopped, looked = None, start
    try:
        while child.poll() is None and stopped is None:
            time.sleep(0.02)
            now = time.monotonic()
            if now - start > limits.seconds:
                stopped = f"the build took over {limits.seconds} s (stopped)"
            elif now - looked > 0.5:
                stopped, looked = _over(work), now
        code = None if stopped else child.poll()
        log = child.tail(LOG_BYTES)
        memory = child.memory_fault()
    finally:
        child.kill()
    for line in (memory.detail if memory is not None else None, stopped):
        if line:
            log += f"\n{line}\n"
    return code, log, time.monotonic() - start


def _over(work: Path) -> str | None:
    """Why ``work`` holds more than a build may leave (a build filling the disk is stopped
    there), or None."""
    files, size = 0, 0
    for dirpath, dirnames, filenames in os.walk(work):
        for name in [*dirnames, *filenames]:
            with contextlib.suppress(OSError):
                size += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
            files += 1
        if files > _OUTPUT.max_files or size > _OUTPUT.max_bytes:
            return (f"the build's folder holds more than {_OUTPUT.max_files} files or "
                    f"{_OUTPUT.max_bytes >> 20} MiB (stopped)")
    return None


def _quote(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))


def _own(folder: Path, uid: int) -> None:
    """Give ``folder`` and all it holds to ``uid`` (links left as they are: refused later)."""
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in ["", *dirnames, *filenames]:
            os.lchown(os.path.join(dirpath, name), uid, uid)


def _pack(stage: Path) -> bytes:
    """``stage`` as a tar of fixed order, owners, times and modes; a refusal for a link or
    anything but files and folders, or past the bounds."""
    out = io.BytesIO()
    files, size = 0, 0
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for dirpath, dirnames, filenames in os.walk(stage):
            dirnames.sort()
            for name in [*dirnames, *sorted(filenames)]:
                path = Path(dirpath, name)
                found = os.lstat(path)
                shown = str(path.relative_to(stage))[:80]
                if not (stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode)):
                    raise CompetitionError(f"the build left {shown!r}, which is not a file or "
                                           "a folder (a link?)")
                files, size = files + 1, size + found.st_size
                if files > _OUTPUT.max_files or size > _OUTPUT.max_bytes:
                    raise CompetitionError(f"the build left more than {_OUTPUT.max_files} "
                                           f"files or {_OUTPUT.max_bytes >> 20} MiB")
                info = tarfile.TarInfo(str(path.relative_to(stage)))
                info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
                if stat.S_ISDIR(found.st_mode):
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                    continue
                info.size = found.st_size
                info.mode = 0o755 if found.st_mode & stat.S_IXUSR else 0o644
                with path.open("rb") as data:
                    tar.addfile(info, data)
    return out.getvalue()


def _first_line(log: str, code: int | None) -> str:
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    if code is None:  # stopped: run_build said why, last
        return lines[-1]
    errors = [line for line in lines if "error" in line.lower()]
    return f"the build failed (exit status {code}): " + (
        errors[0] if errors else lines[-1] if lines else "no output")[:300]


def _build_in(work: Path, source: Path, submission: Submission, limits: BuildLimits,
              private: list[str]) -> tuple[Path, str]:
    """Build the unpacked ``source`` in ``work``: the folder to pack, and the log."""
    stage = work / "stage"
    stage.mkdir()
    if submission.kind == "python-package":
        bot = package_entry(source)
        (stage / "site").mkdir()
        command = (f"{_quote(Path(sys.executable))} -m pip install --no-index "
                   "--no-build-isolation --no-deps --no-cache-dir --disable-pip-version-check "
                   f"--no-compile --target {_quote(stage / 'site')} {_quote(source)}")
        runner, text = "run.py", _PY_RUNNER.format(bot=bot, folder="site")
        cwd = work
    else:
        run, build_command = manifest(source)
        cwd = stage / "prog"
        source.rename(cwd)
        command = build_command or "true"
        runner, text = "run.sh", _SH_RUNNER.format(run=run)
    if os.geteuid() == 0:  # the build's user writes its folder, and only it
        from arena.referee.lowlevel import BOT_UID

        _own(work, BOT_UID)
    try:
        code, log, seconds = run_build(command, cwd, work, limits, private)
    finally:
        if os.geteuid() == 0:
            _own(work, os.getuid())
    shown = f"$ {command}\n{log}\n(exit status {code}, {seconds:.1f} s)\n"
    if code != 0:
        raise BuildFailed(_first_line(log, code), shown)
    (stage / runner).write_text(text, encoding="utf-8")
    return stage, shown


def build(competition: Path, submission: Submission, limits: BuildLimits,
          private: list[str]) -> tuple[Path, str]:
    """Build ``submission`` into :func:`artifact_path` (kept once by its hash): the
    artifact and the build's log; :class:`BuildFailed` (a :class:`CompetitionError`) with
    the first line that explains it."""
    target = artifact_path(competition, submission.sha256)
    source = source_path(competition, submission.kind, submission.sha256)
    with tempfile.TemporaryDirectory(prefix="arena-build-") as scratch:
        work = Path(scratch) / "work"
        os.chmod(scratch, 0o755)  # the sandboxed build's user passes through it
        work.mkdir(mode=0o700)
        log = ""
        if submission.kind == "python-file":
            stage = work / "stage"
            stage.mkdir()
            shutil.copyfile(source, stage / f"{_FILE_MODULE}.py")
            (stage / "run.py").write_text(_PY_RUNNER.format(
                bot=f"{_FILE_MODULE}:{_bot_class(source)}", folder=""), encoding="utf-8")
        else:
            try:
                unpack_archive(source, work / "src")
                stage, log = _build_in(work, source_root(work / "src"), submission, limits,
                                       private)
            except BuildFailed:
                raise
            except CompetitionError as exc:  # checked when it came: a server of other bounds
                raise BuildFailed(str(exc), log) from None
        try:
            data = _pack(stage)
        except CompetitionError as exc:
            raise BuildFailed(str(exc), log) from None
    target.parent.mkdir(exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.new")
    partial.write_bytes(data)
    os.replace(partial, target)
    return target, log


def _bot_class(source: Path) -> str:
    from ._files import check_python_file

    data = source.read_bytes()
    return check_python_file(data, len(data)).bot_class

