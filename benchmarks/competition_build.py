"""A submission's build: its time in the sandbox against the same build without it.

Builds the package ``arena new-bot`` writes (``pip install --no-index
--no-build-isolation --no-deps --target``) and the C example with its manifest (``cc -O2
-o bot bot.c``), each by ``arena.competition.run_build`` as a competition does, taking
turns between a sandboxed and a plain build of the same source in a fresh folder, so both
see the same load. The floor is the plain build; the sandbox's cost is the difference of
the medians. Prints the load beside the figures.

    python benchmarks/competition_build.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from arena.cli._newbot import write_bot
from arena.competition import BuildLimits, run_build
from arena.referee import sandbox_unavailable_reason

ROOT = Path(__file__).resolve().parents[1]


def _sources(parent: Path) -> dict[str, tuple[Path, str]]:
    package = write_bot("benchbot", "python", parent)
    command = (f"{sys.executable} -m pip install --no-index --no-build-isolation --no-deps "
               "--no-cache-dir --disable-pip-version-check --no-compile --target site .")
    found = {"package (pip)": (package, command)}
    if shutil.which("cc"):
        program = parent / "cbot"
        program.mkdir()
        shutil.copyfile(ROOT / "examples" / "c-bot" / "bot.c", program / "bot.c")
        found["C program (cc)"] = (program, "cc -O2 -o bot bot.c")
    return found


def _once(source: Path, command: str, sandboxed: bool) -> float:
    with tempfile.TemporaryDirectory(prefix="arena-bench-build-") as scratch:
        os.chmod(scratch, 0o755)
        work = Path(scratch) / "work"
        shutil.copytree(source, work)
        if os.geteuid() == 0:  # the sandboxed build's user writes its folder
            for dirpath, _, filenames in os.walk(work):
                for name in ["", *filenames]:
                    os.lchown(os.path.join(dirpath, name), 65534, 65534)
        code, log, seconds = run_build(command, work, work, BuildLimits(300, 1024), [],
                                       sandboxed=sandboxed)
        if code != 0:
            raise SystemExit(f"the build failed: {log[-500:]}")
        return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    reason = sandbox_unavailable_reason()
    if reason is not None:
        raise SystemExit(reason)
    print(f"load: {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} (1, 5 min)")
    with tempfile.TemporaryDirectory() as parent:
        for name, (source, command) in _sources(Path(parent)).items():
            times: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(runs):
                for sandboxed in (False, True):
                    times[sandboxed].append(_once(source, command, sandboxed))
            plain, boxed = (statistics.median(times[False]), statistics.median(times[True]))
            print(f"{name}: median of {runs}: plain {plain:.2f} s, sandboxed {boxed:.2f} s, "
                  f"cost {boxed - plain:+.2f} s ({boxed / plain:.2f}x)")
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
