"""The public names of each package: they exist, say what they are, and each thing has one."""

from __future__ import annotations

import importlib
import inspect
import typing

import pytest

PACKAGES = ["arena", "arena.game", "arena.referee", "arena.referee.uecda", "arena.referee.wire",
            "arena.tournament", "arena.records", "arena.ratings", "arena.report", "bots"]


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
