"""The build of arena's compiled engine (the rest of the package is in pyproject.toml).

With ``ARENA_COMPILE=1``, where the machine has a C compiler, ``pip install`` (editable or
not) compiles the hot modules of ``arena.game`` (and the encoding of ``arena.env``) with
mypyc; the same ``.py`` files stay beside them as the pure fallback, which gives identical
records. Without a compiler, or when the build fails, or
with ``ARENA_PURE=1`` at build time, nothing is compiled and one line says so; the package
installs all the same. ``ARENA_PURE=1`` at run time forces the pure modules (see
docs/architecture.md, "The compiled engine").
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules compiled: arena/game all but __init__, _engine (which chooses) and _rules,
# whose dataclass takes lists where its fields say tuples and so stays interpreted; and the
# encoding and the match driver of arena/env, every environment's step. arena/game/_engine.py
# lists the same packages.
COMPILED = (
    *(f"arena/game/{name}.py" for name in ("_cards", "_moves", "_tables", "_judge", "_shuffle",
                                          "_deal", "_view", "_match")),
    "arena/env/_encoding.py", "arena/env/_table.py")
GROUP = "arena.game._compiled"  # mypyc's shared library: arena/game/_compiled__mypyc.*.so
_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def _say(message: str) -> None:
    print(f"arena: {message}", file=sys.stderr, flush=True)


def _mypyc_extensions() -> list[Extension]:
    if os.environ.get("ARENA_PURE", "") not in ("", "0"):
        _say("ARENA_PURE is set: the engine is not compiled (pure Python)")
        return []
    if os.environ.get("ARENA_COMPILE", "") in ("", "0"):
        # Opt-in for now: the compiled path does not yet pass the whole suite (docs/
        # architecture.md, "The compiled engine", lists what fails).
        _say("the engine is not compiled (pure Python); ARENA_COMPILE=1 compiles it with mypyc")
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify(
            ["--config-file=", "--follow-imports=silent", "--ignore-missing-imports", *COMPILED],
            opt_level="3", group_name=GROUP))
    except (Exception, SystemExit) as error:  # no mypyc, or mypyc refuses the code
        _skip(error)
        return []


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
            _say(f"the engine is compiled with mypyc ({len(COMPILED)} modules)")

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


def _skip(error: BaseException) -> None:
    reason = (str(error).strip().splitlines() or [type(error).__name__])[-1]
    _say(f"the engine is not compiled, pure Python is used ({reason})")


# The commands that build: mypyc runs for these only, not when pip reads the metadata.
_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _options() -> dict[str, Any]:
    if not _BUILDS & set(sys.argv[1:]):
        return {}
    return {"ext_modules": _mypyc_extensions(), "cmdclass": {"build_ext": OptionalBuildExt}}


setup(**_options())
