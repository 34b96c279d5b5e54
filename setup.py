"""The build of arena's compiled engine (the rest of the package is in pyproject.toml).

Where the machine has a working C compiler, ``pip install`` (editable or not) compiles the
hot modules of ``arena.game`` (and the encoding and the table of ``arena.env``) with mypyc;
the same ``.py`` files stay beside them as the pure fallback, which gives identical records.
Without a compiler, or when the build fails, nothing is compiled and one line says why; the
package installs all the same. ``ARENA_COMPILE=0`` (or ``ARENA_PURE=1``) at build time
compiles nothing; ``ARENA_PURE=1`` at run time forces the pure modules (see
docs/architecture.md, "The compiled engine").
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules compiled: arena/game all but __init__, _engine (which chooses) and _rules,
# whose dataclass takes lists where its fields say tuples and so stays interpreted; the
# encoding and the match driver of arena/env, every environment's step; and the referee's
# match loop and record builder, every decision's rules and every deal's record (not the
# inline driver: a bot's crash is recorded with the traceback of the line that called it,
# which a compiled function gives without its source). arena/game/_engine.py lists the
# same packages.
COMPILED = (
    *(f"arena/game/{name}.py" for name in ("_cards", "_moves", "_tables", "_judge", "_shuffle",
                                          "_state", "_deal", "_view", "_match")),
    "arena/env/_encoding.py", "arena/env/_table.py",
    "arena/referee/loop/_loop.py", "arena/referee/loop/_record.py")
# Written in C, each the twin of a module of the same name in Python (which says what it
# does and is what the pure engine loads): the last step of every observation, which makes
# numpy arrays (numpy's headers: a requirement of the build, pyproject.toml).
C_MODULES = ("arena.env._bits",)
GROUP = "arena.game._compiled"  # mypyc's shared library: arena/game/_compiled__mypyc.*.so
_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
_IN_PLACE = {"editable_wheel", "develop"}  # the builds that leave the compiled modules in place


def _c_extensions() -> list[Extension]:
    import numpy

    return [Extension(name, [name.replace(".", "/") + ".c"], include_dirs=[numpy.get_include()],
                      extra_compile_args=["-O2"]) for name in C_MODULES]


def _say(message: str) -> None:
    print(f"arena: {message}", file=sys.stderr, flush=True)


def _mypyc_extensions() -> list[Extension]:
    if os.environ.get("ARENA_PURE", "") not in ("", "0"):
        _say(f"ARENA_PURE is set: the engine is not compiled (pure Python){_unbuilt()}")
        return []
    if os.environ.get("ARENA_COMPILE", "") == "0":
        _say(f"ARENA_COMPILE=0: the engine is not compiled (pure Python){_unbuilt()}")
        return []
    missing = _no_compiler()
    if missing:  # said before mypyc spends a minute translating for nothing
        _skip(missing)
        return []
    try:
        from mypyc.build import mypycify

        return [*mypycify(
            ["--config-file=", "--follow-imports=silent", "--ignore-missing-imports", *COMPILED],
            opt_level="3", group_name=GROUP), *_c_extensions()]
    except (Exception, SystemExit) as error:  # no mypyc, or mypyc refuses the code
        _skip(error)
        return []


def _unbuilt() -> str:
    """Remove the compiled modules an earlier build left in the source tree for this Python
    (an editable install builds in place, and Python imports them before the ``.py``); a
    note for the build's line when there were any."""
    if not _IN_PLACE & set(sys.argv[1:]) and not {"--inplace", "-i"} & set(sys.argv[1:]):
        return ""
    root = Path(__file__).resolve().parent
    names = [*(path.removesuffix(".py") for path in COMPILED),
             *(name.replace(".", "/") for name in C_MODULES), GROUP.replace(".", "/") + "__mypyc"]
    found = [root / f"{name}{suffix}" for name in names for suffix in EXTENSION_SUFFIXES
             if (root / f"{name}{suffix}").is_file()]
    for path in found:
        path.unlink()
    return f"; removed {len(found)} compiled modules of an earlier build" if found else ""


def _no_compiler() -> str:
    """Why the build could not compile C, or "" when it can: the compiler (``CC``, else
    Python's own from sysconfig) tried on a line of C, and Python's headers."""
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not command or shutil.which(command[0]) is None:
        return f"no C compiler: {command[0] if command else 'CC is empty'} not found"
    try:
        done = subprocess.run([*command, "-x", "c", "-c", "-o", os.devnull, "-"],
                              input="int arena;\n", capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"the C compiler {command[0]} does not run: {error}"
    if done.returncode:
        return f"the C compiler {command[0]} fails on a line of C (exit {done.returncode})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h; a python3-dev package has them)"
    return ""


class OptionalBuildExt(build_ext):
    """Build the compiled engine; on any failure (no C compiler, a failed compile) leave
    nothing of it behind, so that the pure modules are what Python imports."""

    def run(self) -> None:
        try:
            super().run()
        except (Exception, SystemExit) as error:
            for ext in self.extensions:  # a part of the build would shadow the pure modules
                for path in (Path(self.get_ext_fullpath(ext.name)),
                             Path(*ext.name.split(".")).with_suffix(_SUFFIX)):
                    path.unlink(missing_ok=True)
            self.extensions = []
            _skip(error)
            return
        if self.extensions:
            _say(f"the engine is compiled with mypyc ({len(COMPILED)} modules) and C "
                 f"({len(C_MODULES)} module{'s' if len(C_MODULES) > 1 else ''})")

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


def _skip(error: BaseException) -> None:
    if isinstance(error, SystemExit):  # mypyc's type check failed: it printed the errors
        reason = f"mypyc refused the code, exit status {error.code}: see its errors above"
    else:
        reason = (str(error).strip().splitlines() or [type(error).__name__])[-1]
    _say(f"the engine is not compiled, pure Python is used ({reason}){_unbuilt()}")


# The commands that build: mypyc runs for these only, not when pip reads the metadata.
_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _options() -> dict[str, Any]:
    if not _BUILDS & set(sys.argv[1:]):
        return {}
    return {"ext_modules": _mypyc_extensions(), "cmdclass": {"build_ext": OptionalBuildExt}}


setup(**_options())
