"""Install throwaway plugin packages on ``sys.path``, with real dist-info metadata.

A directory holding ``<name>-<version>.dist-info/entry_points.txt`` is exactly what pip
leaves in site-packages, so the registry finds these through ``importlib.metadata``
the way it finds any installed bot package.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest

from arena.plugins import registry


class Install(Protocol):
    def __call__(self, dist: str, plugin: str, module: str, source: str,
                 version: str = "1.2.3") -> None: ...


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """A function that installs a one-module plugin package into a fresh path entry."""
    monkeypatch.syspath_prepend(str(tmp_path))
    tmp_path.chmod(0o755)  # a sandboxed bot's uid (nobody, outside too) reads the package
    modules: list[str] = []

    def _install(dist: str, plugin: str, module: str, source: str,
                 version: str = "1.2.3") -> None:
        (tmp_path / f"{module}.py").write_text(source)
        info = tmp_path / f"{dist.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        (info / "entry_points.txt").write_text(f"[arena.bots]\n{plugin} = {module}\n")
        modules.append(module)
        importlib.invalidate_caches()

    registry.cache_clear()
    yield _install
    registry.cache_clear()
    for module in modules:
        sys.modules.pop(module, None)


GOOD = '''
from arena import Bot, hookimpl

class Alpha(Bot):
    """Always leads, never thinks."""
    author = "A. Writer"
    stochastic = True
    def play(self, view):
        return view.legal_moves()[0]

@hookimpl
def register_bots(register):
    register("alpha", Alpha)
    register("alpha-strict", Alpha, description="Alpha, described here", stochastic=False)
'''

BROKEN = '''
import this_module_does_not_exist_anywhere
'''

DUPLICATE = '''
from arena import Bot, hookimpl

class Greedy(Bot):
    def play(self, view):
        return view.legal_moves()[0]

@hookimpl
def register_bots(register):
    register("greedy", Greedy)
'''
