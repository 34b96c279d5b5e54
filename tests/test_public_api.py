"""The public names of each package: they exist, say what they are, and each thing has one."""

from __future__ import annotations

import importlib
import inspect
import typing

import pytest

PACKAGES = ["arena", "arena.game", "arena.referee", "arena.referee.lowlevel",
            "arena.referee.uecda", "arena.referee.wire", "arena.tournament", "arena.records",
            "arena.ratings", "arena.report", "arena.web", "arena.competition", "bots"]


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


def test_the_referee_has_a_users_tier_and_a_lowlevel_tier_and_each_name_one_of_them() -> None:
    """arena.referee is the users' tier; its machinery is arena.referee.lowlevel, as trio's is
    trio.lowlevel. A lowlevel name is still importable from arena.referee (code written
    against its former flat namespace) as the same object, but is not public there."""
    referee = importlib.import_module("arena.referee")
    lowlevel = importlib.import_module("arena.referee.lowlevel")
    assert not set(referee.__all__) & set(lowlevel.__all__)
    assert {"MatchSpec", "run_match", "play_match", "Host", "BotFault"} <= set(referee.__all__)
    assert {"ChildProcess", "LineDecoder", "Clock", "MemoryHost", "Meter"} <= set(
        lowlevel.__all__)
    for name in lowlevel.__all__:
        assert getattr(referee, name) is getattr(lowlevel, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing_of_the_kind'"):
        referee.nothing_of_the_kind  # noqa: B018
