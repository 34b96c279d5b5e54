"""The public names of each package: they exist, say what they are, and each thing has one."""

from __future__ import annotations

import importlib
import inspect
import typing

import pytest

PACKAGES = ["arena", "arena.game", "arena.referee", "arena.referee.lowlevel",
            "arena.referee.testing", "arena.tournament", "arena.records",
            "arena.ratings", "arena.report", "arena.web", "arena.competition",
            "arena.cli.progress", "bots"]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_public_name_exists_and_has_a_docstring(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__, f"{name} has no docstring"
    undocumented = []
    for public in module.__all__:
        value = getattr(module, public)  # raises for a name __all__ promises but lacks
        if (inspect.isclass(value) or inspect.isfunction(value)) and not value.__doc__:
            undocumented.append(public)
    assert not undocumented, f"{name}: no docstring for {', '.join(undocumented)}"


@pytest.mark.parametrize("name", PACKAGES)
def test_no_private_name_is_public(name: str) -> None:
    module = importlib.import_module(name)
    assert [n for n in module.__all__ if n.startswith("_")] == []


def test_one_list_of_fault_kinds() -> None:
    from arena.game import FAULT_KINDS
    from arena.referee._faults import FaultKind

    assert typing.get_args(FaultKind) == FAULT_KINDS
    assert "FAULT_KINDS" not in importlib.import_module("arena.referee").__all__


def test_the_referee_has_three_faces_and_each_name_one_of_them() -> None:
    """arena.referee is the users' tier; its machinery is arena.referee.lowlevel, as trio's is
    trio.lowlevel; its test double is arena.referee.testing. A name is public in one face
    only, and the old flat names (a lowlevel name, a room's module) are not served by the
    users' tier."""
    referee = importlib.import_module("arena.referee")
    lowlevel = importlib.import_module("arena.referee.lowlevel")
    testing = importlib.import_module("arena.referee.testing")
    faces = [set(referee.__all__), set(lowlevel.__all__), set(testing.__all__)]
    assert sum(map(len, faces)) == len(set.union(*faces))
    assert {"MatchSpec", "run_match", "play_match", "Host", "BotFault"} <= faces[0]
    assert {"ChildProcess", "LineDecoder", "Clock", "Meter", "FullEncoder", "uecda"} <= faces[1]
    assert faces[2] == {"MemoryHost"}
    for name in ("MemoryHost", "ChildProcess", "wire", "nothing_of_the_kind"):
        with pytest.raises(AttributeError, match=f"no attribute '{name}'"):
            getattr(referee, name)
